package io.kftrainer.e2e.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Directories;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.OperatorJar;
import io.kftrainer.e2e.support.TrainerProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plugin jars that do not fit the operator, dropped into {@code --plugins-dir} of {@code trainer.jar} processes: a
 * class built for Java 21 (compiled for 17, its class file marked 65), a plugin implementing an extension point of a
 * newer framework (compiled against it, the interface left out of the jar), a plugin whose constructor throws.
 * {@code plugins}, {@code render}, {@code local} and {@code run} each stop with one line naming every jar and its
 * cause, exit 1, print no stack trace and leave no process; with {@code --allow-plugin-load-failures} they go on
 * without them, with a warning each. A class missing only at call time fails the call, said as
 * {@code NoClassDefFoundError}. {@code local}'s {@code created} line lists the object of a third-party builder
 * ordered after the JobSet plugin.
 */
class UnfitPluginJarTest {

  private static final Duration QUICK = Duration.ofSeconds(60);
  private static final int JAVA = Runtime.version().feature();
  private static Path unfit;
  private static Path late;
  private static Path trainJob;
  private static List<String> causes;
  private static String framework;

  @BeforeAll
  static void buildJars() throws IOException {
    Path work = Locations.workDir().resolve("unfit-plugins");
    Directories.deleteRecursively(work);
    unfit = Files.createDirectories(work.resolve("unfit"));
    Path newerJava = jar(unfit.resolve("a-newer-java.jar"), Map.of("org.acme.v21.Newer", """
        package org.acme.v21;

        public class Newer implements io.kftrainer.framework.spi.Plugin {
          public String name() { return "newer"; }
        }
        """), List.of("org.acme.v21.Newer"), List.of(), List.of("org.acme.v21.Newer"));
    Path newerFramework = jar(unfit.resolve("b-newer-framework/future.jar"), Map.of(
        "io.kftrainer.framework.spi.FutureExtension", """
            package io.kftrainer.framework.spi;

            public interface FutureExtension extends Plugin {
              void future();
            }
            """, "org.acme.spi.Future", """
            package org.acme.spi;

            public class Future implements io.kftrainer.framework.spi.FutureExtension {
              public String name() { return "future"; }
              public void future() { }
            }
            """), List.of("org.acme.spi.Future"), List.of("io.kftrainer.framework.spi.FutureExtension"), List.of());
    Path constructorThrows = jar(unfit.resolve("c-ctor.jar"), Map.of("org.acme.ctor.CtorThrows", """
        package org.acme.ctor;

        public class CtorThrows implements io.kftrainer.framework.spi.Plugin {
          public CtorThrows() { throw new IllegalStateException("no licence in /etc/acme"); }
          public String name() { return "ctor"; }
        }
        """), List.of("org.acme.ctor.CtorThrows"), List.of(), List.of());
    // a plugin that fits: a builder after the JobSet plugin (order 1000), for local's created line
    jar(unfit.resolve("d-booking.jar"), Map.of("org.acme.booking.Booking", """
        package org.acme.booking;

        import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
        import io.fabric8.kubernetes.api.model.HasMetadata;
        import io.kftrainer.framework.spi.BuildContext;
        import io.kftrainer.framework.spi.ComponentBuilder;
        import java.util.List;

        public class Booking implements ComponentBuilder {
          public String name() { return "acme-booking"; }
          public List<HasMetadata> build(BuildContext context) {
            return List.of(new ConfigMapBuilder().withNewMetadata()
                .withName(context.trainJob().getMetadata().getName() + "-acme-booking").endMetadata()
                .addToData("booked", "yes").build());
          }
        }
        """), List.of("org.acme.booking.Booking"), List.of(), List.of());
    late = Files.createDirectories(work.resolve("late"));
    jar(late.resolve("late.jar"), Map.of("io.kftrainer.framework.model.NewerHelper", """
        package io.kftrainer.framework.model;

        public final class NewerHelper {
          public static boolean allows() { return true; }
        }
        """, "org.acme.late.Late", """
        package org.acme.late;

        import io.kftrainer.framework.model.ValidationResult;
        import io.kftrainer.framework.spi.ValidationContext;

        public class Late implements io.kftrainer.framework.spi.CustomValidation {
          public String name() { return "late"; }
          public ValidationResult validate(ValidationContext context) {
            return io.kftrainer.framework.model.NewerHelper.allows() ? ValidationResult.ok() : null;
          }
        }
        """), List.of("org.acme.late.Late"), List.of("io.kftrainer.framework.model.NewerHelper"), List.of());
    trainJob = Files.writeString(work.resolve("trainjob.yaml"), """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: unfit
        spec:
          runtimeRef:
            name: torch-distributed
          trainer:
            numNodes: 1
            command: [echo, hello]
        """);
    framework = io.kftrainer.framework.runner.FrameworkVersion.current();
    causes = List.of(
        newerJava + ": org.acme.v21.Newer is built for Java 21, this operator runs Java " + JAVA,
        newerFramework + ": org.acme.spi.Future implements io.kftrainer.framework.spi.FutureExtension, which this "
            + "framework (" + framework + ") does not have: built against a newer trainer-framework",
        constructorThrows + ": org.acme.ctor.CtorThrows could not be created: its constructor threw "
            + "IllegalStateException: no licence in /etc/acme");
  }

