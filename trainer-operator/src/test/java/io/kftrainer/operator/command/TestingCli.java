package io.kftrainer.operator.command;

import io.kftrainer.operator.Main;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs {@code trainer-operator} in process with captured streams. */
public final class TestingCli {

  private TestingCli() {
  }

  /** What a run printed and returned. */
  public record Run(int exitCode, String out, String err) {
  }

  public static Run run(String... args) {
    return runWithStdin("", args);
  }

  public static Run runWithStdin(String stdin, String... args) {
    InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode = Main.execute(new Streams(in, new PrintWriter(out, true), new PrintWriter(err, true)), args);
    return new Run(exitCode, out.toString(), err.toString());
  }
}
