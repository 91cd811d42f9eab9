package io.kftrainer.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading upstream's Configuration: strict decoding, upstream's defaults, and every check with its field path. */
class ConfigurationLoaderTest {

  private static final String HEADER = "apiVersion: config.trainer.kubeflow.org/v1alpha1\nkind: Configuration\n";

  private static Configuration load(String body) {
    return ConfigurationLoader.parse(HEADER + body, "test.yaml");
  }

  private static List<String> problems(String yaml) {
    try {
      ConfigurationLoader.parse(yaml, "test.yaml");
    } catch (ConfigurationException e) {
      assertThat(e.getMessage()).startsWith("invalid configuration test.yaml:\n  ");
      return e.problems();
    }
    throw new AssertionError("no error for:\n" + yaml);
  }

  @Test
  void upstreamsManifestFileLoadsUnchanged() {
    Configuration config = ConfigurationLoader.parse(Fixtures.resource("config/upstream-controller-manager-config.yaml"),
        "upstream");

    assertThat(config.health()).isEqualTo(new Configuration.ControllerHealth(":8081", "readyz", "healthz"));
    assertThat(config.metrics()).isEqualTo(new Configuration.ControllerMetrics(":8443", true,
        new Configuration.MetricsAuthConfig(false)));
    assertThat(config.webhook()).isEqualTo(new Configuration.ControllerWebhook(9443, ""));
    assertThat(config.leaderElection()).isEqualTo(new Configuration.LeaderElectionConfiguration(true, "15s", "10s",
        "2s", "leases", "trainer.kubeflow.org", ""));
    assertThat(config.controller().groupKindConcurrency()).isEqualTo(Map.of("TrainJob.trainer.kubeflow.org", 5,
        "TrainingRuntime.trainer.kubeflow.org", 1, "ClusterTrainingRuntime.trainer.kubeflow.org", 1));
    assertThat(config.certManagement()).isEqualTo(new Configuration.CertManagement(true,
        "kubeflow-trainer-controller-manager", "kubeflow-trainer-webhook-cert"));
    assertThat(config.clientConnection()).isEqualTo(new Configuration.ClientConnection(50.0, 100));
    assertThat(config.statusServer()).isEqualTo(new Configuration.StatusServer(10443, 5.0, 10));
    assertThat(ConfigurationValidation.warnings(config)).isEmpty();
  }

  @Test
  void anEmptyConfigurationTakesUpstreamsDefaults() {
    Configuration config = load("");

    assertThat(config).isEqualTo(new Configuration("config.trainer.kubeflow.org/v1alpha1", "Configuration",
        new Configuration.ControllerWebhook(9443, ""),
        new Configuration.LeaderElectionConfiguration(true, "15s", "10s", "2s", "leases", "trainer.kubeflow.org", ""),
        new Configuration.ControllerMetrics(":8443", true, new Configuration.MetricsAuthConfig(false)),
        new Configuration.ControllerHealth(":8081", "readyz", "healthz"),
        new Configuration.ControllerConfigurationSpec(Map.of()),
        new Configuration.CertManagement(true, "kubeflow-trainer-controller-manager", "kubeflow-trainer-webhook-cert"),
        new Configuration.ClientConnection(50.0, 100), new Configuration.StatusServer(10443, 5.0, 10), Map.of(),
        new Configuration.Tls(null, null, null)));
  }

  @Test
  void emptyStringsAreUnsetAsInGo() {
    Configuration config = load("metrics: {bindAddress: \"\"}\ncertManagement: {webhookSecretName: \"\"}\n");

    assertThat(config.metrics().bindAddress()).isEqualTo(":8443");
    assertThat(config.certManagement().webhookSecretName()).isEqualTo("kubeflow-trainer-webhook-cert");
  }

