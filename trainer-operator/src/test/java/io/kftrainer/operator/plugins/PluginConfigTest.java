package io.kftrainer.operator.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kftrainer.operator.command.TestingCli;
import io.kftrainer.operator.command.TestingCli.Run;
import io.kftrainer.testkit.Yaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --plugin-config}: a configurable plugin from a real jar gets its section at start-up in {@code render} and
 * {@code plugins}, which shows the effective configuration; a bad setting stops both naming plugin and field.
 */
class PluginConfigTest {

  private static final String PLUGIN_CLASS = "com.example.podlabel.PodLabelPlugin";
  private static final String CONFIG_CLASS = "com.example.podlabel.PodLabelConfig";

  private static final String PLUGIN_SOURCE = """
      package com.example.podlabel;

      import io.kftrainer.framework.spi.BuildContext;
      import io.kftrainer.framework.spi.Configurable;
      import io.kftrainer.framework.spi.EnforcePodSpec;

      public final class PodLabelPlugin implements EnforcePodSpec, Configurable<PodLabelConfig> {
        private PodLabelConfig config;

        @Override public String name() { return "PodLabel"; }
        @Override public Class<PodLabelConfig> configType() { return PodLabelConfig.class; }
        @Override public void configure(PodLabelConfig config) { this.config = config; }

        @Override
        public void enforcePodSpec(BuildContext context) {
          context.info().schedulerPodLabels().put(config.key(), config.value());
        }
      }
      """;

  private static final String CONFIG_SOURCE = """
      package com.example.podlabel;

      public record PodLabelConfig(String key, String value) {
        public PodLabelConfig {
          key = key == null ? "example.com/configured" : key;
          value = value == null ? "default" : value;
        }
      }
      """;

  private static final String TRAINJOB = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: configured
      spec:
        runtimeRef:
          name: torch-distributed
      """;

  @TempDir
  static Path tmp;

  private static Path pluginsDir;

  @BeforeAll
  static void buildPluginDirectory() throws IOException {
    pluginsDir = tmp.resolve("plugins");
    TestingPluginJar.build(pluginsDir.resolve("pod-label.jar"), PLUGIN_CLASS,
        Map.of(PLUGIN_CLASS, PLUGIN_SOURCE, CONFIG_CLASS, CONFIG_SOURCE));
  }

  @Test
  void renderAppliesThePluginsSectionAndPluginsShowsTheEffectiveConfiguration() throws IOException {
    Path config = Files.writeString(tmp.resolve("plugins.yaml"), "PodLabel:\n  value: from-file\n");

    Run render = TestingCli.runWithStdin(TRAINJOB, "render", "--plugins-dir", pluginsDir.toString(),
        "--plugin-config", config.toString(), "-f", "-");
    Run plugins = TestingCli.run("plugins", "--plugins-dir", pluginsDir.toString(), "--plugin-config",
        config.toString());

    assertThat(render.err()).isEmpty();
    List<JsonNode> objects = Yaml.trees(render.out());
    JsonNode podLabels = objects.get(0).at("/spec/replicatedJobs/0/template/spec/template/metadata/labels");
    assertThat(podLabels.path("example.com/configured").asText()).isEqualTo("from-file");
    assertThat(plugins.exitCode()).isZero();
    assertThat(plugins.out()).endsWith("""

        Configuration:
          PodLabel:
            key: "example.com/configured"
            value: "from-file"
        """);
  }

  @Test
  void withoutAFileThePluginRunsWithTheDefaultsOfItsType() {
    Run plugins = TestingCli.run("plugins", "--plugins-dir", pluginsDir.toString());

    assertThat(plugins.out()).contains("  PodLabel:\n    key: \"example.com/configured\"\n    value: \"default\"\n");
  }

  @Test
  void aBadSettingStopsRenderAndPluginsNamingThePluginAndTheField() throws IOException {
    Path config = Files.writeString(tmp.resolve("bad.yaml"), "PodLabel:\n  valu: typo\nTorch:\n  x: 1\n");

    Run render = TestingCli.runWithStdin(TRAINJOB, "render", "--plugins-dir", pluginsDir.toString(),
        "--plugin-config", config.toString(), "-f", "-");
    Run plugins = TestingCli.run("plugins", "--plugins-dir", pluginsDir.toString(), "--plugin-config",
        config.toString());

    String expected = "Error: invalid plugin configuration (" + config + "):\n"
        + "  Torch: this plugin takes no configuration\n"
        + "  PodLabel.valu: unknown field (known: key, value)\n";
    assertThat(render.exitCode()).isEqualTo(1);
    assertThat(render.out()).isEmpty();
    assertThat(render.err()).isEqualTo(expected);
    assertThat(plugins.exitCode()).isEqualTo(1);
    assertThat(plugins.err()).isEqualTo(expected);
  }

  @Test
  void aMissingFileStopsStartUpNamingIt() {
    Run render = TestingCli.runWithStdin(TRAINJOB, "render", "--plugin-config", "target/no-such.yaml", "-f", "-");

    assertThat(render.exitCode()).isEqualTo(1);
    assertThat(render.err()).startsWith("Error: cannot read plugin configuration target/no-such.yaml");
  }
}