  @Test
  void pluginsNamesEachJarAndItsCause() {
    Command.Result plugins = OperatorJar.command("plugins", "--plugins-dir", unfit.toString()).timeout(QUICK).run();

    assertThat(plugins.exitCode()).as(plugins.describe()).isEqualTo(1);
    assertThat(plugins.stderr()).as(plugins.describe()).isEqualTo(loadError());
    assertThat(plugins.stdout()).as(plugins.describe()).contains("acme-booking").endsWith("\nLoad problems:\n"
        + String.join("", causes.stream().map(cause -> "  " + cause + "\n").toList()));
  }

  @Test
  void renderNamesEachJarAndItsCauseAndPrintsNothing() {
    Command.Result render = OperatorJar.command("render", "--plugins-dir", unfit.toString(), "-f",
        trainJob.toString()).timeout(QUICK).run();

    assertThat(render.exitCode()).as(render.describe()).isEqualTo(1);
    assertThat(render.stderr()).as(render.describe()).isEqualTo(loadError());
    assertThat(render.stdout()).isEmpty();
  }

  @Test
  void renderWithAllowPluginLoadFailuresWarnsAndRendersWithTheOthers() {
    Command.Result render = OperatorJar.command("render", "--plugins-dir", unfit.toString(), "-f",
        trainJob.toString(), "--allow-plugin-load-failures").timeout(QUICK).run();

    assertThat(render.exitCode()).as(render.describe()).isZero();
    assertThat(render.stderr().lines()).as(render.describe()).containsExactlyElementsOf(
        causes.stream().map(cause -> "Warning: rendering without plugin " + cause).toList());
    assertThat(render.stdout()).contains("name: unfit-acme-booking");
  }

  @Test
  void runNamesEachJarAndItsCauseAndExits() throws IOException {
    // never contacted: the plugins are loaded first
    Path kubeconfig = Files.writeString(Locations.workDir().resolve("unfit-plugins/nowhere.kubeconfig"), """
        apiVersion: v1
        kind: Config
        clusters: [{name: nowhere, cluster: {server: "https://127.0.0.1:9"}}]
        users: [{name: nobody, user: {token: none}}]
        contexts: [{name: nowhere, context: {cluster: nowhere, user: nobody}}]
        current-context: nowhere
        """);

    Command.Result run = OperatorJar.command("run", "--plugins-dir", unfit.toString(), "--kubeconfig",
        kubeconfig.toString(), "--leader-elect=false", "--health-port=0", "--metrics-port=0", "--webhook-port=0")
        .timeout(QUICK).run();

    assertThat(run.exitCode()).as(run.describe()).isEqualTo(1);
    assertThat(run.stderr()).as(run.describe()).endsWith(loadError());
    assertNoStackTrace(run);
  }

  @Test
  void localNamesEachJarAndItsCauseAndExitsBeforeItListens() {
    Path kubeconfig = Locations.workDir().resolve("unfit-plugins/refused.kubeconfig");

    Command.Result local = OperatorJar.command("local", "--plugins-dir", unfit.toString(), "--port=0",
        "--ephemeral", "--no-execute", "--kubeconfig-out", kubeconfig.toString()).timeout(QUICK).run();

    assertThat(local.exitCode()).as(local.describe()).isEqualTo(1);
    assertThat(local.stderr()).as(local.describe()).isEqualTo(loadError());
    assertThat(local.stdout()).as(local.describe()).isEmpty();
    assertThat(kubeconfig).doesNotExist();
  }

