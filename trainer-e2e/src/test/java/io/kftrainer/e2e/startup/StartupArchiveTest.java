package io.kftrainer.e2e.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Locations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The start-up path users get from the build: the AppCDS archive next to {@code trainer.jar} (made by the build's
 * training run, {@code AppCdsTraining}) and {@code bin/trainer}, which runs the jar with it. Skipped when the build
 * made no archive ({@code -DskipAppCds}).
 */
class StartupArchiveTest {

  private static Path jar;
  private static Path archive;

  @BeforeAll
  static void archive() {
    jar = Locations.operatorJar();
    archive = jar.resolveSibling("trainer.jsa");
    assumeTrue(Files.exists(archive), archive + " was not built (-DskipAppCds)");
  }

  @Test
  void archiveMatchesTheJarAndHoldsWhatLocalAndRunLoadBeforeReady() {
    Command.Result result = Command.of(List.of(java(), "-XX:SharedArchiveFile=" + archive,
        "-XX:+PrintSharedArchiveAndExit", "-XX:+PrintSharedDictionary", "-jar", jar.toString())).run();

    assertThat(result.exitCode()).as(result.describe()).isZero();
    assertThat(result.stdout()).contains("archive is valid")
        // local's server and its schema validation, the operator, its informers, and run's command
        .contains("io.kftrainer.apiserver.EmbeddedApiServer app_loader")
        .contains("io.kftrainer.schema.CelRules app_loader")
        .contains("io.kftrainer.operator.app.TrainerOperator app_loader")
        .contains("io.kftrainer.operator.controller.TrainJobReconciler app_loader")
        .contains("io.fabric8.kubernetes.client.informers.impl.cache.Reflector app_loader")
        .contains("io.kftrainer.operator.command.RunCommand app_loader");
  }

  @Test
  void launcherRunsTheJarWithItsArchive() {
    Path example = Locations.examplesDir().resolve("torch-trainjob.yaml");
    Path launcher = Locations.examplesDir().resolveSibling("bin").resolve("trainer");

    // -Xshare:on: the JVM refuses to start rather than run without the archive
    Command.Result result = Command.of(List.of(launcher.toString(), "render", "-f", example.toString()))
        .env(Map.of("TRAINER_JAR", jar.toString(), "TRAINER_JAVA_OPTS", "-Xshare:on"))
        .timeout(Duration.ofSeconds(120)).run();

    assertThat(result.exitCode()).as(result.describe()).isZero();
    assertThat(result.stdout()).contains("kind: JobSet").contains("name: torch-cpu");
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
