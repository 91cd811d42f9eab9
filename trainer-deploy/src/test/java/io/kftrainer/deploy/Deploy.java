package io.kftrainer.deploy;

import io.kftrainer.deploy.image.ImageArchive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

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
    return path("deploy.trainerJar", "../trainer-cli/target/trainer.jar");
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

  /**
   * The image archive, unpacked into {@code root}; the calling test is skipped when the build made no image (the
   * profile that makes it needs bubblewrap).
   */
  public static ImageArchive unpackedImage(Path root) throws IOException {
    Path tar = imageTar();
    Assumptions.assumeTrue(Files.isRegularFile(tar), "no image at " + tar + ": it is built by trainer-deploy's "
        + "Maven profile 'image', active where bubblewrap is installed (/usr/bin/bwrap)");
    ImageArchive image = ImageArchive.read(tar);
    image.unpack(root);
    return image;
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
