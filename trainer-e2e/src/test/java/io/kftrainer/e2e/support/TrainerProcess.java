package io.kftrainer.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code java -jar trainer.jar <command>} process of a test (local mode, the API server alone, an operator), its output in {@code target/e2e/<name>.log}:
 * stopped with SIGTERM ({@link #close()}) or SIGKILL ({@link #kill()}), and killed when the test JVM exits.
 */
public final class TrainerProcess implements AutoCloseable {

  private final String name;
  private final Process process;
  private final Path log;
  private final Thread killOnExit;

  private TrainerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.killOnExit = new Thread(process::destroyForcibly, "kill-" + name);
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /** Starts {@code trainer.jar args} with {@code env} added (e.g. {@code HOSTNAME}, the leader-election identity). */
  public static TrainerProcess start(String name, List<String> jvmOptions, List<String> args, Map<String, String> env) {
    return start(name, OperatorJar.commandLine(jvmOptions, args), env);
  }

  /** Starts {@code command} (an {@link OperatorJar} command line) with {@code env} added. */
  public static TrainerProcess start(String name, List<String> command, Map<String, String> env) {
    Path log = Locations.workDir().resolve(name + ".log");
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().putAll(env);
      return new TrainerProcess(name, builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  /** The file the process's stdout and stderr go to. */
  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code; only once the process has ended. */
  public int exitValue() {
    return process.exitValue();
  }

  /** Throws {@link DiedException} if the process has exited: a wait for it need not run to its deadline. */
  public void assertAlive() {
    if (!process.isAlive()) {
      throw new DiedException(name + " exited with code " + process.exitValue());
    }
  }

  /**
   * Waits until the process has written {@code kubeconfig} (its sign of being ready; a file still being written does
   * not parse yet) and returns it parsed; fails at once if the process exits.
   */
  public Config awaitKubeconfig(Path kubeconfig, Duration timeout) {
    return await("kubeconfig " + kubeconfig).atMost(timeout).pollInterval(Duration.ofMillis(100))
        .ignoreExceptionsMatching(e -> !(e instanceof DiedException))
        .until(() -> {
          assertAlive();
          return Files.exists(kubeconfig) ? Config.fromKubeconfig(Files.readString(kubeconfig)) : null;
        }, parsed -> parsed != null && parsed.getMasterUrl() != null);
  }

  /** SIGKILL, and waits for the process to be gone: no shutdown hook, no Lease release, no goodbye. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the output so far has a line containing {@code text}. */
  public boolean logged(String text) {
    try {
      return Files.exists(log) && Files.readString(log).contains(text);
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** The last lines of the output, for failure messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return "--- last lines of " + log + "\n"
          + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  /** SIGTERM, then SIGKILL after 10 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
  }

  /** The process exited while a test waited for it. */
  public static final class DiedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    DiedException(String message) {
      super(message);
    }
  }
}
