package io.kftrainer.framework.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.framework.spi.EnforcePodGroupPolicy;
import io.kftrainer.framework.spi.ExtensionPoint;
import io.kftrainer.framework.spi.Plugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginDirectoryTest {

  private static final String LABEL_PLUGIN = """
      package com.example.label;

      import io.kftrainer.framework.spi.BuildContext;
      import io.kftrainer.framework.spi.EnforcePodGroupPolicy;

      public class LabelPlugin implements EnforcePodGroupPolicy {
        public String name() { return "example-label"; }
        public void enforcePodGroupPolicy(BuildContext context) {
          context.info().schedulerPodLabels().put("example.com/team", Helper.team());
        }
      }
      """;
  private static final String HELPER = """
      package com.example.label;

      class Helper {
        static String team() { return "ml"; }
      }
      """;
  private static final String BROKEN_PLUGIN = """
      package com.example.broken;

      public class BrokenPlugin implements io.kftrainer.framework.spi.Plugin {
        public BrokenPlugin() { throw new IllegalStateException("cannot start"); }
        public String name() { return "broken"; }
      }
      """;

  @TempDir
  static Path jars;
  static Path labelJar;
  static Path brokenJar;

  @BeforeAll
  static void buildJars() throws IOException {
    labelJar = PluginJars.build(jars.resolve("label.jar"),
        Map.of("com.example.label.LabelPlugin", LABEL_PLUGIN, "com.example.label.Helper", HELPER),
        List.of("com.example.label.LabelPlugin"));
    brokenJar = PluginJars.build(jars.resolve("broken.jar"),
        Map.of("com.example.broken.BrokenPlugin", BROKEN_PLUGIN), List.of("com.example.broken.BrokenPlugin"));
  }

  @Test
  void aPluginInASubdirectoryIsLoadedWithItsOriginAndSeesTheOperatorsFrameworkClasses(@TempDir Path plugins)
      throws IOException {
    Path jar = copy(labelJar, plugins.resolve("label/label-plugin.jar"));

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.problems()).isEmpty();
    assertThat(loaded.plugins()).singleElement().satisfies(p -> {
      assertThat(p.plugin().name()).isEqualTo("example-label");
      assertThat(p.origin()).isEqualTo(jar.toString());
      assertThat(p.plugin()).isInstanceOf(EnforcePodGroupPolicy.class);
      assertThat(ExtensionPoint.implementedBy(p.plugin())).containsExactly(ExtensionPoint.ENFORCE_POD_GROUP_POLICY);
      assertThat(p.plugin().getClass().getClassLoader()).isInstanceOf(PluginClassLoader.class);
    });
  }

  @Test
  void aJarDirectlyInTheDirectoryIsAPluginOfItsOwn(@TempDir Path plugins) throws IOException {
    copy(labelJar, plugins.resolve("label-plugin.jar"));

    assertThat(PluginDirectory.load(plugins, getClass().getClassLoader()).instances())
        .extracting(Plugin::name).containsExactly("example-label");
  }

  @Test
  void aCorruptJarIsReportedWithItsPathAndTheOthersStillLoad(@TempDir Path plugins) throws IOException {
    copy(labelJar, plugins.resolve("good/label.jar"));
    Path corrupt = Files.createDirectories(plugins.resolve("bad")).resolve("corrupt.jar");
    Files.writeString(corrupt, "this is not a zip file");

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.instances()).extracting(Plugin::name).containsExactly("example-label");
    assertThat(loaded.problems()).extracting(LoadProblem::path).contains(corrupt.toString());
  }

  @Test
  void aPluginThatCannotBeInstantiatedIsReportedAndTheOthersStillLoad(@TempDir Path plugins) throws IOException {
    Path broken = copy(brokenJar, plugins.resolve("a-broken/broken.jar"));
    copy(labelJar, plugins.resolve("b-label/label.jar"));

    PluginSet loaded = PluginDirectory.load(plugins, getClass().getClassLoader());

    assertThat(loaded.instances()).extracting(Plugin::name).containsExactly("example-label");
    assertThat(loaded.problems()).containsExactly(new LoadProblem(broken.toString(), "com.example.broken.BrokenPlugin "
        + "could not be created: its constructor threw IllegalStateException: cannot start"));
  }

  @Test
  void builtInPluginsAreFoundOnTheOperatorsClassPathButNotAgainInEachPluginDirectory(@TempDir Path plugins)
      throws IOException {
    copy(labelJar, plugins.resolve("label/label.jar"));

    assertThat(PluginLoader.load(getClass().getClassLoader()).instances()).extracting(Plugin::name)
        .containsExactly("built-in");
    assertThat(PluginDirectory.load(plugins, getClass().getClassLoader()).instances()).extracting(Plugin::name)
        .containsExactly("example-label");
  }

  @Test
  void aMissingDirectoryHoldsNoPlugins(@TempDir Path plugins) {
    PluginSet loaded = PluginDirectory.load(plugins.resolve("absent"), getClass().getClassLoader());

    assertThat(loaded.plugins()).isEmpty();
    assertThat(loaded.problems()).isEmpty();
  }

  private static Path copy(Path jar, Path target) throws IOException {
    Files.createDirectories(target.getParent());
    return Files.copy(jar, target);
  }
}
