package io.kftrainer.framework.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The subset of Kubernetes' strategic merge patch that runtime patches need, on JSON trees: objects merge
 * recursively; a list whose field has a merge key ({@code containers} by {@code name}, {@code volumeMounts} by
 * {@code mountPath}, ...) merges item by item; any other list or scalar is replaced. Patch directives
 * ({@code $patch}, {@code $setElementOrder}) are not supported.
 *
 * <p>A merged list is ordered as k8s.io/apimachinery's strategic merge orders it ({@code normalizeElementOrder}):
 * the patch's items (each merged into the target's item of the same key) keep the patch order, the target's other
 * items keep the target order, and the two are interleaved: a target-only item goes before a patch item only when
 * both were in the target and it came first there. So new items follow the patched ones they come after in the
 * patch: env {@code [A, B]} patched with {@code [A, C]} gives {@code [A, C, B]}. Order matters: {@code $(VAR)} in
 * an env value expands only variables defined before it. The exception is {@code replicatedJobs}, which upstream
 * patches job by job in place, so they keep the runtime's order.
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

  /** Lists merged job by job in place by upstream (not by strategic merge), so in the target's order. */
  private static final String IN_TARGET_ORDER = "replicatedJobs";

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
        mergeList((ArrayNode) existing, (ArrayNode) value, name);
      } else {
        target.set(name, value.deepCopy());
      }
    }
  }

  private static void mergeList(ArrayNode target, ArrayNode patch, String field) {
    String key = MERGE_KEYS.get(field);
    List<JsonNode> fromPatch = new ArrayList<>();
    Set<JsonNode> merged = Collections.newSetFromMap(new IdentityHashMap<>());
    for (JsonNode patchItem : patch) {
      ObjectNode match = patchItem.isObject() ? find(target, key, patchItem.get(key)) : null;
      if (match != null) {
        merge(match, patchItem);
        merged.add(match);
        fromPatch.add(match);
      } else {
        fromPatch.add(patchItem.deepCopy());
      }
    }
    if (IN_TARGET_ORDER.equals(field)) {
      fromPatch.stream().filter(item -> !merged.contains(item)).forEach(target::add);
      return;
    }
    List<JsonNode> original = new ArrayList<>();
    target.forEach(original::add);
    List<JsonNode> targetOnly = original.stream().filter(item -> !merged.contains(item)).toList();
    target.removeAll();
    int t = 0;
    int p = 0;
    while (t < targetOnly.size() || p < fromPatch.size()) {
      if (p >= fromPatch.size() || t < targetOnly.size() && before(original, targetOnly.get(t), fromPatch.get(p))) {
        target.add(targetOnly.get(t++));
      } else {
        target.add(fromPatch.get(p++));
      }
    }
  }

  /** Whether both items were in {@code original} (by identity) and {@code left} came first. */
  private static boolean before(List<JsonNode> original, JsonNode left, JsonNode right) {
    int leftIndex = indexOf(original, left);
    int rightIndex = indexOf(original, right);
    return leftIndex >= 0 && rightIndex >= 0 && leftIndex < rightIndex;
  }

  private static int indexOf(List<JsonNode> list, JsonNode item) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == item) {
        return i;
      }
    }
    return -1;
  }

  private static ObjectNode find(ArrayNode list, String key, JsonNode keyValue) {
    if (keyValue == null) {
      return null;
    }
    for (JsonNode item : list) {
      if (item.isObject() && keyValue.equals(item.get(key))) {
        return (ObjectNode) item;
      }
    }
    return null;
  }
}
