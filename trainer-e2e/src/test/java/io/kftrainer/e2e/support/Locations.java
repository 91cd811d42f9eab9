package io.kftrainer.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the artifacts under test are: the command-line distribution jar, trainer-apiserver's test fixtures, the
 * examples and the example plugin jar of this checkout, and the directory tests write to. Surefire passes them as
 * system properties (see the pom); the fallbacks are the same paths relative to the module directory, for runs from
 * an IDE.
 */
public final class Locations {

  private Locations() {
  }

  /** {@code trainer-cli/target/trainer.jar} (every command); fails the test if it has not been built. */
  public static Path operatorJar() {
    return existing("e2e.operatorJar", "../trainer-cli/target/trainer.jar",
        "build it with ./mvnw -B -q -pl trainer-local -am package -DskipTests");
  }

  /**
   * trainer-apiserver's test-jar (its test fixtures, the fault injector among them); fails the test if it has not
   * been built.
   */
  public static Path apiServerTestFixturesJar() {
    String version = System.getProperty("e2e.trainerVersion", "0.1.0-SNAPSHOT");
    return existing("e2e.apiServerTestFixturesJar",
        "../trainer-apiserver/target/trainer-apiserver-" + version + "-tests.jar",
        "build it with ./mvnw -B -q -pl trainer-apiserver -am install -DskipTests");
  }

  /** The {@code examples/} directory. */
  public static Path examplesDir() {
    return existing("e2e.examplesDir", "../examples", "the examples directory is missing");
  }

  /** The example plugin's jar; fails the test if it has not been built. */
  public static Path pluginExampleJar() {
    return existing("e2e.pluginExampleJar", "../examples/plugin-example/target/plugin-example-0.1.0-SNAPSHOT.jar",
        "build it with ./mvnw -B -q -f examples/plugin-example/pom.xml package -DskipTests");
  }

  /** A directory for kubeconfigs, plugin directories and process logs ({@code target/e2e}). */
  public static Path workDir() {
    Path dir = Path.of(System.getProperty("e2e.workDir", "target/e2e")).toAbsolutePath().normalize();
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path existing(String property, String fallback, String hint) {
    Path path = Path.of(System.getProperty(property, fallback)).toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      throw new IllegalStateException(path + " does not exist: " + hint);
    }
    return path;
  }
}
