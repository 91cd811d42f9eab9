package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' strategic merge patch (k8s.io/apimachinery's {@code strategicpatch}), as {@code kubectl patch} and
 * client-side {@code kubectl apply} send it, with each type's {@code x-kubernetes-patch-strategy} and
 * {@code x-kubernetes-patch-merge-key} ({@link MergeType}): a list with strategy {@code merge} and a merge key is
 * merged item by item on that key (containers and env by name, volumeMounts by mountPath, container ports by
 * containerPort, a Service's by port), one with strategy {@code merge} and no key as a set of values (finalizers);
 * every other list (tolerations, args, command...) is replaced. Objects merge field by field, {@code null} removes.
 *
 * <p>Directives: {@code $patch: replace} (an object, or a list through a {@code {"$patch": "replace"}} item),
 * {@code $patch: delete} (an object, or the list item with that merge key), {@code $retainKeys} (fields not listed
 * are cleared), {@code $setElementOrder/<list>} (the order of the patched list's items),
 * {@code $deleteFromPrimitiveList/<list>} (values removed from a set).
 */
final class StrategicMergePatch {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String PATCH = "$patch";
  private static final String RETAIN_KEYS = "$retainKeys";
  private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
  private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

  private StrategicMergePatch() {
  }

  /**
   * {@code patch} applied to {@code target} of type {@code type}; neither is modified.
   *
   * @throws IllegalArgumentException for an item of a merged list without its merge key, or an unknown directive
   */
  static JsonNode apply(JsonNode target, JsonNode patch, MergeType type) {
    if (patch == null || !patch.isObject()) {
      return patch == null ? null : stripDirectives(patch);
    }
    String directive = patch.path(PATCH).asText("");
    if (directive.equals("replace")) {
      return stripDirectives(patch);
    }
    if (directive.equals("delete")) {
      return NODES.objectNode();
    }
    if (!directive.isEmpty() && !directive.equals("merge")) {
      throw new IllegalArgumentException("Unknown patch type: " + directive + " in map: " + patch);
    }
    ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : NODES.objectNode();
    if (patch.path(RETAIN_KEYS).isArray()) {
      Set<String> retained = new HashSet<>();
      patch.get(RETAIN_KEYS).forEach(key -> retained.add(key.asText()));
      result.retain(retained);
    }
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      String key = e.getKey();
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        String field = key.substring(DELETE_FROM_PRIMITIVE_LIST.length());
        if (result.get(field) instanceof ArrayNode list) {
          result.set(field, without(list, e.getValue()));
        }
        continue;
      }
      if (key.startsWith("$")) {
        continue;
      }
      JsonNode value = e.getValue();
      MergeType fieldType = type.field(key);
      if (value.isNull() || (value.isObject() && value.path(PATCH).asText("").equals("delete"))) {
        result.remove(key);
      } else if (value.isArray()) {
        ArrayNode merged = mergeList(result.get(key), (ArrayNode) value, fieldType);
        JsonNode order = patch.get(SET_ELEMENT_ORDER + key);
        result.set(key, order instanceof ArrayNode orderList ? ordered(merged, orderList, fieldType) : merged);
      } else if (value.isObject() && !fieldType.patchStrategies().contains("replace")) {
        result.set(key, apply(result.get(key), value, fieldType));
      } else {
        result.set(key, stripDirectives(value));
      }
    }
    return result;
  }

  private static ArrayNode mergeList(JsonNode current, ArrayNode patch, MergeType type) {
    boolean merge = type.patchStrategies().contains("merge");
    List<JsonNode> items = new ArrayList<>();
    boolean replace = false;
    for (JsonNode item : patch) {
      if (item.isObject() && item.path(PATCH).asText("").equals("replace") && item.size() == 1) {
        replace = true;
      } else {
        items.add(item);
      }
    }
    if (!merge || replace || !(current instanceof ArrayNode currentList)) {
      ArrayNode replaced = NODES.arrayNode();
      items.stream().filter(item -> !isDelete(item)).forEach(item -> replaced.add(stripDirectives(item)));
      return replaced;
    }
    String mergeKey = type.patchMergeKey();
    List<JsonNode> merged = new ArrayList<>();
    currentList.forEach(merged::add);
    for (JsonNode item : items) {
      if (mergeKey == null || !item.isObject()) {
        if (!merged.contains(item)) {
          merged.add(item.deepCopy()); // a set of values
        }
        continue;
      }
      JsonNode id = item.get(mergeKey);
      if (id == null) {
        throw new IllegalArgumentException("map: " + item + " does not contain declared merge key: " + mergeKey);
      }
      int index = indexOf(merged, mergeKey, id);
      if (isDelete(item)) {
        if (index >= 0) {
          merged.remove(index);
        }
      } else if (index >= 0) {
        merged.set(index, apply(merged.get(index), item, type.items()));
      } else {
        merged.add(apply(null, item, type.items()));
      }
    }
    ArrayNode result = NODES.arrayNode();
    merged.forEach(result::add);
    return result;
  }

  /**
   * {@code list} with the items {@code order} names in that order: they take, in turn, the places such items hold;
   * the others (the server's own) stay where they are.
   */
  private static ArrayNode ordered(ArrayNode list, ArrayNode order, MergeType type) {
    String mergeKey = type.patchMergeKey();
    List<JsonNode> named = new ArrayList<>();
    for (JsonNode wanted : order) {
      for (JsonNode item : list) {
        if (mergeKey == null ? item.equals(wanted) : item.path(mergeKey).equals(wanted.path(mergeKey))) {
          named.add(item);
          break;
        }
      }
    }
    ArrayNode result = NODES.arrayNode();
    int next = 0;
    for (JsonNode item : list) {
      result.add(named.contains(item) ? named.get(next++) : item);
    }
    return result;
  }

  private static int indexOf(List<JsonNode> items, String mergeKey, JsonNode id) {
    for (int i = 0; i < items.size(); i++) {
      if (id.equals(items.get(i).get(mergeKey))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isDelete(JsonNode item) {
    return item.isObject() && item.path(PATCH).asText("").equals("delete");
  }

  private static ArrayNode without(ArrayNode list, JsonNode values) {
    ArrayNode kept = NODES.arrayNode();
    list.forEach(item -> {
      boolean listed = false;
      for (JsonNode value : values) {
        listed |= value.equals(item);
      }
      if (!listed) {
        kept.add(item);
      }
    });
    return kept;
  }

  /** A deep copy of {@code node} without {@code $...} directive keys. */
  private static JsonNode stripDirectives(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = NODES.objectNode();
      node.properties().forEach(e -> {
        if (!e.getKey().startsWith("$")) {
          copy.set(e.getKey(), stripDirectives(e.getValue()));
        }
      });
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = NODES.arrayNode();
      node.forEach(item -> copy.add(stripDirectives(item)));
      return copy;
    }
    return node.deepCopy();
  }
}
