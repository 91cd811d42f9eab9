package io.kftrainer.operator.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.operator.ops.OpsServer;
import io.kftrainer.operator.app.WebhookComponent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code trainer-operator run}: the operator in a cluster. Parses the options into an {@link OperatorConfig},
 * connects ({@link KubernetesClients}), starts a {@link TrainerOperator} with the webhook, health and metrics
 * servers, and runs until SIGTERM (exit 0) or a fatal stop such as the loss of leadership (exit 1, so that the
 * kubelet restarts the container as a follower).
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
    description = "Run the operator: reconcile TrainJobs in a cluster and serve the admission webhooks.")
public final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "Kubeconfig of the cluster (default: $KUBECONFIG, then ~/.kube/config, then the in-cluster "
          + "service account).")
  private Path kubeconfig;

  @Mixin
  private PluginsDirOption plugins;

  @Option(names = "--namespaces", paramLabel = "NS", split = ",",
      description = "Comma-separated namespaces whose TrainJobs to reconcile (default: all namespaces).")
  private List<String> namespaces = List.of();

  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "" + OperatorConfig.DEFAULT_WEBHOOK_PORT,
      description = "HTTPS port of the admission webhooks (default: ${DEFAULT-VALUE}).")
  private int webhookPort;

  @Option(names = "--webhook-cert-dir", paramLabel = "DIR",
      description = "Directory with tls.crt, tls.key and ca.crt for the webhook server, e.g. from cert-manager "
          + "(default: none: the operator generates a self-signed CA, keeps it in --webhook-secret-name and "
          + "injects it into its webhook configurations).")
  private Path webhookCertDir;

  @Option(names = "--webhook-secret-name", paramLabel = "NAME",
      defaultValue = OperatorConfig.DEFAULT_WEBHOOK_SECRET_NAME,
      description = "Secret in --operator-namespace holding the generated webhook certificate "
          + "(default: ${DEFAULT-VALUE}).")
  private String webhookSecretName;

  @Option(names = "--webhook-service-name", paramLabel = "NAME",
      defaultValue = OperatorConfig.DEFAULT_WEBHOOK_SERVICE_NAME,
      description = "Service in front of the webhook server; the generated certificate is for its DNS names "
          + "(default: ${DEFAULT-VALUE}).")
  private String webhookServiceName;

  @Option(names = "--operator-namespace", paramLabel = "NS",
      defaultValue = "${env:POD_NAMESPACE:-" + OperatorConfig.DEFAULT_OPERATOR_NAMESPACE + "}",
      description = "Namespace of the operator's own objects: leader-election Lease, webhook Secret "
          + "(default: $POD_NAMESPACE, else " + OperatorConfig.DEFAULT_OPERATOR_NAMESPACE + "; now: ${DEFAULT-VALUE}).")
  private String operatorNamespace;

  @Option(names = "--health-port", paramLabel = "PORT", defaultValue = "" + OperatorConfig.DEFAULT_HEALTH_PORT,
      description = "HTTP port of /healthz and /readyz (default: ${DEFAULT-VALUE}).")
  private int healthPort;

  @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "" + OperatorConfig.DEFAULT_METRICS_PORT,
      description = "HTTP port of the Prometheus /metrics (default: ${DEFAULT-VALUE}).")
  private int metricsPort;

  @Option(names = "--leader-elect", paramLabel = "BOOLEAN", arity = "0..1", defaultValue = "true",
      fallbackValue = "true",
      description = "Reconcile only while holding the leader-election Lease, so that replicas never reconcile at "
          + "once; --leader-elect=false turns it off (default: ${DEFAULT-VALUE}).")
  private boolean leaderElect;

  @Option(names = "--leader-election-lease-name", paramLabel = "NAME", defaultValue = OperatorConfig.DEFAULT_LEASE_NAME,
      description = "Name of the leader-election Lease in --operator-namespace (default: ${DEFAULT-VALUE}).")
  private String leaseName;

  @Option(names = "--kube-api-qps", paramLabel = "QPS", defaultValue = "50",
      description = "Sustained requests per second to the API server; 0 for no limit (default: ${DEFAULT-VALUE}).")
  private double kubeApiQps;

  @Option(names = "--kube-api-burst", paramLabel = "N", defaultValue = "" + OperatorConfig.DEFAULT_KUBE_API_BURST,
      description = "Requests to the API server allowed in a burst above --kube-api-qps, and at most in flight "
          + "(default: ${DEFAULT-VALUE}).")
  private int kubeApiBurst;

  @Option(names = "--trainjob-concurrency", paramLabel = "N",
      defaultValue = "" + OperatorConfig.DEFAULT_TRAINJOB_CONCURRENCY,
      description = "TrainJobs reconciled in parallel (default: ${DEFAULT-VALUE}).")
  private int trainJobConcurrency;

  @Option(names = "--bind-address", paramLabel = "ADDRESS", defaultValue = OperatorConfig.DEFAULT_BIND_ADDRESS,
      description = "Address the webhook, health and metrics servers listen on (default: ${DEFAULT-VALUE}, every "
          + "interface).")
  private String bindAddress;

  @Mixin
  private BehaviourOptions behaviour = new BehaviourOptions();

  /** The options as a configuration. */
  public OperatorConfig config() {
    Set<String> watched = new LinkedHashSet<>();
    namespaces.stream().map(String::trim).filter(ns -> !ns.isEmpty()).forEach(watched::add);
    OperatorConfig config = new OperatorConfig(Optional.ofNullable(kubeconfig), plugins.pluginsDir(), watched,
        operatorNamespace,
        new OperatorConfig.Webhook(webhookPort, Optional.ofNullable(webhookCertDir), webhookSecretName,
            webhookServiceName),
        healthPort, metricsPort, new OperatorConfig.LeaderElection(leaderElect, leaseName), kubeApiQps, kubeApiBurst,
        trainJobConcurrency, OperatorConfig.Timings.defaults(), bindAddress, false, false,
        OperatorConfig.DEFAULT_PLUGIN_CALL_TIMEOUT);
    return behaviour.applyTo(config);
  }

  @Override
  public Integer call() throws InterruptedException {
    OperatorConfig config = config();
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (KubernetesClient client = KubernetesClients.create(config)) {
      TrainerOperator.Builder builder = TrainerOperator.builder(config, client)
          .meterRegistry(metrics)
          .identity(identity())
          .plugins(plugins.load(config.statusConditions()));
      components().forEach(builder::component);
      TrainerOperator operator = builder.build();
      AtomicBoolean running = new AtomicBoolean(true);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        if (running.getAndSet(false)) {
          operator.stop();
          // SIGTERM is how Kubernetes stops the operator, a success: exit 0 (the JVM would exit 143, 128 + SIGTERM)
          Runtime.getRuntime().halt(0);
        }
      }, "trainer-operator-shutdown"));
      operator.start();
      TrainerOperator.Termination termination = operator.awaitTermination();
      running.set(false);
      if (termination.fatal()) {
        LOG.error("The operator stopped: {}", termination.reason());
        return 1;
      }
      return 0;
    }
  }

  /**
   * The servers that run next to the controller, in start order: health probes and metrics first (the kubelet
   * probes the process while the webhook certificate is being set up), then the admission webhooks.
   */
  public static List<OperatorComponent.Factory> components() {
    return List.of(OpsServer.factory(), WebhookComponent.factory());
  }

  /** The pod name (HOSTNAME in a pod) plus a random part, as client-go's leader-election identities. */
  private static String identity() {
    String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElse("trainer-operator");
    return host + "_" + UUID.randomUUID();
  }
}
