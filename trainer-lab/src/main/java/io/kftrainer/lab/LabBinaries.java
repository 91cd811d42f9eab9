package io.kftrainer.lab;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Where {@code .ci/build-lab} put the lab: {@code bin/} (etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler, kwok, jobset) and {@code data/} (kwok's stages, JobSet's CRDs and webhook configurations,
 * {@code versions.properties}). Found at the system property {@code trainer.lab}, else at {@code .tools/lab} of the
 * repository (the system property {@code trainer.projectDir}, else the nearest directory above the working
 * directory that holds {@code .ci/build-lab}).
 */
public record LabBinaries(Path dir) {

  static final List<String> COMMANDS = List.of("etcd", "kube-apiserver", "kube-controller-manager",
      "kube-scheduler", "kwok", "jobset");

  /** The lab of this checkout, if it has been built. */
  public static Optional<LabBinaries> find() {
    LabBinaries lab = new LabBinaries(location());
    return lab.isComplete() ? Optional.of(lab) : Optional.empty();
  }

  /** Why {@link #find()} is empty: for a skipped test. */
  public static String missingReason() {
    return "the lab is not built at " + location() + ": run .ci/build-lab (Go 1.26 and the Go module proxy), or "
        + "set -Dtrainer.lab=DIR";
  }

  private static Path location() {
    String given = System.getProperty("trainer.lab");
    if (given != null && !given.isBlank()) {
      return Path.of(given).toAbsolutePath();
    }
    return projectDir().resolve(".tools/lab");
  }

  /** The repository's root directory. */
  public static Path projectDir() {
    String given = System.getProperty("trainer.projectDir");
    if (given != null && !given.isBlank()) {
      return Path.of(given).toAbsolutePath().normalize();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(".ci/build-lab"))) {
        return dir;
      }
    }
    return Path.of("").toAbsolutePath();
  }

  private boolean isComplete() {
    return COMMANDS.stream().allMatch(c -> Files.isExecutable(command(c)))
        && Files.isRegularFile(data().resolve("versions.properties"));
  }

  /** The path of one of {@link #COMMANDS}. */
  public Path command(String name) {
    return dir.resolve("bin").resolve(name);
  }

  public Path data() {
    return dir.resolve("data");
  }

  /** The versions the lab was built at: {@code kubernetes}, {@code etcd}, {@code kwok}, {@code jobset}. */
  public Properties versions() {
    Properties versions = new Properties();
    try (Reader reader = Files.newBufferedReader(data().resolve("versions.properties"))) {
      versions.load(reader);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the lab's versions", e);
    }
    return versions;
  }
}
