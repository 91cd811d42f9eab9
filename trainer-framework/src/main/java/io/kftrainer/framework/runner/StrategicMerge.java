package io.kftrainer.framework.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The subset of Kubernetes' strategic merge patch that runtime patches need, on JSON trees: objects merge
 * recursively; a list whose field has a merge key ({@code containers} by {@code name}, {@code volumeMounts} by
 * {@code mountPath}, ...) merges item by item, keeping the target's order and appending new items; any other list
 * or scalar is replaced. Patch directives ({@code $patch}) are not supported.
 */
final class StrategicMerge {

  /** Merge keys of the lists that appear in a JobSet spec and in runtime patches, as Kubernetes declares them. */
  static final Map<String, String> MERGE_KEYS = Map.of(
      "replicatedJobs", "name",
      "containers", "name",
      "initContainers", "name",
      "env", "name",
      "volumes", "name",
      "volumeMounts", "mountPath",
      "imagePullSecrets", "name",
      "schedulingGates", "name",
      "ports", "containerPort");

  private StrategicMerge() {
  }

  /** Merges {@code patch} into {@code target} in place. */
  static void merge(ObjectNode target, JsonNode patch) {
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      JsonNode existing = target.get(name);
      if (value.isObject() && existing != null && existing.isObject()) {
        merge((ObjectNode) existing, value);
      } else if (value.isArray() && existing != null && existing.isArray() && MERGE_KEYS.containsKey(name)) {
        mergeList((ArrayNode) existing, (ArrayNode) value, MERGE_KEYS.get(name));
      } else {
        target.set(name, value.deepCopy());
      }
    }
  }

  private static void mergeList(ArrayNode target, ArrayNode patch, String key) {
    for (JsonNode patchItem : patch) {
      JsonNode keyValue = patchItem.get(key);
      ObjectNode match = null;
      for (JsonNode item : target) {
        if (keyValue != null && item.isObject() && keyValue.equals(item.get(key))) {
          match = (ObjectNode) item;
          break;
        }
      }
      if (match != null && patchItem.isObject()) {
        merge(match, patchItem);
      } else {
        target.add(patchItem.deepCopy());
      }
    }
  }
}
