package io.kftrainer.e2e.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code kubectl} binary pointed at a local instance through {@code KUBECONFIG}, the way a user points it at a
 * cluster. Tests that need it call {@link #isInstalled()} in an assumption, so that a machine without kubectl
 * reports them skipped rather than passed.
 */
public final class Kubectl {

  /** The binary the tests use: {@code /usr/bin/kubectl}, else the first {@code kubectl} on the PATH. */
  private static final Path BINARY = find();

  private final Path kubeconfig;

  public Kubectl(Path kubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  public static boolean isInstalled() {
    return BINARY != null;
  }

  /** Runs {@code kubectl args...} and returns what it printed; never fails on a non-zero exit code. */
  public Command.Result run(String... args) {
    return command(args).run();
  }

  /** Runs {@code kubectl args...} with {@code stdin} as its standard input (for {@code -f -}). */
  public Command.Result runWithInput(String stdin, String... args) {
    return command(args).stdin(stdin).run();
  }

  private Command command(String... args) {
    if (BINARY == null) {
      throw new IllegalStateException("kubectl not installed");
    }
    List<String> command = new ArrayList<>();
    command.add(BINARY.toString());
    command.addAll(List.of(args));
    return Command.of(command).env(Map.of("KUBECONFIG", kubeconfig.toString()));
  }

  private static Path find() {
    Path usrBin = Path.of("/usr/bin/kubectl");
    if (Files.isExecutable(usrBin)) {
      return usrBin;
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
