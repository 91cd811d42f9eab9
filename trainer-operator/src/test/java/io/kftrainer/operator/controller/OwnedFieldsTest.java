package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class OwnedFieldsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What an API server records for an apply of {@link #DESIRED} (keyed lists, as k8s.io/api declares them). */
  private static final String OWNED = """
      {"f:metadata": {"f:labels": {"f:team": {}}},
       "f:spec": {"f:containers": {"k:{\\"name\\":\\"node\\"}": {".": {}, "f:name": {}, "f:image": {},
         "f:env": {"k:{\\"name\\":\\"A\\"}": {".": {}, "f:name": {}, "f:value": {}}}}},
         "f:finalizers": {"v:\\"x\\"": {}}, "f:ports": {"i:0": {}}}}""";
  private static final String DESIRED = """
      {"metadata": {"name": "j", "labels": {"team": "a"}},
       "spec": {"containers": [{"name": "node", "image": "i", "env": [{"name": "A", "value": "1"}]}],
         "finalizers": ["x"], "ports": [80]}}""";
  private static final String OBSERVED = """
      {"metadata": {"name": "j", "labels": {"team": "a"}, "managedFields": [
         {"manager": "kubectl", "operation": "Update", "fieldsV1": {"f:metadata": {}}},
         {"manager": "trainer", "operation": "Apply", "subresource": "status", "fieldsV1": {"f:status": {}}},
         {"manager": "trainer", "operation": "Apply", "fieldsV1": %s}]},
       "spec": {"containers": [{"name": "node", "image": "i", "imagePullPolicy": "Always",
         "env": [{"name": "A", "value": "1"}]}], "finalizers": ["x"], "ports": [80]}}""".formatted(OWNED);

  @Test
  void theApplyEntryOfTheManagerForTheMainResourceIsFound() {
    assertThat(OwnedFields.ofApply(tree(OBSERVED), "trainer")).contains(tree(OWNED));
    assertThat(OwnedFields.ofApply(tree(OBSERVED), "kubectl")).isEmpty();
    assertThat(OwnedFields.ofApply(tree("{\"metadata\": {}}"), "trainer")).isEmpty();
  }

  @Test
  void anUnchangedDesiredObjectSetsEveryOwnedField() {
    assertThat(OwnedFields.allSetIn(tree(OWNED), tree(DESIRED))).isTrue();
    assertThat(ChildApplier.isApplied(tree(OBSERVED), tree(DESIRED))).isTrue();
  }

  @Test
  void aDroppedLabelKeyedItemOrSetValueIsAFieldNoLongerSet() {
    assertThat(OwnedFields.allSetIn(tree(OWNED), tree(DESIRED.replace("\"labels\": {\"team\": \"a\"}", "\"labels\": {}"))))
        .isFalse();
    assertThat(OwnedFields.allSetIn(tree(OWNED), tree(DESIRED.replace("{\"name\": \"A\", \"value\": \"1\"}",
        "{\"name\": \"A\"}")))).isFalse();
    assertThat(OwnedFields.allSetIn(tree(OWNED), tree(DESIRED.replace("\"name\": \"node\"", "\"name\": \"other\""))))
        .isFalse();
    assertThat(OwnedFields.allSetIn(tree(OWNED), tree(DESIRED.replace("[\"x\"]", "[\"y\"]")))).isFalse();
    assertThat(OwnedFields.allSetIn(tree(OWNED), tree(DESIRED.replace("[80]", "[]")))).isFalse();
  }

  @Test
  void withoutAnApplyEntryOfItsOwnTheOperatorApplies() {
    String foreign = OBSERVED.replace("{\"manager\": \"trainer\", \"operation\": \"Apply\", \"fieldsV1\"",
        "{\"manager\": \"trainjob-controller\", \"operation\": \"Apply\", \"fieldsV1\"");

    assertThat(ChildApplier.isApplied(tree(foreign), tree(DESIRED))).isFalse();
  }

  @Test
  void aValueNotYetObservedStillNeedsTheApply() {
    assertThat(ChildApplier.isApplied(tree(OBSERVED), tree(DESIRED.replace("\"image\": \"i\"", "\"image\": \"j\""))))
        .isFalse();
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
