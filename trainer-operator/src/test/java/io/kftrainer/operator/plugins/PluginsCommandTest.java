package io.kftrainer.operator.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.operator.cli.TestingCli;
import io.kftrainer.operator.cli.TestingCli.Run;
import org.junit.jupiter.api.Test;

class PluginsCommandTest {

  @Test
  void theBuiltInPluginsAreListedInPhaseOrderWithTheirExtensionPoints() {
    Run run = TestingCli.run("plugins", "--plugins-dir", "target/no-such-plugins-dir");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out().lines().skip(1).map(line -> line.split(" +")[0]))
        .containsSubsequence("Torch", "MPI", "CoScheduling", "JobSet");
    assertThat(run.out().lines())
        .anyMatch(line -> line.matches("Torch +100 +CustomValidation,EnforceMLPolicy +.*trainer-plugins-torch.*"));
    assertThat(run.out()).doesNotContain("Load problems");
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    Run run = TestingCli.run("plugins", "--bogus");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Unknown option: '--bogus'");
  }
}
