package io.kftrainer.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.operator.command.TestingCli;
import io.kftrainer.operator.command.TestingCli.Run;
import org.junit.jupiter.api.Test;

class MainTest {

  @Test
  void versionPrintsTheProjectVersion() {
    Run run = TestingCli.run("--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo("trainer-operator 0.1.0-SNAPSHOT\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void noSubcommandIsAUsageError() {
    Run run = TestingCli.run();

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Missing required subcommand\nUsage: trainer-operator");
  }

  @Test
  void anUnknownSubcommandIsAUsageError() {
    Run run = TestingCli.run("bogus");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Unmatched argument at index 0: 'bogus'");
  }

  @Test
  void helpListsTheSubcommands() {
    Run run = TestingCli.run("--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("run");
  }
}
