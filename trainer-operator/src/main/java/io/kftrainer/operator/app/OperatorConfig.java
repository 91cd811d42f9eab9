package io.kftrainer.operator.app;

import io.kftrainer.framework.runner.StatusConditions;
import io.kftrainer.operator.plugins.OperatorPlugins;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything {@code trainer-operator run} is configured with, read once at start-up. Each field is one
 * command-line option of {@code run} (named in its Javadoc) except {@link #timings()}, which only tests and
 * {@code local} mode change. The defaults here are the command line's defaults.
 *
 * @param kubeconfig {@code --kubeconfig}; empty: {@code KUBECONFIG}, then {@code ~/.kube/config}, then the
 *     in-cluster service account, as fabric8 resolves them
 * @param pluginsDir {@code --plugins-dir}
 * @param namespaces {@code --namespaces}; empty: every namespace
 * @param operatorNamespace {@code --operator-namespace}: where the leader-election Lease (and the webhook
 *     certificate Secret) live
 * @param webhook the {@code --webhook-*} options
 * @param healthPort {@code --health-port}
 * @param metricsPort {@code --metrics-port}
 * @param leaderElection {@code --leader-elect} and {@code --leader-election-lease-name}
 * @param kubeApiQps {@code --kube-api-qps}: sustained requests per second to the API server (0 or less: no limit)
 * @param kubeApiBurst {@code --kube-api-burst}: requests allowed at once above the sustained rate, and the
 *     client's limit of concurrent requests
 * @param trainJobConcurrency {@code --trainjob-concurrency}: TrainJobs reconciled in parallel
 * @param timings lease, resync and retry durations
 * @param bindAddress {@code --bind-address}: the address the webhook, health and metrics servers listen on
 * @param createdCondition {@code --created-condition}: also write the design document's (KEP-2170) {@code Created} condition (off:
 *     exactly upstream's {@code Suspended}, {@code Complete}, {@code Failed}, which the Kubeflow SDK needs to show
 *     {@code Running})
 * @param allowPluginLoadFailures {@code --allow-plugin-load-failures}: start without a plugin jar that cannot be
 *     loaded instead of stopping
 * @param pluginCallTimeout {@code --plugin-call-timeout}: a plugin call that has not returned by then fails its
 *     TrainJob's reconcile (or the admission request) naming the plugin
 */
