package io.kftrainer.operator.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.webhook.TlsOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The options of {@code run} and the configuration they give. */
class RunCommandTest {

  private static OperatorConfig parse(String... args) {
    RunCommand command = new RunCommand();
    new CommandLine(command).parseArgs(args);
    return command.config();
  }

  @Test
  void withoutOptionsTheDefaultsOfTheManifestsApply() {
    OperatorConfig config = parse();

    assertThat(config.kubeconfig()).isEmpty();
    assertThat(config.pluginsDir()).isEqualTo(Path.of("/opt/trainer/plugins"));
    assertThat(config.namespaces()).isEmpty();
    assertThat(config.webhook()).isEqualTo(new OperatorConfig.Webhook(9443, Optional.empty(),
        "kubeflow-trainer-webhook-cert", "kubeflow-trainer-controller-manager"));
    assertThat(config.operatorNamespace())
        .isEqualTo(Optional.ofNullable(System.getenv("POD_NAMESPACE")).orElse("kubeflow-system"));
    assertThat(config.healthPort()).isEqualTo(8081);
    assertThat(config.metricsPort()).isEqualTo(8443);
    assertThat(config.health()).isEqualTo(new OperatorConfig.Health(true, "0.0.0.0", "/healthz", "/readyz"));
    assertThat(config.metrics()).isEqualTo(new OperatorConfig.Metrics(true, "0.0.0.0", true, false));
    assertThat(config.tls()).isEqualTo(TlsOptions.DEFAULTS);
    assertThat(config.trainJobStatusEnabled()).isFalse();
    assertThat(config.statusServerPort()).isEqualTo(10443);
    assertThat(config.statusServerQps()).isEqualTo(5);
    assertThat(config.statusServerBurst()).isEqualTo(10);
    assertThat(config.leaderElection()).isEqualTo(new OperatorConfig.LeaderElection(true, "trainer.kubeflow.org"));
    assertThat(config.kubeApiQps()).isEqualTo(50);
    assertThat(config.kubeApiBurst()).isEqualTo(100);
    assertThat(config.trainJobConcurrency()).isEqualTo(5);
    assertThat(config.timings()).isEqualTo(OperatorConfig.Timings.defaults());
    assertThat(config.bindAddress()).isEqualTo("0.0.0.0");
    assertThat(config.createdCondition()).isFalse();
    assertThat(config.allowPluginLoadFailures()).isFalse();
  }

  @Test
  void everyOptionReachesTheConfiguration() {
    OperatorConfig config = parse("--kubeconfig=/tmp/kc", "--plugins-dir=/plugins", "--namespaces=team-a, team-b",
        "--webhook-port=10443", "--webhook-cert-dir=/certs", "--webhook-secret-name=s", "--webhook-service-name=svc",
        "--operator-namespace=ops", "--health-port=1", "--metrics-port=2", "--leader-elect=false",
        "--leader-election-lease-name=lease", "--kube-api-qps=7.5", "--kube-api-burst=9", "--trainjob-concurrency=3",
        "--bind-address=10.0.0.5", "--created-condition", "--allow-plugin-load-failures", "--plugin-call-timeout=2.5",
        "--feature-gates=TrainJobStatus=true");

    assertThat(config).isEqualTo(new OperatorConfig(Optional.of(Path.of("/tmp/kc")), Path.of("/plugins"),
        Set.of("team-a", "team-b"), "ops", new OperatorConfig.Webhook(10443, Optional.of(Path.of("/certs")), "s",
            "svc"), 1, 2, new OperatorConfig.LeaderElection(false, "lease"), 7.5, 9, 3,
        OperatorConfig.Timings.defaults(), "10.0.0.5", true, true, Duration.ofMillis(2500),
        new OperatorConfig.Health(true, "10.0.0.5", "/healthz", "/readyz"),
        new OperatorConfig.Metrics(true, "10.0.0.5", true, false), TlsOptions.DEFAULTS, true, 10443, 5, 10));
  }

  @Test
  void leaderElectionIsABooleanWithAnOptionalValue() {
    assertThat(parse("--leader-elect").leaderElection().enabled()).isTrue();
    assertThat(parse("--leader-elect=true").leaderElection().enabled()).isTrue();
    assertThat(parse("--leader-elect=false").leaderElection().enabled()).isFalse();
  }

  @Test
  void theHelpDocumentsEveryOptionWithItsDefault() {
    StringWriter help = new StringWriter();
    new CommandLine(new RunCommand()).usage(new PrintWriter(help));

    assertThat(help.toString().replaceAll("\\s+", " ")).contains(
        "--kubeconfig=FILE", "--plugins-dir=DIR", "(default: /opt/trainer/plugins)", "--namespaces=NS",
        "(default: all namespaces)", "--webhook-port=PORT", "(default: 9443)", "--webhook-cert-dir=DIR",
        "--webhook-secret-name=NAME", "(default: kubeflow-trainer-webhook-cert)", "--webhook-service-name=NAME",
        "(default: kubeflow-trainer-controller-manager)", "--operator-namespace=NS", "$POD_NAMESPACE",
        "--health-port=PORT", "(default: 8081)", "--metrics-port=PORT", "(default: 8443)", "--leader-elect",
        "(default: true)", "--leader-election-lease-name=NAME", "(default: trainer.kubeflow.org)",
        "--kube-api-qps=QPS", "(default: 50)", "--kube-api-burst=N", "(default: 100)", "--trainjob-concurrency=N",
        "(default: 5)", "--bind-address=ADDRESS", "(default: 0.0.0.0, every interface)",
        "--created-condition", "--allow-plugin-load-failures", "--plugin-call-timeout=SECONDS", "--config=FILE",
        "--feature-gates=NAME=BOOLEAN,...", "TrainJobStatus (alpha, default false)", "--zap-log-level=LEVEL",
        "(default: info, with --zap-devel debug)", "--zap-encoder=ENCODER", "(default: console)",
        "An option given on the command line wins over the file, and the file over the options' defaults");
  }

  @Test
  void aBadValueIsAUsageError() {
    StringWriter err = new StringWriter();
    int exitCode = new CommandLine(new RunCommand()).setErr(new PrintWriter(err)).execute("--trainjob-concurrency=x");

    assertThat(exitCode).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--trainjob-concurrency'");
  }
}
