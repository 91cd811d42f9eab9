package io.kftrainer.operator.config;

import java.util.List;
import java.util.Map;

/**
 * Upstream's manager configuration file, {@code config.trainer.kubeflow.org/v1alpha1} {@code Configuration}
 * ({@code pkg/apis/config/v1alpha1/configuration_types.go}), field for field: the sections and field names are
 * upstream's, and {@code null} stands for what Go leaves nil or empty. {@link ConfigurationLoader} reads it
 * strictly, {@link #withDefaults()} fills it as upstream's {@code defaults.go}, {@link ConfigurationValidation}
 * checks it. The operator never works from this type directly: {@code run} maps it onto its own configuration
 * once, at start-up.
 */
public record Configuration(String apiVersion, String kind, ControllerWebhook webhook,
    LeaderElectionConfiguration leaderElection, ControllerMetrics metrics, ControllerHealth health,
    ControllerConfigurationSpec controller, CertManagement certManagement, ClientConnection clientConnection,
    StatusServer statusServer, Map<String, Boolean> featureGates, Tls tls) {

  public static final String API_VERSION = "config.trainer.kubeflow.org/v1alpha1";
  public static final String KIND = "Configuration";

  public static final int DEFAULT_WEBHOOK_PORT = 9443;
  public static final String DEFAULT_METRICS_BIND_ADDRESS = ":8443";
  public static final String DEFAULT_HEALTH_PROBE_BIND_ADDRESS = ":8081";
  public static final String DEFAULT_READINESS_ENDPOINT_NAME = "readyz";
  public static final String DEFAULT_LIVENESS_ENDPOINT_NAME = "healthz";
  public static final String DEFAULT_WEBHOOK_SERVICE_NAME = "kubeflow-trainer-controller-manager";
  public static final String DEFAULT_WEBHOOK_SECRET_NAME = "kubeflow-trainer-webhook-cert";
  public static final double DEFAULT_QPS = 50;
  public static final int DEFAULT_BURST = 100;
  public static final int DEFAULT_STATUS_SERVER_PORT = 10443;
  public static final double DEFAULT_STATUS_SERVER_QPS = 5;
  public static final int DEFAULT_STATUS_SERVER_BURST = 10;
  /** The leader-election defaults of Kubernetes' component-base ({@code RecommendedDefaultLeaderElection...}). */
  public static final String DEFAULT_LEASE_DURATION = "15s";
  public static final String DEFAULT_RENEW_DEADLINE = "10s";
  public static final String DEFAULT_RETRY_PERIOD = "2s";
  public static final String DEFAULT_RESOURCE_LOCK = "leases";
  public static final String DEFAULT_RESOURCE_NAME = "trainer.kubeflow.org";
  /** The key of the TrainJob controller in {@code controller.groupKindConcurrency}. */
  public static final String TRAINJOB_GROUP_KIND = "TrainJob.trainer.kubeflow.org";

  /** {@code webhook}: the admission webhook server. */
    public record ControllerWebhook(Integer port, String host) {
  }

  /**
   * {@code leaderElection}: component-base's {@code LeaderElectionConfiguration}. Durations are Go durations
   * ({@code 15s}); {@code resourceNamespace} empty means the operator's own namespace.
   */
    public record LeaderElectionConfiguration(Boolean leaderElect, String leaseDuration, String renewDeadline,
      String retryPeriod, String resourceLock, String resourceName, String resourceNamespace) {
  }

  /** {@code metrics}: {@code bindAddress} {@code "0"} switches the metrics server off. */
    public record ControllerMetrics(String bindAddress, Boolean secureServing, MetricsAuthConfig auth) {
  }

  /** {@code metrics.auth}: TokenReview and SubjectAccessReview of every scrape. */
    public record MetricsAuthConfig(Boolean enabled) {
  }

  /** {@code health}: {@code healthProbeBindAddress} {@code "0"} switches the probe server off. */
    public record ControllerHealth(String healthProbeBindAddress, String readinessEndpointName,
      String livenessEndpointName) {
  }

  /** {@code controller}: reconciles in parallel per controller, keyed {@code Kind.group}. */
    public record ControllerConfigurationSpec(Map<String, Integer> groupKindConcurrency) {
  }

  /** {@code certManagement}: the operator's own CA and webhook certificate, or certificates mounted from outside. */
    public record CertManagement(Boolean enable, String webhookServiceName, String webhookSecretName) {
  }

  /** {@code clientConnection}: the client-side rate limit towards the API server. */
    public record ClientConnection(Double qps, Integer burst) {
  }

  /** {@code statusServer}: the TrainJob status server of KEP-2779 (feature gate {@code TrainJobStatus}). */
    public record StatusServer(Integer port, Double qps, Integer burst) {
  }

  /** {@code tls}: every HTTPS server's TLS settings ({@code io.kftrainer.webhook.TlsOptions}). */
    public record Tls(String minVersion, List<String> cipherSuites, List<String> nextProtos) {
  }

  /**
   * This configuration with upstream's defaults ({@code SetDefaults_Configuration}) where a field is unset, plus
   * two of ours that upstream leaves to controller-runtime: without a {@code leaderElection} section leader election
   * is on (upstream's manager would run without it), and unset durations, lock and name take component-base's
   * recommended values (upstream's would fail to start on zero durations).
   */
  public Configuration withDefaults() {
    ControllerWebhook w = webhook != null ? webhook : new ControllerWebhook(null, null);
    ControllerMetrics m = metrics != null ? metrics : new ControllerMetrics(null, null, null);
    MetricsAuthConfig auth = m.auth() != null ? m.auth() : new MetricsAuthConfig(null);
    ControllerHealth h = health != null ? health : new ControllerHealth(null, null, null);
    CertManagement c = certManagement != null ? certManagement : new CertManagement(null, null, null);
    ClientConnection cc = clientConnection != null ? clientConnection : new ClientConnection(null, null);
    StatusServer s = statusServer != null ? statusServer : new StatusServer(null, null, null);
    LeaderElectionConfiguration le = leaderElection != null ? leaderElection
        : new LeaderElectionConfiguration(null, null, null, null, null, null, null);
    return new Configuration(apiVersion, kind,
        new ControllerWebhook(or(w.port(), DEFAULT_WEBHOOK_PORT), or(w.host(), "")),
        new LeaderElectionConfiguration(or(le.leaderElect(), true), orEmpty(le.leaseDuration(), DEFAULT_LEASE_DURATION),
            orEmpty(le.renewDeadline(), DEFAULT_RENEW_DEADLINE), orEmpty(le.retryPeriod(), DEFAULT_RETRY_PERIOD),
            orEmpty(le.resourceLock(), DEFAULT_RESOURCE_LOCK), orEmpty(le.resourceName(), DEFAULT_RESOURCE_NAME),
            or(le.resourceNamespace(), "")),
        new ControllerMetrics(orEmpty(m.bindAddress(), DEFAULT_METRICS_BIND_ADDRESS), or(m.secureServing(), true),
            new MetricsAuthConfig(or(auth.enabled(), false))),
        new ControllerHealth(orEmpty(h.healthProbeBindAddress(), DEFAULT_HEALTH_PROBE_BIND_ADDRESS),
            orEmpty(h.readinessEndpointName(), DEFAULT_READINESS_ENDPOINT_NAME),
            orEmpty(h.livenessEndpointName(), DEFAULT_LIVENESS_ENDPOINT_NAME)),
        new ControllerConfigurationSpec(controller != null && controller.groupKindConcurrency() != null
            ? controller.groupKindConcurrency() : Map.of()),
        new CertManagement(or(c.enable(), true), orEmpty(c.webhookServiceName(), DEFAULT_WEBHOOK_SERVICE_NAME),
            orEmpty(c.webhookSecretName(), DEFAULT_WEBHOOK_SECRET_NAME)),
        new ClientConnection(or(cc.qps(), DEFAULT_QPS), or(cc.burst(), DEFAULT_BURST)),
        new StatusServer(or(s.port(), DEFAULT_STATUS_SERVER_PORT), or(s.qps(), DEFAULT_STATUS_SERVER_QPS),
            or(s.burst(), DEFAULT_STATUS_SERVER_BURST)),
        featureGates != null ? featureGates : Map.of(),
        tls != null ? tls : new Tls(null, null, null));
  }

  private static <T> T or(T value, T fallback) {
    return value != null ? value : fallback;
  }

  /** Go's {@code if x == ""} defaulting: an empty string is unset too. */
  private static String orEmpty(String value, String fallback) {
    return value == null || value.isEmpty() ? fallback : value;
  }
}
