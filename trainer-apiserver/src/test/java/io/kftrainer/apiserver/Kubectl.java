package io.kftrainer.apiserver;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real kubectl against an embedded server, in a private HOME and kubeconfig; tests assume it is installed. */
final class Kubectl {

  /** The first kubectl on the PATH ({@code .ci/run} puts the one {@code .ci/fetch-helm} fetches there), if any. */
  static final Path BINARY = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
      .filter(dir -> !dir.isEmpty())
      .map(dir -> Path.of(dir, "kubectl"))
      .filter(Files::isExecutable)
      .findFirst()
      .orElse(Path.of("/usr/bin/kubectl"));

  record Result(int exit, String output) {
  }

  /** A running {@code kubectl} whose output lines are collected as they come (watches, followed logs). */
  static final class Streaming implements AutoCloseable {
    private final Process process;
    final List<String> lines = new CopyOnWriteArrayList<>();

    private Streaming(Process process) {
      this.process = process;
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = in.readLine()) != null) {
            lines.add(line);
          }
        } catch (IOException e) {
          // process ended
        }
      }, "kubectl-output");
      reader.setDaemon(true);
      reader.start();
    }

    boolean isAlive() {
      return process.isAlive();
    }

    @Override
    public void close() {
      process.destroy();
    }
  }

  private final Path dir;
  private String editor;

  Kubectl(EmbeddedApiServer server, Path dir) {
    assumeTrue(Files.isExecutable(BINARY), "kubectl is not installed at " + BINARY);
    this.dir = dir;
    server.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  private ProcessBuilder builder(String... args) {
    List<String> command = new ArrayList<>(List.of(BINARY.toString(),
        "--kubeconfig", dir.resolve("kubeconfig").toString(), "--cache-dir", dir.resolve("cache").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("HOME", dir.toString());
    builder.environment().remove("KUBECONFIG");
    if (editor != null) {
      builder.environment().put("KUBE_EDITOR", editor);
    }
    return builder;
  }

  /** The editor of {@code kubectl edit}: a program called with the file to edit. */
  Kubectl editor(Path program) {
    this.editor = program.toString();
    return this;
  }

  Result runWithInput(String stdin, String... args) {
    try {
      Process process = builder(args).start();
      if (stdin != null) {
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      process.getOutputStream().close();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl %s finished", args[0]).isTrue();
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  Result run(String... args) {
    return runWithInput(null, args);
  }

  /** Runs kubectl and asserts it succeeded; returns its output. */
  String ok(String... args) {
    Result result = run(args);
    assertThat(result.exit()).as("kubectl %s: %s", String.join(" ", args), result.output()).isZero();
    return result.output();
  }

  Streaming start(String... args) {
    try {
      Process process = builder(args).start();
      process.getOutputStream().close();
      return new Streaming(process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
