package io.kftrainer.operator.app;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.operator.metrics.RestClientMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The operator's Kubernetes client: where it connects ({@code --kubeconfig}, else what fabric8 finds:
 * {@code KUBECONFIG}, {@code ~/.kube/config}, the in-cluster service account) and how hard it may push the API
 * server ({@code --kube-api-qps}, {@code --kube-api-burst}).
 *
 * <p>The limits go where fabric8 7.5 has knobs for them, {@code maxConcurrentRequests} and
 * {@code maxConcurrentRequestsPerHost} (both set to the burst), and, since fabric8 has no request-rate setting
 * and its JDK HTTP client ignores the concurrency ones, into a {@link RequestRateLimiter} on the HTTP client.
 * Its threads are bounded and named ({@link ClientThreads}).
 */
public final class KubernetesClients {

  /** What the operator client's threads are named after. */
  static final String CLIENT_NAME = "operator";
  /**
   * One serialization for every client made here: fabric8 gives each client its own Jackson mapper, which builds a
   * (de)serializer per model class (a JobSet's holds a whole PodSpec's) the first time it meets one, so the three
   * clients of {@code local} (its own, the operator's, the executor's) built each of them three times at start-up.
   * Jackson's mappers are safe to share between threads once configured; fabric8 only adds the custom resource
   * classes a client is asked for, the same ones for every client.
   */
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private KubernetesClients() {
  }

  /**
   * A client for {@code connection} without the operator's limits, its threads bounded and named after
   * {@code name}: for the other clients of a process that runs the operator ({@code local}'s own, its executor's).
   */
  public static KubernetesClient unlimited(Config connection, String name) {
    return ClientThreads.builder(name).withConfig(connection).withKubernetesSerialization(SERIALIZATION).build();
  }

  /** A client for the cluster {@code config} names, limited as it says. */
  public static KubernetesClient create(OperatorConfig config) {
    return create(connection(config), config);
  }

  /** As {@link #create(OperatorConfig)}, counting its requests into {@code metrics} ({@link RestClientMetrics}). */
  public static KubernetesClient create(OperatorConfig config, MeterRegistry metrics) {
    return create(connection(config), config, Optional.of(new RestClientMetrics(metrics)));
  }

  /**
   * A client for {@code connection} (for example the embedded API server of {@code local} mode), limited as
   * {@code config} says. {@code connection} is not changed.
   */
  public static KubernetesClient create(Config connection, OperatorConfig config) {
    return create(connection, config, Optional.empty());
  }

  /** As {@link #create(Config, OperatorConfig)}, counting its requests into {@code metrics}. */
  public static KubernetesClient create(Config connection, OperatorConfig config, MeterRegistry metrics) {
    return create(connection, config, Optional.of(new RestClientMetrics(metrics)));
  }

  private static KubernetesClient create(Config connection, OperatorConfig config,
      Optional<RestClientMetrics> metrics) {
    Config limited = limited(connection, config);
    RequestRateLimiter rateLimiter = new RequestRateLimiter(config.kubeApiQps(), config.kubeApiBurst());
    return ClientThreads.builder(CLIENT_NAME)
        .withConfig(limited)
        .withKubernetesSerialization(SERIALIZATION)
        .withHttpClientBuilderConsumer(builder -> {
          builder.addOrReplaceInterceptor(RequestRateLimiter.NAME, rateLimiter);
          metrics.ifPresent(counter -> builder.addOrReplaceInterceptor(RestClientMetrics.NAME, counter));
        })
        .build();
  }

  /** Where {@code config} says to connect, before limits. */
  public static Config connection(OperatorConfig config) {
    return config.kubeconfig()
        .map(KubernetesClients::fromKubeconfig)
        .orElseGet(() -> Config.autoConfigure(null));
  }

  /** A copy of {@code connection} with the concurrency limits of {@code config}. */
  static Config limited(Config connection, OperatorConfig config) {
    Config copy = new ConfigBuilder(connection).build();
    copy.setMaxConcurrentRequests(config.kubeApiBurst());
    copy.setMaxConcurrentRequestsPerHost(config.kubeApiBurst());
    return copy;
  }

  private static Config fromKubeconfig(Path path) {
    if (!Files.isReadable(path)) {
      throw new IllegalArgumentException("--kubeconfig " + path + " is not a readable file");
    }
    return Config.fromKubeconfig(path.toFile());
  }
}