  @Test
  void localWithAllowPluginLoadFailuresWarnsAndItsCreatedLineHasTheThirdPartyObject() {
    Path kubeconfig = Locations.workDir().resolve("unfit-plugins/allowed.kubeconfig");
    try (TrainerProcess local = TrainerProcess.start("unfit-plugins-local", List.of("-XX:TieredStopAtLevel=1"),
        List.of("local", "--plugins-dir", unfit.toString(), "--allow-plugin-load-failures", "--port=0",
            "--ephemeral", "--no-execute", "--kubeconfig-out", kubeconfig.toString(), "--apply", trainJob.toString()),
        Map.of())) {
      await("the created line").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
          .untilAsserted(() -> {
            local.assertAlive();
            assertThat(local.logged("trainjob default/unfit: created JobSet unfit, ConfigMap unfit-runtime-snapshot, "
                + "ConfigMap unfit-tls-config, ConfigMap unfit-acme-booking\n")).as(local.logTail(30)).isTrue();
          });
      String log = Files.readString(local.log());
      for (String cause : causes) {
        assertThat(log).as(local.logTail(30)).containsOnlyOnce("Starting without plugin " + cause
            + " (--allow-plugin-load-failures)");
      }
      assertThat(log).doesNotContain("Exception in thread", "\tat ");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aClassMissingAtCallTimeIsSaidAsNoClassDefFoundError() {
    Command.Result render = OperatorJar.command("render", "--plugins-dir", late.toString(), "-f",
        trainJob.toString()).timeout(QUICK).run();

    assertThat(render.exitCode()).as(render.describe()).isEqualTo(1);
    assertThat(render.stderr()).as(render.describe()).isEqualTo("TrainJob default/unfit: plugin late failed in "
        + "CustomValidation: NoClassDefFoundError: io.kftrainer.framework.model.NewerHelper, which this "
        + "trainer-framework (" + framework + ") does not have: the plugin was built against a newer "
        + "trainer-framework\n");
  }

  private static String loadError() {
    return "Error: cannot load plugins " + String.join("; ", causes)
        + " (--allow-plugin-load-failures starts without them)\n";
  }

  private static void assertNoStackTrace(Command.Result result) {
    assertThat(result.stderr()).as(result.describe()).doesNotContain("Exception in thread", "\tat ");
  }

  /**
   * Compiles {@code sources} for Java 17 against the test class path (the framework) and writes {@code jar} with
   * the classes but {@code leftOut}, listing {@code services}; the class files of {@code forJava21} are marked as
   * Java 21's (major version 65), as a newer compiler writes them.
   */
  private static Path jar(Path jar, Map<String, String> sources, List<String> services, List<String> leftOut,
      List<String> forJava21) throws IOException {
    Path work = Files.createTempDirectory(Locations.workDir(), "plugin-build");
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
        System.getProperty("java.class.path"), "--release", "17", "-proc:none"));
    for (var source : sources.entrySet()) {
      Path file = work.resolve("src").resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      args.add(file.toString());
    }
    StringWriter diagnostics = new StringWriter();
    OutputStream err = new OutputStream() {
      @Override
      public void write(int b) {
        diagnostics.write(b);
      }
    };
    if (ToolProvider.getSystemJavaCompiler().run(null, null, err, args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("the plugin does not compile:\n" + diagnostics);
    }
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String entry = classes.relativize(file).toString().replace('\\', '/');
        String className = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
        if (leftOut.contains(className)) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(file);
        if (forJava21.contains(className)) {
          bytes[6] = 0;
          bytes[7] = 65;
        }
        out.putNextEntry(new JarEntry(entry));
        out.write(bytes);
        out.closeEntry();
      }
      out.putNextEntry(new JarEntry("META-INF/services/io.kftrainer.framework.spi.Plugin"));
      out.write((String.join("\n", services) + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    Directories.deleteRecursively(work);
    return jar;
  }
}