  static Stream<Arguments> undecodable() {
    return Stream.of(
        Arguments.of("a misspelt field is named with its path", HEADER + "metrics:\n  secureServign: true\n",
            List.of("unknown field \"metrics.secureServign\"")),
        Arguments.of("an unknown section is named", HEADER + "plugins: {dir: /opt}\n",
            List.of("unknown field \"plugins\"")),
        Arguments.of("a field given twice is refused", HEADER + "webhook: {port: 1}\nwebhook: {port: 2}\n",
            List.of("not a valid YAML document (line 4): Duplicate field 'webhook'")),
        Arguments.of("a port written as a string is refused", HEADER + "webhook: {port: \"9443\"}\n",
            List.of("webhook.port: must be an integer")),
        Arguments.of("a fractional port is refused", HEADER + "webhook: {port: 9443.5}\n",
            List.of("webhook.port: must be an integer")),
        Arguments.of("a section written as a list is refused", HEADER + "metrics: [a]\n",
            List.of("metrics: must be a mapping")),
        Arguments.of("a boolean written as a string is refused", HEADER + "metrics: {secureServing: \"false\"}\n",
            List.of("metrics.secureServing: must be true or false")),
        Arguments.of("the kind is required", "apiVersion: config.trainer.kubeflow.org/v1alpha1\n",
            List.of("kind: Required value: must be Configuration")),
        Arguments.of("another API version is refused", "apiVersion: config.kueue.x-k8s.io/v1beta1\n"
            + "kind: Configuration\n", List.of("apiVersion: Unsupported value: \"config.kueue.x-k8s.io/v1beta1\": "
            + "supported values: \"config.trainer.kubeflow.org/v1alpha1\"")),
        Arguments.of("a file that is not an object is refused", "- a\n- b\n",
            List.of("the file must hold a Configuration object (apiVersion: config.trainer.kubeflow.org/v1alpha1, "
                + "kind: Configuration)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("undecodable")
  void strictDecoding(String name, String yaml, List<String> expected) {
    assertThat(problems(yaml)).isEqualTo(expected);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("upstream's checks, in upstream's words", """
            webhook: {port: 0}
            clientConnection: {qps: -1, burst: -2}
            controller: {groupKindConcurrency: {TrainJob.trainer.kubeflow.org: 0}}
            statusServer: {port: 70000, qps: -0.5, burst: -1}
            """, List.of(
            "webhook.port: Invalid value: 0: must be between 1 and 65535",
            "clientConnection.qps: Invalid value: -1.0: must be greater than or equal to 0",
            "clientConnection.burst: Invalid value: -2: must be greater than or equal to 0",
            "controller.groupKindConcurrency[TrainJob.trainer.kubeflow.org]: Invalid value: 0: must be greater than 0",
            "statusServer.port: Invalid value: 70000: must be between 1 and 65535",
            "statusServer.qps: Invalid value: -0.5: must be greater than or equal to 0",
            "statusServer.burst: Invalid value: -1: must be greater than or equal to 0")),
        Arguments.of("bind addresses are host:port or 0", """
            health: {healthProbeBindAddress: "8081"}
            metrics: {bindAddress: ":http"}
            """, List.of(
            "health.healthProbeBindAddress: Invalid value: \"8081\": must be host:port, :port or 0",
            "metrics.bindAddress: Invalid value: \":http\": the port must be a number")),
        Arguments.of("two servers on one port", """
            health: {healthProbeBindAddress: ":9443"}
            metrics: {bindAddress: "127.0.0.1:9443"}
            """, List.of(
            "metrics.bindAddress: Invalid value: 9443: the port is also used by health.healthProbeBindAddress",
            "webhook.port: Invalid value: 9443: the port is also used by health.healthProbeBindAddress",
            "webhook.port: Invalid value: 9443: the port is also used by metrics.bindAddress")),
        Arguments.of("endpoint names are single path segments that differ", """
            health: {readinessEndpointName: "a/b", livenessEndpointName: "/a/b"}
            """, List.of(
            "health.readinessEndpointName: Invalid value: \"a/b\": must be one path segment of at most 63 letters, "
                + "digits, '-', '.', '_' or '~'",
            "health.livenessEndpointName: Invalid value: \"/a/b\": must be one path segment of at most 63 letters, "
                + "digits, '-', '.', '_' or '~'",
            "health.livenessEndpointName: Invalid value: \"/a/b\": must differ from health.readinessEndpointName")),
        Arguments.of("metrics auth needs HTTPS", """
            metrics: {secureServing: false, auth: {enabled: true}}
            """, List.of(
            "metrics.auth.enabled: Invalid value: true: requires metrics.secureServing: true (clients send bearer "
                + "tokens)")),
        Arguments.of("leader election as client-go's elector requires it", """
            leaderElection: {leaseDuration: 10s, renewDeadline: 10s, retryPeriod: 9s, resourceLock: configmaps}
            """, List.of(
            "leaderElection.leaseDuration: Invalid value: \"10s\": must be greater than leaderElection.renewDeadline",
            "leaderElection.renewDeadline: Invalid value: \"10s\": must be greater than leaderElection.retryPeriod "
                + "times 1.2",
            "leaderElection.resourceLock: Unsupported value: \"configmaps\": supported values: \"leases\"")),
        Arguments.of("durations are Go durations above zero", """
            leaderElection: {leaseDuration: 15, renewDeadline: "-1s", retryPeriod: 0s}
            """, List.of(
            "leaderElection.leaseDuration: Invalid value: \"15\": invalid duration \"15\": expected a number with a "
                + "unit (ns, us, ms, s, m, h), e.g. 15s or 1m30s",
            "leaderElection.renewDeadline: Invalid value: \"-1s\": must be greater than zero",
            "leaderElection.retryPeriod: Invalid value: \"0s\": must be greater than zero")),
        Arguments.of("an unknown feature gate is named", """
            featureGates: {TrainJobStatus: true, TrainJobStatuz: true}
            """, List.of(
            "featureGates[TrainJobStatuz]: Unsupported value: \"TrainJobStatuz\": unknown feature gate; supported "
                + "values: \"TrainJobStatus\"")),
        Arguments.of("TLS settings the servers cannot honour", """
            tls: {minVersion: "1.4", cipherSuites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_NO_SUCH_SUITE],
              nextProtos: [h2]}
            """, List.of(
            "tls.minVersion: Unsupported value: \"1.4\": supported values: \"1.0\", \"1.1\", \"1.2\", \"1.3\"",
            "tls.cipherSuites[1]: Unsupported value: \"TLS_NO_SUCH_SUITE\": not a cipher suite this JVM supports "
                + "(IANA names, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)",
            "tls.nextProtos: Invalid value: [\"h2\"]: must include \"http/1.1\", the only protocol the servers "
                + "speak")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void everyProblemIsReportedWithItsField(String name, String body, List<String> expected) {
    assertThat(problems(HEADER + body)).isEqualTo(expected);
  }

  @Test
  void whatHasNoEffectHereIsAWarningNotAnError() {
    Configuration config = load("""
        controller: {groupKindConcurrency: {OptimizationJob.trainer.kubeflow.org: 2,
          TrainingRuntime.trainer.kubeflow.org: 3, ClusterTrainingRuntime.trainer.kubeflow.org: 1}}
        tls: {minVersion: "1.1", nextProtos: [h2, http/1.1]}
        """);

    assertThat(ConfigurationValidation.warnings(config)).containsExactly(
        "controller.groupKindConcurrency[OptimizationJob.trainer.kubeflow.org]: no controller of this operator "
            + "reconciles OptimizationJob.trainer.kubeflow.org; ignored",
        "controller.groupKindConcurrency[TrainingRuntime.trainer.kubeflow.org]: 3: runtimes are reconciled one at "
            + "a time (a reconcile only removes an older version's finalizer); 1 is used",
        "tls.minVersion: 1.1: the JVM refuses TLS 1.0 and 1.1 unless jdk.tls.disabledAlgorithms allows them; the "
            + "servers negotiate TLS 1.2 or later",
        "tls.nextProtos: the servers speak http/1.1 only; h2 not served");
  }

  @Test
  void anUnreadableFileIsNamed() {
    assertThatThrownBy(() -> ConfigurationLoader.load(java.nio.file.Path.of("/no/such/config.yaml")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("invalid configuration /no/such/config.yaml:\n  cannot read the file: ");
  }
}
