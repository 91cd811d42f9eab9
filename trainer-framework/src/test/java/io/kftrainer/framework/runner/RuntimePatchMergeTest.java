package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runtime patches merged into a runtime's JobSet spec: list order as k8s.io/apimachinery's {@code strategicpatch}
 * leaves it, replicated jobs in the runtime's order. The first case is upstream's integration test "Should succeed
 * to create TrainJob with RuntimePatches".
 */
class RuntimePatchMergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void upstreamsRuntimePatchExamplePutsTheNewEnvAfterThePatchedOneAndBeforeTheRest() {
    ObjectNode target = tree("{'env': [{'name': 'INIT_ENV', 'value': 'original'},"
        + " {'name': 'DATASET_PATH', 'value': 'runtime'}]}");

    ObjectNode merged = RuntimePatchMerge.merge(target, tree("{'env': [{'name': 'INIT_ENV', 'value': 'override'},"
        + " {'name': 'NEW_VALUE', 'value': 'x'}]}"));

    assertThat(merged.toString()).isEqualTo(tree("{'env': [{'name': 'INIT_ENV', 'value': 'override'},"
        + " {'name': 'NEW_VALUE', 'value': 'x'}, {'name': 'DATASET_PATH', 'value': 'runtime'}]}").toString());
  }

  /** target keys, patch keys, merged keys (computed by hand with apimachinery's rules). */
  @ParameterizedTest(name = "[{0}] + [{1}] = [{2}]")
  @CsvSource(delimiter = '|', value = {
      "A B     | C       | C A B",
      "A B     | B       | A B",
      "A B C   | C A     | B C A",
      "A B C   | B D     | A B D C",
      "A B C D | D B     | A C D B",
      "        | A B     | A B",
      "A B     |         | A B"})
  void volumesVolumeMountsAndContainersInterleaveAsKubernetesDoes(String target, String patch, String merged) {
    for (String[] list : List.of(new String[] {"volumes", "name"}, new String[] {"volumeMounts", "mountPath"},
        new String[] {"containers", "name"})) {
      ObjectNode tree = list(list[0], list[1], target);

      ObjectNode result = RuntimePatchMerge.merge(tree, list(list[0], list[1], patch));

      assertThat(keys(result.get(list[0]), list[1])).as(list[0]).isEqualTo(split(merged));
    }
  }

  @Test
  void replicatedJobsKeepTheRuntimesOrderAsUpstreamPatchesThemInPlace() {
    ObjectNode target = list("replicatedJobs", "name", "initializer node");

    ObjectNode merged = RuntimePatchMerge.merge(target, list("replicatedJobs", "name", "node initializer"));

    assertThat(keys(merged.get("replicatedJobs"), "name")).containsExactly("initializer", "node");
  }

  @Test
  void newReplicatedJobsFollowTheRuntimesInThePatchsOrder() {
    ObjectNode target = list("replicatedJobs", "name", "initializer node");

    ObjectNode merged = RuntimePatchMerge.merge(target, list("replicatedJobs", "name", "extra-b node extra-a"));

    assertThat(keys(merged.get("replicatedJobs"), "name"))
        .containsExactly("initializer", "node", "extra-b", "extra-a");
  }

  @Test
  void anItemOfAMergedListWithoutItsMergeKeyIsRefusedAsUpstreamRefusesIt() {
    ObjectNode target = tree("{'containers': [{'name': 'node', 'env': [{'name': 'X', 'value': '1'}]}]}");

    assertThatThrownBy(() -> RuntimePatchMerge.merge(target,
        tree("{'containers': [{'name': 'node', 'env': [{'value': '2'}]}]}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not contain declared merge key: name");
    assertThat(target.toString()).as("the target is left alone")
        .isEqualTo(tree("{'containers': [{'name': 'node', 'env': [{'name': 'X', 'value': '1'}]}]}").toString());
  }

  @Test
  void aPatchedItemIsMergedFieldByField() {
    ObjectNode target = tree("{'containers': [{'name': 'node', 'image': 'a', 'env': [{'name': 'X', 'value': '1'}]}]}");

    ObjectNode merged = RuntimePatchMerge.merge(target,
        tree("{'containers': [{'name': 'node', 'env': [{'name': 'Y', 'value': '2'}]}]}"));

    assertThat(merged.toString()).isEqualTo(tree("{'containers': [{'name': 'node', 'image': 'a',"
        + " 'env': [{'name': 'Y', 'value': '2'}, {'name': 'X', 'value': '1'}]}]}").toString());
  }

  private static ObjectNode list(String field, String key, String names) {
    ObjectNode tree = JSON.createObjectNode();
    var items = tree.putArray(field);
    split(names).forEach(name -> items.addObject().put(key, name));
    return tree;
  }

  private static List<String> split(String names) {
    return names == null || names.isBlank() ? List.of() : List.of(names.trim().split("\\s+"));
  }

  private static List<String> keys(JsonNode list, String key) {
    List<String> keys = new ArrayList<>();
    list.forEach(item -> keys.add(item.get(key).asText()));
    return keys;
  }

  private static ObjectNode tree(String json) {
    try {
      return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(json, e);
    }
  }
}
