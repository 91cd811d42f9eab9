package io.kftrainer.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the tests try, where the build says it is (system properties set by the pom, with defaults for a run from
 * the module directory): this checkout, its jars, the image archive, a work directory.
 */
public final class Deploy {

  private Deploy() {
  }

  /** The repository's root. */
  public static Path projectDir() {
    return path("deploy.projectDir", "..");
  }

  public static Path manifests() {
    return projectDir().resolve("manifests");
  }

  public static Path chart() {
    return projectDir().resolve("charts/kubeflow-trainer");
  }

  public static Path trainerJar() {
    return path("deploy.trainerJar", "../trainer-local/target/trainer.jar");
  }

  public static Path imageTar() {
    return path("deploy.imageTar", "../trainer-operator/target/trainer-operator-image.tar");
  }

  public static Path pluginExampleJar() {
    return path("deploy.pluginExampleJar", "../examples/plugin-example/target/plugin-example-0.1.0-SNAPSHOT.jar");
  }

  /** A fresh directory for {@code name} under the module's test work directory. */
  public static Path workDir(String name) throws IOException {
    Path dir = path("deploy.workDir", "target/deploy-tests").resolve(name);
    if (Files.exists(dir)) {
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    return Files.createDirectories(dir);
  }

  /** {@code ghcr.io/kftrainer/trainer-operator:<tag>}, as the parent pom names the image. */
  public static String image() {
    return System.getProperty("deploy.image", "ghcr.io/kftrainer/trainer-operator:0.1.0");
  }

  /** The Maven project version (e.g. {@code 0.1.0-SNAPSHOT}). */
  public static Optional<String> projectVersion() {
    return Optional.ofNullable(System.getProperty("deploy.projectVersion"));
  }

  private static Path path(String property, String fallback) {
    return Path.of(System.getProperty(property, fallback)).toAbsolutePath().normalize();
  }
}
