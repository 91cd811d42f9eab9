package io.kftrainer.operator.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kftrainer.framework.runner.PluginSetupException;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.cli.TestingCli;
import io.kftrainer.cli.TestingCli.Run;
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
 * Third-party plugins from {@code --plugins-dir}, with a real plugin jar compiled and packed by the test
 * ({@link TestingPluginJar}): {@code plugins} lists it with its jar, {@code render} applies it, a broken jar next
 * to it stops {@code run} and {@code render} (fail closed; {@code local}: {@code LocalPluginFailureTest}) unless
 * {@code --allow-plugin-load-failures}, and two plugins of the same name stop the operator.
 */
class PluginDirectoryTest {

  private static final String TEAM_LABEL_CLASS = "com.example.teamlabel.TeamLabelPlugin";

  /**
   * Copies the TrainJob's {@code example.com/team} label to every pod (as a scheduler label), and fails for the
   * team {@code explode}. The name is a parameter, to build a second plugin of the same name.
   */
  private static String teamLabelSource(String pluginName) {
    return """
        package com.example.teamlabel;

        import io.kftrainer.framework.spi.BuildContext;
        import io.kftrainer.framework.spi.EnforcePodGroupPolicy;
        import java.util.Map;

        public final class TeamLabelPlugin implements EnforcePodGroupPolicy {

          static final String LABEL = "example.com/team";

          @Override
          public String name() {
            return "%s";
          }

          @Override
          public void enforcePodGroupPolicy(BuildContext context) {
            Map<String, String> labels = context.trainJob().getMetadata().getLabels();
            String team = labels == null ? null : labels.get(LABEL);
            if ("explode".equals(team)) {
              throw new IllegalStateException("no team may be called " + team);
            }
            if (team != null) {
              context.info().schedulerPodLabels().put(LABEL, team);
            }
          }
        }
        """.formatted(pluginName);
  }

  private static final String TRAINJOB = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: labelled
        labels:
          example.com/team: %s
      spec:
        runtimeRef:
          name: torch-distributed
      """;

  @TempDir
  static Path tmp;

  private static Path pluginsDir;
  private static Path teamLabelJar;
  private static Path brokenJar;

  @BeforeAll
  static void buildPluginDirectory() throws IOException {
    pluginsDir = tmp.resolve("plugins");
    teamLabelJar = TestingPluginJar.build(pluginsDir.resolve("team-label/team-label-plugin.jar"), TEAM_LABEL_CLASS,
        Map.of(TEAM_LABEL_CLASS, teamLabelSource("TeamLabel")));
    brokenJar = Files.writeString(pluginsDir.resolve("broken-plugin.jar"), "not a zip file");
  }

  @Test
  void runStopsOnABrokenJarNamingItAndTheCause() throws IOException {
    Path kubeconfig = Files.writeString(tmp.resolve("unreachable.kubeconfig"), UNREACHABLE_KUBECONFIG);

    Run run = TestingCli.run("run", "--plugins-dir", pluginsDir.toString(), "--kubeconfig", kubeconfig.toString(),
        "--leader-elect=false", "--health-port=0", "--metrics-port=0", "--webhook-port=0");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo(brokenJarError());
  }

  @Test
  void allowingLoadFailuresBuildsTheOperatorWithTheOtherPlugins() {
    OperatorConfig config = OperatorConfig.defaults().withPluginsDir(pluginsDir);
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build()) {

      assertThatThrownBy(() -> TrainerOperator.builder(config, client).build())
          .isInstanceOf(PluginSetupException.class).hasMessageContaining(brokenJar.toString());
      TrainerOperator operator = TrainerOperator.builder(config.withAllowPluginLoadFailures(true), client).build();

      assertThat(operator.runner().plugins()).extracting(Plugin::name).contains("TeamLabel", "JobSet");
    }
  }

  private static String brokenJarError() {
    return "Error: cannot load plugin " + brokenJar + ": not a readable jar: zip END header not found "
        + "(--allow-plugin-load-failures starts without it)\n";
  }

  private static final String UNREACHABLE_KUBECONFIG = """
      apiVersion: v1
      kind: Config
      clusters: [{name: none, cluster: {server: "https://127.0.0.1:1"}}]
      users: [{name: none, user: {token: none}}]
      contexts: [{name: none, context: {cluster: none, user: none}}]
      current-context: none
      """;

  @Test
  void renderStopsOnABrokenJarNamingItAndTheCause() {
    Run run = TestingCli.runWithStdin(TRAINJOB.formatted("vision"),
        "render", "--plugins-dir", pluginsDir.toString(), "-f", "-");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo(brokenJarError());
  }

  @Test
  void renderAllowingLoadFailuresAppliesTheThirdPartyPluginDespiteTheBrokenJar() {
    Run run = TestingCli.runWithStdin(TRAINJOB.formatted("vision"),
        "render", "--plugins-dir", pluginsDir.toString(), "-f", "-", "--allow-plugin-load-failures");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEqualTo("Warning: rendering without plugin " + brokenJar + ": not a readable jar: zip "
        + "END header not found\n");
    List<JsonNode> objects = Yaml.trees(run.out());
    assertThat(objects).hasSize(1);
    JsonNode podLabels = objects.get(0).at("/spec/replicatedJobs/0/template/spec/template/metadata/labels");
    assertThat(podLabels.path("example.com/team").asText()).isEqualTo("vision");
  }

  @Test
  void aFailingPluginFailsTheRenderNamingThePlugin() {
    Run run = TestingCli.runWithStdin(TRAINJOB.formatted("explode"),
        "render", "--plugins-dir", pluginsDir.toString(), "-f", "-", "--allow-plugin-load-failures");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).endsWith("TrainJob default/labelled: plugin TeamLabel failed in EnforcePodGroupPolicy: "
        + "no team may be called explode\n");
  }

  @Test
  void twoPluginsOfTheSameNameAreAnError() throws IOException {
    Path duplicates = tmp.resolve("duplicates");
    TestingPluginJar.build(duplicates.resolve("a/team-label.jar"), TEAM_LABEL_CLASS,
        Map.of(TEAM_LABEL_CLASS, teamLabelSource("TeamLabel")));
    TestingPluginJar.build(duplicates.resolve("b/team-label-copy.jar"), TEAM_LABEL_CLASS,
        Map.of(TEAM_LABEL_CLASS, teamLabelSource("TeamLabel")));
    String expected = "Error: duplicate plugin name \"TeamLabel\": [" + TEAM_LABEL_CLASS + ", " + TEAM_LABEL_CLASS
        + "]\n";

    Run render = TestingCli.runWithStdin(TRAINJOB.formatted("vision"),
        "render", "--plugins-dir", duplicates.toString(), "-f", "-");
    Run plugins = TestingCli.run("plugins", "--plugins-dir", duplicates.toString());

    assertThat(render.exitCode()).isEqualTo(1);
    assertThat(render.out()).isEmpty();
    assertThat(render.err()).isEqualTo(expected);
    assertThat(plugins.exitCode()).isEqualTo(1);
    assertThat(plugins.out().lines().filter(line -> line.startsWith("TeamLabel "))).hasSize(2);
    assertThat(plugins.err()).isEqualTo(expected);
  }
}
