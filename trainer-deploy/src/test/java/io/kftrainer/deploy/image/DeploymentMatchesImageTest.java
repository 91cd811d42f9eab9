package io.kftrainer.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Rendered;
import io.kftrainer.deploy.Renders;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the Deployments (manifests/base, the namespaced overlay, the chart with its default and custom values) ask
 * of the image matches the image the build tags: the same name and tag (the project version's release), and no
 * environment variable that would replace one of the image's (JAVA_TOOL_OPTIONS replaced the image's class-data
 * archive option once). The image's environment comes from the Dockerfile and, once built, from the image itself.
 */
class DeploymentMatchesImageTest {

  private static final String MANAGER = "kubeflow-trainer-controller-manager";

  static Stream<String> deployments() {
    return Stream.of("kustomize base", "kustomize overlays/namespaced", "chart default", "chart custom");
  }

  @Test
  void theImageTagIsTheReleaseOfTheProjectVersion() {
    String tag = Deploy.image().substring(Deploy.image().lastIndexOf(':') + 1);
    Deploy.projectVersion().ifPresent(version -> assertThat(tag).isEqualTo(version.replace("-SNAPSHOT", "")));
  }

  @Test
  void kustomizeAndTheChartPullTheImageTheBuildTags() throws IOException {
    assertThat(container(render("kustomize base")).getImage()).isEqualTo(Deploy.image());
    assertThat(container(render("chart default")).getImage()).isEqualTo(Deploy.image());
    if (Files.isRegularFile(Deploy.imageTar())) {
      assertThat(ImageArchive.read(Deploy.imageTar()).repoTags()).containsExactly(Deploy.image());
    }
  }

  @Test
  void theVersionTheSdkReadsIsTheImageTag() throws IOException {
    String version = "v" + Deploy.image().substring(Deploy.image().lastIndexOf(':') + 1);
    for (String deployment : List.of("kustomize base", "chart default")) {
      assertThat(render(deployment).get(ConfigMap.class, "kubeflow-trainer-public").getData())
          .as(deployment).containsEntry("kubeflow_trainer_version", version);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deployments")
  void theDeploymentKeepsTheImagesEnvironment(String deployment) throws IOException {
    Set<String> imageEnv = imageEnvironment();
    assertThat(imageEnv).contains("JAVA_TOOL_OPTIONS");
    Container manager = container(render(deployment));
    List<String> replaced = (manager.getEnv() == null ? List.<EnvVar>of() : manager.getEnv()).stream()
        .map(EnvVar::getName).filter(imageEnv::contains).toList();
    assertThat(replaced).as("env of the Deployment that replaces the image's (JVM options go in JDK_JAVA_OPTIONS)")
        .isEmpty();
  }

  private static Set<String> imageEnvironment() throws IOException {
    Set<String> names = new LinkedHashSet<>(Dockerfile.read(Deploy.projectDir().resolve("Dockerfile")).env()
        .keySet());
    if (Files.isRegularFile(Deploy.imageTar())) {
      names.addAll(ImageArchive.read(Deploy.imageTar()).config().envMap().keySet());
    }
    return names;
  }

  private static Rendered render(String deployment) throws IOException {
    return switch (deployment) {
      case "kustomize base" -> Renders.kustomize("base");
      case "kustomize overlays/namespaced" -> Renders.kustomize("overlays/namespaced");
      case "chart default" -> Rendered.parse(Renders.templateCase("default"));
      case "chart custom" -> Rendered.parse(Renders.templateCase("custom"));
      default -> throw new IllegalArgumentException(deployment);
    };
  }

  private static Container container(Rendered rendered) {
    Deployment deployment = rendered.ofKind(Deployment.class).stream().filter(d -> d.getMetadata().getName()
        .endsWith("controller-manager")).findFirst().orElseThrow(() -> new AssertionError("no " + MANAGER
        + " in " + rendered));
    return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
  }
}
