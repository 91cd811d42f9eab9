package io.kftrainer.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kftrainer.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuntimeCatalogTest {

  private static final Path SHIPPED_SOURCES = Path.of("../manifests/runtimes");

  @Test
  void theShippedRuntimesAreTheFilesOfTheRuntimesKustomization() throws IOException {
    List<String> files = kustomizationResources();

    assertThat(RuntimeCatalog.shipped()).extracting(RuntimeSource::name)
        .containsExactlyElementsOf(files.stream().map(file -> file.replaceFirst("\\.yaml$", "")).toList())
        .contains("torch-distributed", "deepspeed-distributed", "mlx-distributed", "jax-distributed",
            "xgboost-distributed");
    assertThat(RuntimeCatalog.shipped()).extracting(RuntimeSource::kind)
        .containsOnly(RuntimeSource.CLUSTER_TRAINING_RUNTIME);
  }

  @Test
  void theShippedRuntimesHaveTheirCrdDefaults() {
    RuntimeSource deepspeed = new RuntimeCatalog(RuntimeCatalog.shipped())
        .get(new RuntimeKey(RuntimeSource.CLUSTER_TRAINING_RUNTIME, null, "deepspeed-distributed")).orElseThrow();

    assertThat(deepspeed.spec().getTemplate().getSpec().getReplicatedJobs())
        .allSatisfy(job -> assertThat(job.getReplicas()).isEqualTo(1));
  }

  static Stream<Arguments> references() {
    RuntimeSource shippedTorch = RuntimeCatalog.shipped().stream()
        .filter(runtime -> runtime.name().equals("torch-distributed")).findFirst().orElseThrow();
    RuntimeSource ownTorch = runtime("ClusterTrainingRuntime", null, "torch-distributed");
    RuntimeSource teamA = runtime("TrainingRuntime", "team-a", "team-runtime");
    RuntimeCatalog shippedOnly = RuntimeCatalog.withShipped(List.of());
    RuntimeCatalog withInputs = RuntimeCatalog.withShipped(List.of(ownTorch, teamA));
    return Stream.of(
        Arguments.of("a ClusterTrainingRuntime is found from any namespace", shippedOnly,
            trainJob("team-z", "torch-distributed", null), Optional.of(shippedTorch)),
        Arguments.of("an input runtime shadows the shipped one of the same name", withInputs,
            trainJob("default", "torch-distributed", null), Optional.of(ownTorch)),
        Arguments.of("a TrainingRuntime is found in the TrainJob's namespace", withInputs,
            trainJob("team-a", "team-runtime", "TrainingRuntime"), Optional.of(teamA)),
        Arguments.of("a TrainingRuntime of another namespace is not found", withInputs,
            trainJob("team-b", "team-runtime", "TrainingRuntime"), Optional.empty()),
        Arguments.of("a TrainingRuntime is not found as a ClusterTrainingRuntime", withInputs,
            trainJob("team-a", "team-runtime", null), Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("references")
  void resolve(String name, RuntimeCatalog catalog, TrainJob trainJob, Optional<RuntimeSource> expected) {
    assertThat(catalog.resolve(trainJob)).isEqualTo(expected);
  }

  @Test
  void aRuntimeOfAnotherApiGroupOrKindIsUnsupported() {
    TrainJob trainJob = trainJob("default", "torch-distributed", "MyRuntime");
    trainJob.getSpec().getRuntimeRef().setApiGroup("example.com");

    assertThatThrownBy(() -> RuntimeCatalog.withShipped(List.of()).resolve(trainJob))
        .isInstanceOfSatisfying(UnsupportedRuntimeException.class, e -> {
          assertThat(e).hasMessage("unsupported runtime: MyRuntime.example.com");
          assertThat(e.fieldError()).isEqualTo(FieldError.notSupported(FieldPath.of("spec", "runtimeRef"), null,
              "unsupported runtime: MyRuntime.example.com"));
        });
  }

  @Test
  void twoInputRuntimesOfTheSameKindAndNameAreRejected() {
    RuntimeSource runtime = runtime("TrainingRuntime", "team-a", "twice");

    assertThatThrownBy(() -> RuntimeCatalog.withShipped(List.of(runtime, runtime)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TrainingRuntime team-a/twice is defined twice");
  }

  @Test
  void aMissingRuntimeIsReportedAsUpstreamsWebhookWordsIt() {
    assertThat(new RuntimeKey("TrainingRuntime", "team-a", "gone").notFound().detail())
        .isEqualTo("specified trainingRuntime must be created before the TrainJob is created");
    assertThat(new RuntimeKey("ClusterTrainingRuntime", "ignored", "gone"))
        .isEqualTo(new RuntimeKey("ClusterTrainingRuntime", null, "gone"));
  }

  private static List<String> kustomizationResources() throws IOException {
    String text = Files.readString(SHIPPED_SOURCES.resolve("kustomization.yaml"));
    List<String> files = new ArrayList<>();
    new YAMLMapper().readTree(text).path("resources").forEach(file -> files.add(file.asText()));
    return files;
  }

  private static RuntimeSource runtime(String kind, String namespace, String name) {
    return Fixtures.runtime("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: %s
        metadata: {name: %s, namespace: %s}
        spec:
          mlPolicy: {numNodes: 1}
        """.formatted(kind, name, namespace == null ? "null" : namespace));
  }

  private static TrainJob trainJob(String namespace, String runtime, String kind) {
    TrainJob trainJob = Fixtures.trainJob("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: job, namespace: %s}
        spec:
          runtimeRef: {name: %s}
        """.formatted(namespace, runtime));
    trainJob.getSpec().getRuntimeRef().setKind(kind);
    return trainJob;
  }
}
