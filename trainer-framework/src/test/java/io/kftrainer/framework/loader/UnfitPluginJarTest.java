package io.kftrainer.framework.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.framework.runner.FrameworkVersion;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.Plugin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jars built against a newer Java or a newer framework than the operator runs: each is its jar's load problem, with
 * its cause in words, and the other plugins still load.
 */
class UnfitPluginJarTest {

  private static final String GOOD = """
      package com.example.good;

      public class GoodPlugin implements io.kftrainer.framework.spi.Plugin {
        public String name() { return "good"; }
      }
      """;
  /** An extension point of a newer framework: compiled against, never in the jar. */
  private static final String NEWER_EXTENSION = """
      package io.kftrainer.framework.spi;

      public interface NewerExtension extends Plugin {
        void newerPhase();
      }
      """;
  private static final String NEWER_HELPER = """
      package io.kftrainer.framework.model;

      public final class NewerHelper {
        public static String help() { return "help"; }
      }
      """;

  @TempDir
  Path plugins;

  @Test
  void aClassBuiltForANewerJavaNamesTheJarAndTheJavaVersions() throws IOException {
    Path jar = PluginJars.jar().source("com.example.v21.NewerJava", """
            package com.example.v21;

            public class NewerJava implements io.kftrainer.framework.spi.Plugin {
              public String name() { return "newer-java"; }
            }
            """).services(List.of("com.example.v21.NewerJava")).classFileVersion("com.example.v21.NewerJava", 65)
        .build(plugins.resolve("newer-java.jar"));
    good();

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.problems()).containsExactly(new LoadProblem(jar.toString(),
        "com.example.v21.NewerJava is built for Java 21, this operator runs Java " + Runtime.version().feature()));
    assertThat(loaded.instances()).extracting(Plugin::name).containsExactly("good");
  }

  @Test
  void anExtensionPointThisFrameworkDoesNotHaveNamesTheInterfaceAndTheFrameworkVersion() throws IOException {
    Path jar = PluginJars.jar().source("io.kftrainer.framework.spi.NewerExtension", NEWER_EXTENSION)
        .source("com.example.newer.NewerPlugin", """
            package com.example.newer;

            public class NewerPlugin implements io.kftrainer.framework.spi.NewerExtension {
              public String name() { return "newer"; }
              public void newerPhase() { }
            }
            """).services(List.of("com.example.newer.NewerPlugin"))
        .leaveOut("io.kftrainer.framework.spi.NewerExtension").build(plugins.resolve("newer/newer.jar"));
    good();

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.problems()).containsExactly(new LoadProblem(jar.toString(), "com.example.newer.NewerPlugin "
        + "implements io.kftrainer.framework.spi.NewerExtension, which this framework (" + FrameworkVersion.current()
        + ") does not have: built against a newer trainer-framework"));
    assertThat(loaded.instances()).extracting(Plugin::name).containsExactly("good");
  }

  @Test
  void aBundledFrameworkClassTheOperatorLacksIsNeverLoadedFromThePluginAndNamesTheJar() throws IOException {
    // as a plugin that shaded a newer trainer-framework into its jar
    Path jar = PluginJars.jar().source("io.kftrainer.framework.model.NewerHelper", NEWER_HELPER)
        .source("com.example.shaded.ShadedPlugin", """
            package com.example.shaded;

            public class ShadedPlugin implements io.kftrainer.framework.spi.Plugin {
              public String name() { return io.kftrainer.framework.model.NewerHelper.help(); }
            }
            """).services(List.of("com.example.shaded.ShadedPlugin")).build(plugins.resolve("shaded.jar"));
    good();

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.problems()).containsExactly(new LoadProblem(jar.toString(), "bundles "
        + "io.kftrainer.framework.model.NewerHelper of trainer-framework or trainer-api that this operator ("
        + FrameworkVersion.current() + ") does not have: built against a newer version; those classes always come "
        + "from the operator (give the dependency scope provided)"));
    assertThat(loaded.instances()).extracting(Plugin::name).containsExactly("good");
  }

  @Test
  void aBundledFrameworkClassTheOperatorHasComesFromTheOperator() throws Exception {
    PluginJars.jar().source("io.kftrainer.framework.model.FieldPath", """
            package io.kftrainer.framework.model;

            public final class FieldPath {
              public static String of() { return "the plugin's copy"; }
            }
            """).source("com.example.copy.CopyPlugin", """
            package com.example.copy;

            public class CopyPlugin implements io.kftrainer.framework.spi.Plugin {
              public String name() { return "copy"; }
            }
            """).services(List.of("com.example.copy.CopyPlugin")).build(plugins.resolve("copy.jar"));

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.problems()).isEmpty();
    ClassLoader pluginLoader = loaded.instances().get(0).getClass().getClassLoader();
    assertThat(Class.forName("io.kftrainer.framework.model.FieldPath", false, pluginLoader))
        .isSameAs(io.kftrainer.framework.model.FieldPath.class);
  }

  @Test
  void aJarRecordingANewerFrameworkIsRefusedBeforeAnyClassIsLoaded() throws IOException {
    Path jar = PluginJars.jar().source("com.example.good.GoodPlugin", GOOD)
        .services(List.of("com.example.good.GoodPlugin"))
        .manifest(FrameworkVersion.MANIFEST_ATTRIBUTE, "99.1.0").build(plugins.resolve("future.jar"));

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.plugins()).isEmpty();
    assertThat(loaded.problems()).containsExactly(new LoadProblem(jar.toString(), "built against trainer-framework "
        + "99.1.0, newer than this operator's " + FrameworkVersion.current() + ": build it against trainer-framework "
        + FrameworkVersion.current() + " or upgrade the operator"));
  }

  @Test
  void aJarRecordingThisFrameworkLoads() throws IOException {
    PluginJars.jar().source("com.example.good.GoodPlugin", GOOD).services(List.of("com.example.good.GoodPlugin"))
        .manifest(FrameworkVersion.MANIFEST_ATTRIBUTE, FrameworkVersion.current()).build(plugins.resolve("good.jar"));

    assertThat(PluginDirectory.load(plugins, getClass().getClassLoader()).instances()).extracting(Plugin::name)
        .containsExactly("good");
  }

  @Test
  void aClassMissingAtCallTimeIsSaidAsNoClassDefFoundErrorWithWhatItMeans() throws IOException {
    PluginJars.jar().source("io.kftrainer.framework.model.NewerHelper", NEWER_HELPER)
        .source("com.example.late.LatePlugin", """
            package com.example.late;

            import io.kftrainer.framework.model.ValidationResult;
            import io.kftrainer.framework.spi.ValidationContext;

            public class LatePlugin implements io.kftrainer.framework.spi.CustomValidation {
              public String name() { return "late"; }
              public ValidationResult validate(ValidationContext context) {
                io.kftrainer.framework.model.NewerHelper.help();
                return ValidationResult.ok();
              }
            }
            """).services(List.of("com.example.late.LatePlugin"))
        .leaveOut("io.kftrainer.framework.model.NewerHelper").build(plugins.resolve("late.jar"));
    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());
    CustomValidation late = (CustomValidation) loaded.instances().get(0);

    Throwable thrown = catchThrowable(() -> late.validate(null));

    assertThat(thrown).isInstanceOf(NoClassDefFoundError.class);
    assertThat(new PluginException("late", "CustomValidation", thrown)).hasMessage("plugin late failed in "
        + "CustomValidation: NoClassDefFoundError: io.kftrainer.framework.model.NewerHelper, which this "
        + "trainer-framework (" + FrameworkVersion.current() + ") does not have: the plugin was built against a "
        + "newer trainer-framework");
  }

  @Test
  void aStartUpMethodThatThrowsALinkageErrorIsALoadProblem() throws IOException {
    Path jar = PluginJars.jar().source("io.kftrainer.framework.model.NewerHelper", NEWER_HELPER)
        .source("com.example.named.NamedPlugin", """
            package com.example.named;

            public class NamedPlugin implements io.kftrainer.framework.spi.Plugin {
              public String name() { return io.kftrainer.framework.model.NewerHelper.help(); }
            }
            """).services(List.of("com.example.named.NamedPlugin"))
        .leaveOut("io.kftrainer.framework.model.NewerHelper").build(plugins.resolve("named.jar"));

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.problems()).singleElement().satisfies(problem -> {
      assertThat(problem.path()).isEqualTo(jar.toString());
      assertThat(problem.message()).startsWith("com.example.named.NamedPlugin: NoClassDefFoundError: "
          + "io.kftrainer.framework.model.NewerHelper, which this trainer-framework");
    });
  }

  @Test
  void aListedClassThatIsNotThereNamesTheJarAndTheClass() throws IOException {
    Path jar = PluginJars.jar().source("com.example.good.GoodPlugin", GOOD)
        .services(List.of("com.example.good.GoodPlugin", "com.example.good.Typo")).build(plugins.resolve("typo.jar"));

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.instances()).extracting(Plugin::name).containsExactly("good");
    assertThat(loaded.problems()).containsExactly(new LoadProblem(jar.toString(),
        "META-INF/services/io.kftrainer.framework.spi.Plugin lists com.example.good.Typo, which is not in the "
            + "plugin's jars"));
  }

  private void good() throws IOException {
    PluginJars.jar().source("com.example.good.GoodPlugin", GOOD).services(List.of("com.example.good.GoodPlugin"))
        .build(plugins.resolve("good/good.jar"));
  }

  private static Throwable catchThrowable(Runnable call) {
    try {
      call.run();
      return null;
    } catch (Throwable e) {
      return e;
    }
  }
}
