package io.kftrainer.operator.command;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The standard streams a command reads and writes. Commands never touch {@code System.in/out/err} themselves, so
 * that tests can run them in process with captured output.
 */
public record Streams(InputStream in, PrintWriter out, PrintWriter err) {

  /** The process's own stdin, stdout and stderr, in UTF-8. */
  public static Streams system() {
    return new Streams(System.in,
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
  }
}
