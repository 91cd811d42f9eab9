package io.kftrainer.operator.command;

import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.config.BindAddress;
import io.kftrainer.operator.config.Configuration;
import io.kftrainer.operator.config.ConfigurationValidation;
import io.kftrainer.operator.config.GoDurations;
import io.kftrainer.webhook.TlsOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Upstream's Configuration (loaded, defaulted, valid) onto the operator's {@link OperatorConfig}, as upstream's
 * {@code config.addTo} maps it onto controller-runtime's options. The feature gates are merged by {@link RunCommand}
 * with {@code --feature-gates}; everything else of the file lands here, each field in its one place.
 */
final class ConfigurationMapping {

  /**
   * Where the webhook certificate is read from when {@code certManagement.enable} is false (certificates "provided
   * externally", e.g. by cert-manager): controller-runtime's default certificate directory, which upstream's
   * manager and chart use.
   */
  static final Path EXTERNAL_CERT_DIR = Path.of("/tmp/k8s-webhook-server/serving-certs");

  /** client-go's {@code rest.DefaultQPS} and {@code DefaultBurst}, which a zero in the file stands for. */
  static final double CLIENT_GO_DEFAULT_QPS = 5;
  static final int CLIENT_GO_DEFAULT_BURST = 10;

  private ConfigurationMapping() {
  }

  /** {@code base} with every field of {@code file}. */
  static OperatorConfig apply(Configuration file, OperatorConfig base) {
    Configuration.CertManagement certs = file.certManagement();
    OperatorConfig config = base
        .withBindAddress(host(file.webhook().host()))
        .withWebhook(new OperatorConfig.Webhook(file.webhook().port(),
            certs.enable() ? Optional.empty() : Optional.of(EXTERNAL_CERT_DIR), certs.webhookSecretName(),
            certs.webhookServiceName()));
    config = health(file.health(), config);
    config = metrics(file.metrics(), config);
    Configuration.LeaderElectionConfiguration election = file.leaderElection();
    OperatorConfig.Timings timings = config.timings();
    config = config
        .withLeaderElection(new OperatorConfig.LeaderElection(election.leaderElect(), election.resourceName(),
            Optional.of(election.resourceNamespace()).filter(namespace -> !namespace.isEmpty())))
        .withTimings(new OperatorConfig.Timings(GoDurations.parse(election.leaseDuration()),
            GoDurations.parse(election.renewDeadline()), GoDurations.parse(election.retryPeriod()),
            timings.resyncPeriod(), timings.retryInitialInterval(), timings.retryMaxInterval()));
    Integer concurrency = file.controller().groupKindConcurrency().get(Configuration.TRAINJOB_GROUP_KIND);
    if (concurrency != null) {
      config = config.withTrainJobConcurrency(concurrency);
    }
    // client-go reads a zero rate or burst as its defaults, not as "no limit"
    Configuration.ClientConnection client = file.clientConnection();
    config = config.withKubeApi(client.qps() == 0 ? CLIENT_GO_DEFAULT_QPS : client.qps(),
        client.burst() == 0 ? CLIENT_GO_DEFAULT_BURST : client.burst());
    Configuration.StatusServer status = file.statusServer();
    return config
        .withStatusServer(config.trainJobStatusEnabled(), status.port(), status.qps(), status.burst())
        .withTls(tls(file.tls()));
  }

  private static OperatorConfig health(Configuration.ControllerHealth health, OperatorConfig config) {
    Optional<BindAddress> address = BindAddress.parse(health.healthProbeBindAddress());
    OperatorConfig.Health probes = new OperatorConfig.Health(address.isPresent(),
        address.map(BindAddress::host).orElse(config.health().host()),
        "/" + ConfigurationValidation.stripSlash(health.livenessEndpointName()),
        "/" + ConfigurationValidation.stripSlash(health.readinessEndpointName()));
    return config.withHealth(probes).withHealthPort(address.map(BindAddress::port).orElse(config.healthPort()));
  }

  private static OperatorConfig metrics(Configuration.ControllerMetrics metrics, OperatorConfig config) {
    Optional<BindAddress> address = BindAddress.parse(metrics.bindAddress());
    OperatorConfig.Metrics served = new OperatorConfig.Metrics(address.isPresent(),
        address.map(BindAddress::host).orElse(config.metrics().host()), metrics.secureServing(),
        metrics.auth().enabled());
    return config.withMetrics(served).withMetricsPort(address.map(BindAddress::port).orElse(config.metricsPort()));
  }

  private static TlsOptions tls(Configuration.Tls tls) {
    return new TlsOptions(Optional.ofNullable(tls.minVersion()).filter(version -> !version.isEmpty()),
        tls.cipherSuites() != null ? tls.cipherSuites() : List.of(),
        tls.nextProtos() != null ? tls.nextProtos() : List.of());
  }

  /** Go's empty host is every interface. */
  private static String host(String host) {
    return host.isEmpty() ? BindAddress.ANY_HOST : host;
  }
}