public record OperatorConfig(Optional<Path> kubeconfig, Path pluginsDir, Set<String> namespaces,
    String operatorNamespace, Webhook webhook, int healthPort, int metricsPort, LeaderElection leaderElection,
    double kubeApiQps, int kubeApiBurst, int trainJobConcurrency, Timings timings, String bindAddress,
    boolean createdCondition, boolean allowPluginLoadFailures, Duration pluginCallTimeout) {

  public static final String DEFAULT_OPERATOR_NAMESPACE = "kubeflow-system";
  public static final int DEFAULT_WEBHOOK_PORT = 9443;
  public static final String DEFAULT_WEBHOOK_SECRET_NAME = "kubeflow-trainer-webhook-cert";
  public static final String DEFAULT_WEBHOOK_SERVICE_NAME = "kubeflow-trainer-controller-manager";
  public static final int DEFAULT_HEALTH_PORT = 8081;
  public static final int DEFAULT_METRICS_PORT = 8080;
  public static final String DEFAULT_LEASE_NAME = "trainer.kubeflow.org";
  public static final double DEFAULT_KUBE_API_QPS = 50;
  public static final int DEFAULT_KUBE_API_BURST = 100;
  public static final int DEFAULT_TRAINJOB_CONCURRENCY = 5;
  public static final Duration DEFAULT_PLUGIN_CALL_TIMEOUT = Duration.ofSeconds(5);
  /** Every interface: in a cluster the API server and the kubelet reach the pod's servers on the pod's IP. */
  public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";
  /** The loopback address that {@code local} mode's servers listen on by default. */
  public static final String LOOPBACK_ADDRESS = "127.0.0.1";

  public OperatorConfig {
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    Objects.requireNonNull(pluginsDir, "pluginsDir");
    namespaces = Set.copyOf(namespaces);
    Objects.requireNonNull(operatorNamespace, "operatorNamespace");
    Objects.requireNonNull(webhook, "webhook");
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(timings, "timings");
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(pluginCallTimeout, "pluginCallTimeout");
    if (pluginCallTimeout.isNegative() || pluginCallTimeout.isZero()) {
      throw new IllegalArgumentException("--plugin-call-timeout must be positive, was " + pluginCallTimeout);
    }
    if (kubeApiBurst < 1) {
      throw new IllegalArgumentException("--kube-api-burst must be at least 1, was " + kubeApiBurst);
    }
    if (trainJobConcurrency < 1) {
      throw new IllegalArgumentException("--trainjob-concurrency must be at least 1, was " + trainJobConcurrency);
    }
  }

  /** The admission webhook server's options. */
  public record Webhook(int port, Optional<Path> certDir, String secretName, String serviceName) {

    public Webhook {
      Objects.requireNonNull(certDir, "certDir");
      Objects.requireNonNull(secretName, "secretName");
      Objects.requireNonNull(serviceName, "serviceName");
    }

    public static Webhook defaults() {
      return new Webhook(DEFAULT_WEBHOOK_PORT, Optional.empty(), DEFAULT_WEBHOOK_SECRET_NAME,
          DEFAULT_WEBHOOK_SERVICE_NAME);
    }
  }

  /**
   * Leader election on the Lease {@code leaseName} in the operator namespace: only the holder reconciles.
   */
  public record LeaderElection(boolean enabled, String leaseName) {

    public LeaderElection {
      Objects.requireNonNull(leaseName, "leaseName");
    }
  }

  /**
   * Durations that are fixed in production and short in tests.
   *
   * @param leaseDuration how long a Lease holds without renewal (client-go's default 15s)
   * @param renewDeadline how long the leader keeps retrying to renew before it gives up leadership (10s)
   * @param retryPeriod how often candidates try to acquire, and the leader to renew (2s)
   * @param resyncPeriod every TrainJob is reconciled at least this often, even without events
   * @param retryInitialInterval first back-off after a failed reconcile; it doubles on each further failure
   * @param retryMaxInterval the longest back-off
   */
  public record Timings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, Duration resyncPeriod,
      Duration retryInitialInterval, Duration retryMaxInterval) {

    public Timings {
      Objects.requireNonNull(leaseDuration, "leaseDuration");
      Objects.requireNonNull(renewDeadline, "renewDeadline");
      Objects.requireNonNull(retryPeriod, "retryPeriod");
      Objects.requireNonNull(resyncPeriod, "resyncPeriod");
      Objects.requireNonNull(retryInitialInterval, "retryInitialInterval");
      Objects.requireNonNull(retryMaxInterval, "retryMaxInterval");
    }

    public static Timings defaults() {
      return new Timings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofHours(10),
          Duration.ofSeconds(1), Duration.ofMinutes(5));
    }
  }

  /** The command line's defaults (leader election on, every namespace). */
  public static OperatorConfig defaults() {
    return new OperatorConfig(Optional.empty(), Path.of(OperatorPlugins.DEFAULT_PLUGINS_DIR), Set.of(),
        DEFAULT_OPERATOR_NAMESPACE, Webhook.defaults(), DEFAULT_HEALTH_PORT, DEFAULT_METRICS_PORT,
        new LeaderElection(true, DEFAULT_LEASE_NAME), DEFAULT_KUBE_API_QPS, DEFAULT_KUBE_API_BURST,
        DEFAULT_TRAINJOB_CONCURRENCY, Timings.defaults(), DEFAULT_BIND_ADDRESS, false, false,
        DEFAULT_PLUGIN_CALL_TIMEOUT);
  }

  public boolean watchesAllNamespaces() {
    return namespaces.isEmpty();
  }

  public OperatorConfig withKubeconfig(Path path) {
    return new OperatorConfig(Optional.of(path), pluginsDir, namespaces, operatorNamespace, webhook, healthPort,
        metricsPort, leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withPluginsDir(Path path) {
    return new OperatorConfig(kubeconfig, path, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withNamespaces(Set<String> watched) {
    return new OperatorConfig(kubeconfig, pluginsDir, watched, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withOperatorNamespace(String namespace) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, namespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withWebhook(Webhook options) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, options, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withPorts(int health, int metrics) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, health, metrics,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withLeaderElection(LeaderElection election) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        election, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withKubeApi(double qps, int burst) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, qps, burst, trainJobConcurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withTrainJobConcurrency(int concurrency) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, concurrency, timings, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withBindAddress(String address) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, address, createdCondition,
        allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withCreatedCondition(boolean enabled) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress, enabled,
        allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withAllowPluginLoadFailures(boolean allowed) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress, createdCondition,
        allowed, pluginCallTimeout);
  }

  /** The condition types the post-execution phase writes. */
  public StatusConditions statusConditions() {
    return createdCondition ? StatusConditions.WITH_CREATED : StatusConditions.UPSTREAM;
  }

  public OperatorConfig withTimings(Timings durations) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, durations, bindAddress,
        createdCondition, allowPluginLoadFailures, pluginCallTimeout);
  }

  public OperatorConfig withPluginCallTimeout(Duration timeout) {
    return new OperatorConfig(kubeconfig, pluginsDir, namespaces, operatorNamespace, webhook, healthPort, metricsPort,
        leaderElection, kubeApiQps, kubeApiBurst, trainJobConcurrency, timings, bindAddress, createdCondition,
        allowPluginLoadFailures, timeout);
  }
}
