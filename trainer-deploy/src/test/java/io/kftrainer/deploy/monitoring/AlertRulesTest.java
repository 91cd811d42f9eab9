package io.kftrainer.deploy.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Tools;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's alert rules ({@code manifests/overlays/monitoring/prometheus-rules.yaml}, which the chart copies)
 * as Prometheus' own tool judges them: valid rules, and each alert firing on the series of its unit tests
 * ({@code monitoring/alerts-test.yaml}) and only on them. Skipped without promtool (Debian's prometheus package).
 */
class AlertRulesTest {

  private static final Path RULES = Deploy.manifests().resolve("overlays/monitoring/prometheus-rules.yaml");

  @Test
  void promtoolFindsTheRulesValid() throws IOException {
    Tools.Result checked = Tools.run(List.of(Tools.promtool(), "check", "rules", RULES.toString()), null);

    assertThat(checked.success()).contains("SUCCESS: 6 rules found");
  }

  @Test
  void everyAlertFiresOnItsSeriesAndNotOnTheOthers(@TempDir Path dir) throws IOException {
    String promtool = Tools.promtool();
    Files.copy(RULES, dir.resolve("prometheus-rules.yaml"));
    try (InputStream tests = AlertRulesTest.class.getResourceAsStream("/monitoring/alerts-test.yaml")) {
      Files.copy(tests, dir.resolve("alerts-test.yaml"));
    }

    Tools.Result tested = Tools.run(List.of(promtool, "test", "rules", dir.resolve("alerts-test.yaml").toString()),
        null);

    assertThat(tested.success()).contains("SUCCESS");
    assertThat(Files.readString(dir.resolve("alerts-test.yaml"))).as("a test per alert")
        .contains("alertname: KubeflowTrainerOperatorDown", "alertname: KubeflowTrainerReconcileErrors",
            "alertname: KubeflowTrainerReconcileStuck", "alertname: KubeflowTrainerWebhookFailing",
            "alertname: KubeflowTrainerTrainJobsNotStarting", "alertname: KubeflowTrainerCertificateExpiring");
  }
}
