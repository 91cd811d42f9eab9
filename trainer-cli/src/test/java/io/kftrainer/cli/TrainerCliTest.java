package io.kftrainer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.operator.command.Streams;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TrainerCliTest {

  @Test
  void theDistributionHasTheOperatorsCommandsAndLocal() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exitCode = TrainerCli.execute(new Streams(InputStream.nullInputStream(), new PrintWriter(out, true),
        new PrintWriter(err, true)), "--help");

    assertThat(exitCode).isZero();
    assertThat(out.toString()).startsWith("Usage: trainer ")
        .containsPattern("(?m)^  run ").containsPattern("(?m)^  render ").containsPattern("(?m)^  plugins ")
        .containsPattern("(?m)^  local ");
  }

  @Test
  void eachSubcommandIsBuiltAloneUnderItsOwnName() {
    assertThat(TrainerCli.SUBCOMMANDS.keySet())
        .containsExactlyElementsOf(TrainerCli.commandLine(streams(new StringWriter(), new StringWriter()))
            .getSubcommands().keySet());
    for (String name : TrainerCli.SUBCOMMANDS.keySet()) {
      StringWriter out = new StringWriter();

      int exitCode = TrainerCli.execute(streams(out, new StringWriter()), name, "--help");

      assertThat(exitCode).as(name).isZero();
      assertThat(out.toString()).as(name).startsWith("Usage: trainer " + name + " ");
    }
  }

  @Test
  void anUnknownSubcommandIsAUsageErrorSuggestingAKnownOne() {
    StringWriter err = new StringWriter();

    int exitCode = TrainerCli.execute(streams(new StringWriter(), err), "lcoal");

    assertThat(exitCode).isEqualTo(2);
    assertThat(err.toString()).contains("'lcoal'").contains("Did you mean: trainer local?");
  }

  private static Streams streams(StringWriter out, StringWriter err) {
    return new Streams(InputStream.nullInputStream(), new PrintWriter(out, true), new PrintWriter(err, true));
  }
}
