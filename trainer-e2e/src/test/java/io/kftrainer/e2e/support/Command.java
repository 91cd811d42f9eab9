package io.kftrainer.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command line run to completion, as a user runs it in a shell: its exit code, stdout and stderr. Output goes
 * through files, so a chatty process never blocks on a full pipe; a process that outlives its timeout is killed
 * and fails the test.
 */
public final class Command {

  private final List<String> args;
  private final Map<String, String> env;
  private final Duration timeout;
  private final String stdin;
  private final Path directory;

  private Command(List<String> args, Map<String, String> env, Duration timeout, String stdin, Path directory) {
    this.args = List.copyOf(args);
    this.env = Map.copyOf(env);
    this.timeout = timeout;
    this.stdin = stdin;
    this.directory = directory;
  }

  public static Command of(List<String> args) {
    return new Command(args, Map.of(), Duration.ofSeconds(60), null, null);
  }

  /** The same command with these variables added to the inherited environment. */
  public Command env(Map<String, String> variables) {
    return new Command(args, variables, timeout, stdin, directory);
  }

  /** The same command with {@code text} on its standard input. */
  public Command stdin(String text) {
    return new Command(args, env, timeout, text, directory);
  }

  public Command timeout(Duration limit) {
    return new Command(args, env, limit, stdin, directory);
  }

  /** The same command run in {@code workingDirectory} instead of the tests' one. */
  public Command in(Path workingDirectory) {
    return new Command(args, env, timeout, stdin, workingDirectory);
  }

  /** Runs the command and waits for it to exit. */
  public Result run() {
    try {
      Path dir = Files.createDirectories(Locations.workDir().resolve("commands"));
      Path out = Files.createTempFile(dir, "stdout", ".txt");
      Path err = Files.createTempFile(dir, "stderr", ".txt");
      ProcessBuilder builder = new ProcessBuilder(args).redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().putAll(env);
      if (directory != null) {
        builder.directory(directory.toFile());
      }
      if (stdin == null) {
        builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      }
      Process process = builder.start();
      if (stdin != null) {
        try (var in = process.getOutputStream()) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError(String.join(" ", args) + " did not exit within " + timeout + "; stderr:\n"
            + Files.readString(err));
      }
      Result result = new Result(args, process.exitValue(), Files.readString(out), Files.readString(err));
      Files.delete(out);
      Files.delete(err);
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + args, e);
    }
  }

  /** What a finished command printed and returned. */
  public record Result(List<String> args, int exitCode, String stdout, String stderr) {

    public Result {
      args = List.copyOf(args);
    }

    /** The command line, its exit code and both streams, for assertion messages. */
    public String describe() {
      return "$ " + String.join(" ", args) + "\nexit code " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n"
          + stderr;
    }
  }
}
