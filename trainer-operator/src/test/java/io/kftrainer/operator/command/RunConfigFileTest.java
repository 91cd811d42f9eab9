package io.kftrainer.operator.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.webhook.TlsOptions;
import io.kftrainer.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code run --config}: upstream's Configuration file, and how it combines with the command line. */
class RunConfigFileTest {

  /** Copied unchanged from upstream's manifests (see the comment at its top). */
  static final String UPSTREAM_FILE = "config/upstream-controller-manager-config.yaml";

  @TempDir
  Path dir;

  private static OperatorConfig parse(String... args) {
    RunCommand command = new RunCommand();
    new CommandLine(command).parseArgs(args);
    return command.config();
  }

  private Path file(String yaml) throws IOException {
    return Files.writeString(dir.resolve("config-" + System.nanoTime() + ".yaml"),
        "apiVersion: config.trainer.kubeflow.org/v1alpha1\nkind: Configuration\n" + yaml);
  }

  private Path upstreamFile() throws IOException {
    return Files.writeString(dir.resolve("controller_manager_config.yaml"), Fixtures.resource(UPSTREAM_FILE));
  }

  @Test
  void upstreamsFileConfiguresEveryServerAsUpstreamsManager() throws IOException {
    OperatorConfig config = parse("--config", upstreamFile().toString(), "--operator-namespace=kubeflow-system");

    OperatorConfig expected = OperatorConfig.defaults()
        .withOperatorNamespace("kubeflow-system")
        .withWebhook(new OperatorConfig.Webhook(9443, Optional.empty(), "kubeflow-trainer-webhook-cert",
            "kubeflow-trainer-controller-manager"))
        .withTimings(new OperatorConfig.Timings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2),
            OperatorConfig.Timings.defaults().resyncPeriod(), OperatorConfig.Timings.defaults().retryInitialInterval(),
            OperatorConfig.Timings.defaults().retryMaxInterval()));
    assertThat(config).isEqualTo(expected);
    assertThat(config.healthPort()).isEqualTo(8081);
    assertThat(config.metricsPort()).isEqualTo(8443);
    assertThat(config.metrics()).isEqualTo(new OperatorConfig.Metrics(true, "0.0.0.0", true, false));
    assertThat(config.leaderElection()).isEqualTo(new OperatorConfig.LeaderElection(true, "trainer.kubeflow.org"));
    assertThat(config.leaseNamespace()).isEqualTo("kubeflow-system");
    assertThat(config.trainJobConcurrency()).isEqualTo(5);
    assertThat(config.kubeApiQps()).isEqualTo(50);
    assertThat(config.kubeApiBurst()).isEqualTo(100);
    assertThat(config.statusServerPort()).isEqualTo(10443);
    assertThat(config.trainJobStatusEnabled()).isFalse();
  }

  @Test
  void everyFieldOfTheFileLandsInItsPlace() throws IOException {
    Path file = file("""
        health: {healthProbeBindAddress: "127.0.0.1:9081", readinessEndpointName: ready, livenessEndpointName: /live}
        metrics: {bindAddress: "127.0.0.2:9090", secureServing: true, auth: {enabled: true}}
        webhook: {port: 10250, host: 127.0.0.3}
        leaderElection: {leaderElect: false, resourceName: my-lease, resourceNamespace: leases, leaseDuration: 1m,
          renewDeadline: 40s, retryPeriod: 5s, resourceLock: leases}
        controller: {groupKindConcurrency: {TrainJob.trainer.kubeflow.org: 12}}
        certManagement: {enable: false, webhookServiceName: svc, webhookSecretName: secret}
        clientConnection: {qps: 0.5, burst: 7}
        statusServer: {port: 11443, qps: 2.5, burst: 4}
        featureGates: {TrainJobStatus: true}
        tls: {minVersion: "1.3", cipherSuites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256], nextProtos: [http/1.1]}
        """);

    OperatorConfig config = parse("--config", file.toString(), "--operator-namespace=ops");

    assertThat(config.health()).isEqualTo(new OperatorConfig.Health(true, "127.0.0.1", "/live", "/ready"));
    assertThat(config.healthPort()).isEqualTo(9081);
    assertThat(config.metrics()).isEqualTo(new OperatorConfig.Metrics(true, "127.0.0.2", true, true));
    assertThat(config.metricsPort()).isEqualTo(9090);
    assertThat(config.bindAddress()).isEqualTo("127.0.0.3");
    assertThat(config.webhook()).isEqualTo(new OperatorConfig.Webhook(10250,
        Optional.of(Path.of("/tmp/k8s-webhook-server/serving-certs")), "secret", "svc"));
    assertThat(config.leaderElection()).isEqualTo(new OperatorConfig.LeaderElection(false, "my-lease",
        Optional.of("leases")));
    assertThat(config.leaseNamespace()).isEqualTo("leases");
    assertThat(config.operatorNamespace()).isEqualTo("ops");
    assertThat(config.timings().leaseDuration()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.timings().renewDeadline()).isEqualTo(Duration.ofSeconds(40));
    assertThat(config.timings().retryPeriod()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.trainJobConcurrency()).isEqualTo(12);
    assertThat(config.kubeApiQps()).isEqualTo(0.5);
    assertThat(config.kubeApiBurst()).isEqualTo(7);
    assertThat(config.trainJobStatusEnabled()).isTrue();
    assertThat(config.statusServerPort()).isEqualTo(11443);
    assertThat(config.statusServerQps()).isEqualTo(2.5);
    assertThat(config.statusServerBurst()).isEqualTo(4);
    assertThat(config.tls()).isEqualTo(new TlsOptions(Optional.of("1.3"),
        List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"), List.of("http/1.1")));
  }

  @Test
  void optionsGivenOnTheCommandLineWinOverTheFileAndTheFileOverTheOptionsDefaults() throws IOException {
    Path file = file("""
        health: {healthProbeBindAddress: ":9081"}
        metrics: {bindAddress: ":9090", secureServing: false}
        webhook: {port: 10250}
        leaderElection: {leaderElect: true, resourceName: file-lease}
        clientConnection: {qps: 20, burst: 30}
        """);

    OperatorConfig config = parse("--config", file.toString(), "--webhook-port=11000", "--leader-elect=false",
        "--kube-api-burst=60", "--bind-address=127.0.0.1");

    assertThat(config.webhook().port()).as("option").isEqualTo(11000);
    assertThat(config.leaderElection().enabled()).as("option").isFalse();
    assertThat(config.leaderElection().leaseName()).as("file").isEqualTo("file-lease");
    assertThat(config.kubeApiBurst()).as("option").isEqualTo(60);
    assertThat(config.kubeApiQps()).as("file").isEqualTo(20);
    assertThat(config.healthPort()).as("file").isEqualTo(9081);
    assertThat(config.metricsPort()).as("file").isEqualTo(9090);
    assertThat(config.metrics().secureServing()).as("file").isFalse();
    assertThat(List.of(config.bindAddress(), config.health().host(), config.metrics().host())).as("option")
        .containsOnly("127.0.0.1");
  }

  @Test
  void zeroRateAndBurstMeanClientGosDefaultsAsUpstream() throws IOException {
    OperatorConfig config = parse("--config", file("clientConnection: {qps: 0, burst: 0}\n").toString());

    assertThat(config.kubeApiQps()).isEqualTo(5);
    assertThat(config.kubeApiBurst()).isEqualTo(10);
  }

  @Test
  void serversTheFileSwitchesOffComeBackWhenTheirPortIsGiven() throws IOException {
    Path file = file("health: {healthProbeBindAddress: \"0\"}\nmetrics: {bindAddress: \"0\"}\n");

    OperatorConfig off = parse("--config", file.toString());
    OperatorConfig metricsOn = parse("--config", file.toString(), "--metrics-port=9999");

    assertThat(off.health().enabled()).isFalse();
    assertThat(off.metrics().enabled()).isFalse();
    assertThat(metricsOn.metrics().enabled()).isTrue();
    assertThat(metricsOn.metricsPort()).isEqualTo(9999);
    assertThat(metricsOn.health().enabled()).isFalse();
  }

  @Test
  void featureGatesOfTheOptionApplyOnTopOfTheFiles() throws IOException {
    Path file = file("featureGates: {TrainJobStatus: true}\n");

    assertThat(parse("--config", file.toString()).trainJobStatusEnabled()).isTrue();
    assertThat(parse("--config", file.toString(), "--feature-gates=TrainJobStatus=false").trainJobStatusEnabled())
        .isFalse();
    assertThat(parse("--feature-gates", "AllAlpha=true").trainJobStatusEnabled()).isTrue();
  }

  @Test
  void theTlsFlagsOfUpstreamsPr4103WinOverTheFilesTlsSection() throws IOException {
    Path file = file("tls: {minVersion: \"1.2\", cipherSuites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]}\n");

    assertThat(parse("--config", file.toString(), "--tlsMinVersion=VersionTLS13").tls()).isEqualTo(
        new TlsOptions(Optional.of("1.3"), List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"), List.of()));
    assertThat(parse("--config", file.toString(), "--tlsCipherSuites",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384").tls()).isEqualTo(
        new TlsOptions(Optional.of("1.2"), List.of("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"), List.of()));
    assertThatThrownBy(() -> parse("--tlsMinVersion=1.4")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessage("Invalid value for option '--tlsMinVersion': \"1.4\" (expected one of 1.0, 1.1, 1.2, 1.3 or "
            + "VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13)");
    assertThatThrownBy(() -> parse("--tlsCipherSuites=TLS_RSA_WITH_RC4")).isInstanceOf(
        CommandLine.ParameterException.class).hasMessageStartingWith(
        "Invalid value for option '--tlsCipherSuites': \"TLS_RSA_WITH_RC4\" is not a cipher suite this JVM supports");
  }

  @Test
  void progressServerTheStatusServersNameInUpstreamsFirstImplementationIsReadAsStatusServer() throws IOException {
    OperatorConfig config = parse("--config", file("progressServer: {port: 10444, qps: 7, burst: 9}\n").toString());

    assertThat(config.statusServerPort()).isEqualTo(10444);
    assertThat(config.statusServerQps()).isEqualTo(7);
    assertThat(config.statusServerBurst()).isEqualTo(9);
    Path both = file("progressServer: {port: 10444}\nstatusServer: {port: 10445}\n");
    assertThatThrownBy(() -> parse("--config", both.toString())).hasMessageContaining(
        "progressServer: Forbidden: the earlier name of statusServer: give only statusServer");
  }

  @Test
  void anUnknownFeatureGateIsAnErrorNamingIt() {
    assertThatThrownBy(() -> parse("--feature-gates=TrainJobStatus=true,TrainJobStatuz=true"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--feature-gates: unknown feature gate TrainJobStatuz (known: TrainJobStatus)");
    assertThatThrownBy(() -> parse("--feature-gates=TrainJobStatus"))
        .hasMessage("--feature-gates: invalid feature gate \"TrainJobStatus\": expected Name=true or Name=false");
  }

  @Test
  void runRefusesAMisspeltFieldNamingItBeforeConnectingAnywhere() throws IOException {
    String upstream = Fixtures.resource(UPSTREAM_FILE);
    Path file = Files.writeString(dir.resolve("misspelt.yaml"), upstream.replace("secureServing:", "secureServign:"));

    TestingCli.Run run = TestingCli.run("run", "--config", file.toString(), "--kubeconfig",
        dir.resolve("no-such-kubeconfig").toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("Error: invalid configuration " + file + ":\n"
        + "  unknown field \"metrics.secureServign\"\n");
  }

  @Test
  void runRefusesInvalidValuesNamingEveryField() throws IOException {
    Path file = file("webhook: {port: 70000}\nclientConnection: {qps: -1}\n"
        + "leaderElection: {leaseDuration: 5s, renewDeadline: 10s}\n");

    TestingCli.Run run = TestingCli.run("run", "--config", file.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("Error: invalid configuration " + file + ":\n"
        + "  webhook.port: Invalid value: 70000: must be between 1 and 65535\n"
        + "  clientConnection.qps: Invalid value: -1.0: must be greater than or equal to 0\n"
        + "  leaderElection.leaseDuration: Invalid value: \"5s\": must be greater than leaderElection.renewDeadline\n");
  }

  @Test
  void aBadLogLevelIsAUsageError() {
    TestingCli.Run run = TestingCli.run("run", "--zap-log-level=loud");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Invalid value for option '--zap-log-level': \"loud\"");
  }

  @Test
  void theNamespacesAndPluginOptionsHaveNoPlaceInTheFileButStillApply() throws IOException {
    OperatorConfig config = parse("--config", upstreamFile().toString(), "--namespaces=team-a",
        "--plugins-dir=/plugins", "--created-condition");

    assertThat(config.namespaces()).isEqualTo(Set.of("team-a"));
    assertThat(config.pluginsDir()).isEqualTo(Path.of("/plugins"));
    assertThat(config.createdCondition()).isTrue();
  }
}
