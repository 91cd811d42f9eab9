package io.kftrainer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.cli.TestingCli.Run;
import io.kftrainer.operator.plugins.TestingPluginJar;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plugins} and {@code render} with plugin jars that do not fit the operator (built for Java 21, implementing an
 * extension point of a newer framework, a constructor that throws): one line naming each jar and its cause, exit 1;
 * with {@code --allow-plugin-load-failures}, a warning and the other plugins. In process; {@code trainer-e2e}'s
 * {@code UnfitPluginJarTest} runs the jar's processes, {@code local} and {@code run} too.
 */
class UnfitPluginJarTest {

  private static final String TRAINJOB = "src/test/resources/render/torch-trainjob.yaml";

  @TempDir
  static Path plugins;
  static Path newerJava;
  static Path newerFramework;
  static Path constructorThrows;

  @BeforeAll
  static void buildJars() throws IOException {
    newerJava = TestingPluginJar.markedForJava(TestingPluginJar.build(plugins.resolve("a-newer-java.jar"),
        "org.acme.v21.Newer", Map.of("org.acme.v21.Newer", """
            package org.acme.v21;

            public class Newer implements io.kftrainer.framework.spi.Plugin {
              public String name() { return "newer"; }
            }
            """)), "org.acme.v21.Newer", 21);
    newerFramework = TestingPluginJar.without(TestingPluginJar.build(plugins.resolve("b-newer-framework/plugin.jar"),
        "org.acme.spi.Future", Map.of("io.kftrainer.framework.spi.FutureExtension", """
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
            """)), "io.kftrainer.framework.spi.FutureExtension");
    constructorThrows = TestingPluginJar.build(plugins.resolve("c-ctor.jar"), "org.acme.ctor.CtorThrows",
        Map.of("org.acme.ctor.CtorThrows", """
            package org.acme.ctor;

            public class CtorThrows implements io.kftrainer.framework.spi.Plugin {
              public CtorThrows() { throw new IllegalStateException("no licence in /etc/acme"); }
              public String name() { return "ctor"; }
            }
            """));
  }

  @Test
  void pluginsNamesEachJarAndItsCauseAndExitsOne() {
    Run run = TestingCli.run("plugins", "--plugins-dir", plugins.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).endsWith("\nLoad problems:\n" + String.join("", causes().stream()
        .map(line -> "  " + line + "\n").toList()));
    assertThat(run.err()).isEqualTo("Error: cannot load plugins " + String.join("; ", causes())
        + " (--allow-plugin-load-failures starts without them)\n");
  }

  @Test
  void pluginsWithAllowLoadFailuresListsThemAndExitsZero() {
    Run run = TestingCli.run("plugins", "--plugins-dir", plugins.toString(), "--allow-plugin-load-failures");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Load problems:\n  " + causes().get(0));
    assertThat(run.err()).isEmpty();
  }

  @Test
  void renderStopsWithOneLineAndPrintsNothing() {
    Run run = TestingCli.run("render", "--plugins-dir", plugins.toString(), "-f", TRAINJOB);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("Error: cannot load plugins " + String.join("; ", causes())
        + " (--allow-plugin-load-failures starts without them)\n");
  }

  @Test
  void renderWithAllowLoadFailuresWarnsPerJarAndRendersWithTheOthers() {
    Run run = TestingCli.run("render", "--plugins-dir", plugins.toString(), "-f", TRAINJOB,
        "--allow-plugin-load-failures");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("kind: JobSet");
    assertThat(run.err().lines()).containsExactlyElementsOf(causes().stream()
        .map(cause -> "Warning: rendering without plugin " + cause).toList());
  }

  /** Each jar's line, in path order: its path and its cause. */
  private static List<String> causes() {
    return List.of(
        newerJava + ": org.acme.v21.Newer is built for Java 21, this operator runs Java "
            + Runtime.version().feature(),
        newerFramework + ": org.acme.spi.Future implements io.kftrainer.framework.spi.FutureExtension, "
            + "which this framework (" + io.kftrainer.framework.runner.FrameworkVersion.current() + ") does not have: "
            + "built against a newer trainer-framework",
        constructorThrows + ": org.acme.ctor.CtorThrows could not be created: its constructor "
            + "threw IllegalStateException: no licence in /etc/acme");
  }
}
