package io.kftrainer.lab.differential;

import io.kftrainer.lab.LabBinaries;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The real kubectl against one {@link Side}: its kubeconfig (or a ServiceAccount's) and a discovery cache of its own.
 * Found at the system property {@code trainer.kubectl}, else where {@code .ci/fetch-helm} puts it
 * ({@code .tools/kubectl-layer/kubectl/kubectl}), else on the {@code PATH}; a case that needs it is skipped without.
 */
final class Kubectl {

  private static final long TIMEOUT_SECONDS = 60;

  /** The outcome of one command. */
  record Result(int exit, String out, String err) {
  }

  /** A running {@code kubectl} (a watch) whose output lines are collected as they come. */
  static final class Streaming implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final CompletableFuture<String> err;

    private Streaming(Process process) {
      this.process = process;
      this.err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            lines.add(line);
          }
        } catch (IOException e) {
          // the process ended
        }
      }, "kubectl-watch");
      reader.setDaemon(true);
      reader.start();
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    /** Stops kubectl; returns what it wrote to stderr. */
    String stop() throws InterruptedException {
      process.destroy();
      process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return err.join();
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  private final String binary;
  private final Side side;
  private final Path kubeconfig;

  private Kubectl(String binary, Side side, Path kubeconfig) {
    this.binary = binary;
    this.side = side;
    this.kubeconfig = kubeconfig;
  }

  /** kubectl as the admin of {@code side}; the calling case is skipped when kubectl is missing. */
  static Kubectl of(Side side) {
    Optional<String> binary = find();
    Assumptions.assumeTrue(binary.isPresent(), "kubectl not found: run .ci/fetch-helm or set -Dtrainer.kubectl=PATH");
    return new Kubectl(binary.get(), side, side.kubeconfig());
  }

  /** The same kubectl with another kubeconfig (a ServiceAccount's). */
  Kubectl as(Path otherKubeconfig) {
    return new Kubectl(binary, side, otherKubeconfig);
  }

  private static Optional<String> find() {
    String given = System.getProperty("trainer.kubectl");
    if (given != null && !given.isBlank()) {
      return Files.isExecutable(Path.of(given)) ? Optional.of(given) : Optional.empty();
    }
    Path fetched = LabBinaries.projectDir().resolve(".tools/kubectl-layer/kubectl/kubectl");
    if (Files.isExecutable(fetched)) {
      return Optional.of(fetched.toString());
    }
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, "kubectl")).filter(Files::isExecutable)
        .map(Path::toString).findFirst();
  }

  private ProcessBuilder builder(List<String> args) {
    List<String> command = new ArrayList<>(List.of(binary, "--kubeconfig", kubeconfig.toString(),
        "--cache-dir", side.dir().resolve("kubectl-cache").toString()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("HOME", side.dir().toString());
    builder.environment().remove("KUBECONFIG");
    return builder;
  }

  Result run(String... args) {
    return runWithInput(null, args);
  }

  /** Runs kubectl with {@code stdin} (when not null) to completion. */
  Result runWithInput(String stdin, String... args) {
    try {
      Process process = builder(List.of(args)).start();
      CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
      try (var in = process.getOutputStream()) {
        if (stdin != null) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("kubectl " + String.join(" ", args) + " did not end in " + TIMEOUT_SECONDS
            + " s");
      }
      return new Result(process.exitValue(), out.join(), err.join());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Starts kubectl (a watch) and collects its output until {@link Streaming#stop}. */
  Streaming start(String... args) {
    try {
      Process process = builder(List.of(args)).start();
      process.getOutputStream().close();
      return new Streaming(process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(InputStream stream) {
    try {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
