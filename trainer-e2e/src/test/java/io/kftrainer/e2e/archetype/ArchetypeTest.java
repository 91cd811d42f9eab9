package io.kftrainer.e2e.archetype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.OperatorJar;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The plugin archetype as docs/writing-plugins.md tells a plugin author to use it: {@code archetype:generate}, the
 * generated project's own Maven wrapper builds and tests it, and its jar, dropped into {@code --plugins-dir}
 * unchanged, runs in {@code render} and {@code local} with its {@code --plugin-config} and shows its configuration in
 * {@code plugins}.
 *
 * <p>The generated build must see this build's artifacts, not published ones: they are copied, as built, into a
 * local repository of this test's own ({@code target/e2e/archetype/repository}), as {@code install} would lay
 * them out, before each run. Everything else (Maven plugins, fabric8, JUnit) comes from the local repository of this build, used as
 * the only remote repository ({@code settings.xml} mirror), so the test needs no network.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArchetypeTest {

  private static final String ARCHETYPE_PLUGIN = "org.apache.maven.plugins:maven-archetype-plugin:3.3.1:generate";
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);
  /** Reactor modules a generated project needs, as artifactId and the directory of the module. */
  private static final List<String> JAR_MODULES =
      List.of("trainer-api", "trainer-framework", "trainer-testkit", "trainer-plugins-jobset");

  private final Path projectDir = Path.of(System.getProperty("e2e.projectDir", "..")).toAbsolutePath().normalize();
  private final String version = System.getProperty("e2e.trainerVersion", "0.1.0-SNAPSHOT");
  private final Path work = Locations.workDir().resolve("archetype");
  private final Path repository = work.resolve("repository");
  private Path generated;

  @BeforeAll
  void generateAndBuild() throws IOException, URISyntaxException {
    deleteRecursively(work.resolve("node-quota"));
    installReactorArtifacts();
    Path settings = Files.writeString(work.resolve("settings.xml"), """
        <settings>
          <mirrors>
            <mirror><id>build-repository</id><mirrorOf>*</mirrorOf><url>%s</url></mirror>
          </mirrors>
        </settings>
        """.formatted(buildRepository().toUri()));
    Path maven = projectDir.resolve("mvnw");

    Command.Result generate = Command.of(List.of(maven.toString(), "-B", "-s", settings.toString(),
            "-Dmaven.repo.local=" + repository, ARCHETYPE_PLUGIN,
            "-DarchetypeGroupId=io.kftrainer", "-DarchetypeArtifactId=trainer-plugin-archetype",
            "-DarchetypeVersion=" + version, "-DgroupId=com.example.quota", "-DartifactId=node-quota"))
        .in(work).timeout(BUILD_TIMEOUT).run();
    assertThat(generate.exitCode()).as(generate.describe()).isZero();
    generated = work.resolve("node-quota");

    Command.Result build = Command.of(List.of("./mvnw", "-B", "-s", settings.toString(),
            "-Dmaven.repo.local=" + repository, "package"))
        .in(generated).timeout(BUILD_TIMEOUT).run();
    assertThat(build.exitCode()).as(build.describe()).isZero();
    assertThat(build.stdout()).as(build.describe())
        .contains("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0", "BUILD SUCCESS");
  }

  @Test
  void theGeneratedPluginRunsInRenderWithItsConfiguration() {
    Command.Result render = OperatorJar.command("render", "--plugins-dir", generated.resolve("target").toString(),
        "--plugin-config", generated.resolve("plugin-config.yaml").toString(),
        "-f", generated.resolve("trainjob.yaml").toString()).run();

    assertThat(render.exitCode()).as(render.describe()).isEqualTo(1);
    assertThat(render.stderr()).as(render.describe())
        .isEqualTo("TrainJob default/too-big: spec.trainer.numNodes: Invalid value: 16: must be at most 4 "
            + "(node quota)\n");
  }

  @Test
  void theGeneratedPluginDeniesOversizedTrainJobsInLocalMode() throws IOException {
    String tooBig = Files.readString(generated.resolve("trainjob.yaml"));
    try (LocalOperator local = LocalOperator.start("archetype-local", List.of("--plugins-dir",
        generated.resolve("target").toString(), "--plugin-config", generated.resolve("plugin-config.yaml").toString()))) {
      String namespace = local.createNamespace("quota");

      KubernetesClientException denied = catchThrowableOfType(KubernetesClientException.class,
          () -> local.client().resource(tooBig).inNamespace(namespace).create());
      local.client().resource(tooBig.replace("numNodes: 16", "numNodes: 4")).inNamespace(namespace).create();

      assertThat(denied).as("the TrainJob on 16 nodes is denied").isNotNull();
      assertThat(denied.getStatus().getMessage()).endsWith(
          "\"too-big\" is invalid: spec.trainer.numNodes: Invalid value: 16: must be at most 4 (node quota)");
    }
  }

  @Test
  void pluginsListsTheGeneratedPluginAndItsEffectiveConfiguration() {
    Path jar = generated.resolve("target/node-quota-0.1.0-SNAPSHOT.jar");
    Command.Result plugins = OperatorJar.command("plugins", "--plugins-dir", generated.resolve("target").toString(),
        "--plugin-config", generated.resolve("plugin-config.yaml").toString()).run();

    assertThat(plugins.exitCode()).as(plugins.describe()).isZero();
    assertThat(plugins.stdout().lines()).anyMatch(line -> line.matches("node-quota +1000 +CustomValidation +" + jar));
    // the effective configuration, built-in plugins' sections (TrainJobStatus) before the generated plugin's
    assertThat(plugins.stdout()).contains("\nConfiguration:\n").endsWith("\n  node-quota:\n    maxNodes: 4\n");
  }

  @Test
  void theGeneratedProjectHasTheWrapperAndNoTrainerVersionButTheBoms() throws IOException {
    assertThat(Files.isExecutable(generated.resolve("mvnw"))).isTrue();
    String pom = Files.readString(generated.resolve("pom.xml"));
    assertThat(pom).contains("<trainer.version>" + version + "</trainer.version>", "<artifactId>trainer-bom</artifactId>");
    // referred to twice: by the BOM, and by the jar's manifest (Trainer-Framework-Version)
    assertThat(pom.split("\\$\\{trainer.version}", -1)).hasSize(3);
  }

  @Test
  void theJarRecordsTheFrameworkItIsBuiltAgainst() throws IOException {
    try (JarFile jar = new JarFile(generated.resolve("target/node-quota-0.1.0-SNAPSHOT.jar").toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Trainer-Framework-Version")).isEqualTo(version);
    }
  }

  /** What {@code install} would write for the modules a plugin project depends on, from this build's output. */
  private void installReactorArtifacts() throws IOException {
    install("trainer-parent", projectDir.resolve("pom.xml"), null);
    install("trainer-bom", projectDir.resolve("trainer-bom/pom.xml"), null);
    install("trainer-plugin-archetype", projectDir.resolve("trainer-plugin-archetype/pom.xml"),
        projectDir.resolve("trainer-plugin-archetype/target/trainer-plugin-archetype-" + version + ".jar"));
    for (String module : JAR_MODULES) {
      install(module, projectDir.resolve(module).resolve("pom.xml"),
          projectDir.resolve(module).resolve("target").resolve(module + "-" + version + ".jar"));
    }
  }

  private void install(String artifactId, Path pom, Path jar) throws IOException {
    Path dir = Files.createDirectories(repository.resolve("io/kftrainer").resolve(artifactId).resolve(version));
    Files.copy(pom, dir.resolve(artifactId + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    if (jar != null) {
      assertThat(jar).as("built by the reactor before this test").exists();
      Files.copy(jar, dir.resolve(artifactId + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The local repository of this build: where JUnit's jar on this test's class path lives. */
  private static Path buildRepository() throws URISyntaxException {
    Path jar = Path.of(Test.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    // .../repository/org/junit/jupiter/junit-jupiter-api/<version>/junit-jupiter-api-<version>.jar
    return jar.getParent().getParent().getParent().getParent().getParent().getParent();
  }

  /** Deletes a project generated by an earlier run; the repository stays, a cache of third-party artifacts. */
  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(path);
      }
    }
  }
}
