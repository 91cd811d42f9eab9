package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/** Snapshot YAML written and read as the serialization does, each content converted once. */
class RuntimeYamlTest {

  private final KubernetesSerialization serialization = Fixtures.serialization();
  private final RuntimeYaml yaml = new RuntimeYaml(serialization);

  private ClusterTrainingRuntime runtime(int numNodes) {
    RuntimeSource shipped = Fixtures.shippedRuntime("torch-distributed");
    ClusterTrainingRuntime runtime = new ClusterTrainingRuntime();
    runtime.setMetadata(shipped.metadata());
    runtime.setSpec(serialization.clone(shipped.spec()));
    runtime.getSpec().getMlPolicy().setNumNodes(numNodes);
    return runtime;
  }

  @Test
  void theYamlOfARuntimeIsTheSerializationsAndWrittenOncePerContent() {
    String first = yaml.write(runtime(2));
    String again = yaml.write(runtime(2));
    String other = yaml.write(runtime(3));

    assertThat(first).isEqualTo(serialization.asYaml(runtime(2))).isSameAs(again);
    assertThat(other).isEqualTo(serialization.asYaml(runtime(3))).isNotEqualTo(first);
  }

  @Test
  void aSnapshotReadsAsItsYamlAndIsConvertedOncePerContent() {
    String snapshot = serialization.asYaml(runtime(2));

    String json = yaml.jsonOf(snapshot);

    assertThat(serialization.unmarshal(json, JsonNode.class))
        .isEqualTo(serialization.unmarshal(snapshot, JsonNode.class));
    assertThat(yaml.jsonOf(new String(snapshot))).isSameAs(json);
    assertThat(serialization.unmarshal(json, ClusterTrainingRuntime.class))
        .isNotSameAs(serialization.unmarshal(json, ClusterTrainingRuntime.class));
  }

  @Test
  void textThatIsNotYamlFailsEveryTime() {
    assertThatThrownBy(() -> yaml.jsonOf("kind: [unclosed")).isInstanceOf(RuntimeException.class);
    assertThatThrownBy(() -> yaml.jsonOf("kind: [unclosed")).isInstanceOf(RuntimeException.class);
  }
}
