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
}
