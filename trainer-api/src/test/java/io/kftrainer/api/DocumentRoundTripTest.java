package io.kftrainer.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every test document survives YAML (or JSON) → model → YAML (or JSON) with no field lost, renamed or retyped:
 * the re-serialized tree must equal the input tree.
 *
 * <p>To add a case, drop an upstream-style document under {@code src/test/resources/documents} and list it in
 * {@link #documents()}. Write quantities as strings: fabric8 serializes every {@code Quantity} as one.
 */
class DocumentRoundTripTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  static Stream<Arguments> documents() {
    return Stream.of(
        arguments("torch-distributed-clustertrainingruntime.yaml", ClusterTrainingRuntime.class),
        arguments("mpi-deepspeed-trainingruntime.yaml", TrainingRuntime.class),
        arguments("policies-clustertrainingruntime.yaml", ClusterTrainingRuntime.class),
        arguments("trainjob-initializers-runtimepatches.yaml", TrainJob.class),
        arguments("trainjob-numprocpernode-auto.yaml", TrainJob.class),
        arguments("jobset-with-status.yaml", JobSet.class));
  }

  @ParameterizedTest(name = "{0} round-trips through YAML as {1}")
  @MethodSource("documents")
  void yamlRoundTripKeepsEveryField(String document, Class<? extends HasMetadata> type) {
    for (JsonNode input : Documents.read(document)) {
      HasMetadata parsed = SERIALIZATION.unmarshal(Documents.yaml(input), type);
      assertThat(parsed).isInstanceOf(type);

      JsonNode output = Documents.parseYaml(SERIALIZATION.asYaml(parsed));

      assertThat(JsonTreeDiff.diff(input, output)).as("differences after the YAML round trip of %s/%s",
          document, input.at("/metadata/name").asText()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0} round-trips through JSON as {1}")
  @MethodSource("documents")
  void jsonRoundTripKeepsEveryField(String document, Class<? extends HasMetadata> type) {
    for (JsonNode input : Documents.read(document)) {
      HasMetadata parsed = SERIALIZATION.unmarshal(input.toString(), type);

      JsonNode output = Documents.parseJson(SERIALIZATION.asJson(parsed));

      assertThat(JsonTreeDiff.diff(input, output)).as("differences after the JSON round trip of %s/%s",
          document, input.at("/metadata/name").asText()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0} parses to equal objects with equal hash codes, and deep copies equal them")
  @MethodSource("documents")
  void parsedObjectsCompareByValue(String document, Class<? extends HasMetadata> type) {
    for (JsonNode input : Documents.read(document)) {
      String yaml = Documents.yaml(input);
      HasMetadata first = SERIALIZATION.unmarshal(yaml, type);
      HasMetadata second = SERIALIZATION.unmarshal(yaml, type);

      assertThat(second).isEqualTo(first).hasSameHashCodeAs(first);
      assertThat(second.toString()).isEqualTo(first.toString());

      HasMetadata copy = Copies.deepCopy(first);
      assertThat(copy).isNotSameAs(first).isEqualTo(first).isExactlyInstanceOf(type);
    }
  }
}
