package io.kftrainer.framework.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' strategic merge patch (k8s.io/apimachinery's {@code strategicpatch}) on JSON trees, with the patch
 * strategy and merge key of each place from a {@link PatchMeta}: the runner merges runtime patches into a runtime's
 * JobSet spec with it, as upstream does, and the embedded API server answers {@code kubectl patch} and client-side
 * {@code kubectl apply} with it. Written here because no Java library applies strategic merge patches (fabric8
 * sends them, only the Go apimachinery applies them).
 *
 * <p>Objects merge field by field; {@code null} removes a field. A list with strategy {@code merge} and a merge key
 * merges item by item on that key (containers by name, volumeMounts by mountPath...), one with strategy
 * {@code merge} and no key is a set of values (finalizers); every other list is replaced. Directives:
 * {@code $patch: replace} (an object, or a list through a {@code {"$patch": "replace"}} item), {@code $patch: delete}
 * (an object, or the list item with that merge key), {@code $retainKeys} (fields not listed are cleared),
 * {@code $setElementOrder/<list>} (the order of the list's items), {@code $deleteFromPrimitiveList/<list>} (values
 * removed from a set).
 *
 * <p>A merged list is ordered as apimachinery orders it ({@code normalizeElementOrder}): the patch's items (or those
 * of {@code $setElementOrder}) in the patch's order, the target's other items in the target's order, and one of the
 * latter goes before one of the former only when both were in the target and it came first there. So a new item
 * goes before the target's items it is not placed after: env {@code [A, B]} patched with {@code [A, C]} gives
 * {@code [A, C, B]}, and patched with {@code [C]} gives {@code [C, A, B]}. Order matters: {@code $(VAR)} in an env
 * value expands only variables defined before it.
 */
public final class StrategicMerge {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String PATCH = "$patch";
  private static final String RETAIN_KEYS = "$retainKeys";
  private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
  private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

  private StrategicMerge() {
  }

  /**
   * {@code patch} applied to {@code target}, the place {@code type} describes; neither is modified.
   *
   * @throws IllegalArgumentException for an item of a merged list without its merge key, or an unknown directive
   */
  public static JsonNode apply(JsonNode target, JsonNode patch, PatchMeta type) {
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
      } else if (key.startsWith(SET_ELEMENT_ORDER)) {
        String field = key.substring(SET_ELEMENT_ORDER.length());
        if (!patch.has(field) && result.get(field) instanceof ArrayNode list && e.getValue().isArray()) {
          result.set(field, ordered(items(list), items(e.getValue()), items(list), type.field(field).patchMergeKey()));
        }
      } else if (!key.startsWith("$")) {
        applyField(result, key, e.getValue(), patch, type.field(key));
      }
    }
    return result;
  }

  private static void applyField(ObjectNode result, String key, JsonNode value, JsonNode patch, PatchMeta type) {
    if (value.isNull() || isDelete(value)) {
      result.remove(key);
    } else if (value.isArray()) {
      JsonNode current = result.get(key);
      ArrayNode merged = mergeList(current, (ArrayNode) value, type);
      if (patch.get(SET_ELEMENT_ORDER + key) instanceof ArrayNode order) {
        merged = ordered(items(merged), items(order), current instanceof ArrayNode list ? items(list) : List.of(),
            type.patchMergeKey());
      }
      result.set(key, merged);
    } else if (value.isObject() && !type.patchStrategies().contains("replace")) {
      result.set(key, apply(result.get(key), value, type));
    } else {
      result.set(key, stripDirectives(value));
    }
  }

  private static ArrayNode mergeList(JsonNode current, ArrayNode patch, PatchMeta type) {
    List<JsonNode> items = new ArrayList<>();
    boolean replace = false;
    for (JsonNode item : patch) {
      if (item.isObject() && item.path(PATCH).asText("").equals("replace") && item.size() == 1) {
        replace = true;
      } else {
        items.add(item);
      }
    }
    if (!type.patchStrategies().contains("merge") || replace || !(current instanceof ArrayNode currentList)) {
      ArrayNode replaced = NODES.arrayNode();
      items.stream().filter(item -> !isDelete(item)).forEach(item -> replaced.add(stripDirectives(item)));
      return replaced;
    }
    String mergeKey = type.patchMergeKey();
    List<JsonNode> original = items(currentList);
    List<JsonNode> merged = new ArrayList<>(original);
    List<JsonNode> patched = new ArrayList<>();
    for (JsonNode item : items) {
      if (mergeKey == null || !item.isObject()) {
        if (!merged.contains(item)) {
          merged.add(item.deepCopy()); // a set of values
        }
        patched.add(item);
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
        continue;
      }
      if (index >= 0) {
        merged.set(index, apply(merged.get(index), item, type.items()));
      } else {
        merged.add(apply(null, item, type.items()));
      }
      patched.add(item);
    }
    return ordered(merged, patched, original, mergeKey);
  }

  /**
   * {@code merged} in apimachinery's order ({@code normalizeElementOrder}): the items {@code order} names in its
   * order, merged with the others in {@code original}'s order; one of the others goes first only when both were in
   * {@code original} and it came first there.
   */
  private static ArrayNode ordered(List<JsonNode> merged, List<JsonNode> order, List<JsonNode> original,
      String mergeKey) {
    Map<JsonNode, Integer> orderIndex = indexes(order, mergeKey);
    Map<JsonNode, Integer> originalIndex = indexes(original, mergeKey);
    List<JsonNode> named = new ArrayList<>();
    List<JsonNode> others = new ArrayList<>();
    for (JsonNode item : merged) {
      (orderIndex.containsKey(id(item, mergeKey)) ? named : others).add(item);
    }
    named.sort(Comparator.comparingInt(item -> orderIndex.get(id(item, mergeKey))));
    others.sort(Comparator.comparingInt(item -> originalIndex.getOrDefault(id(item, mergeKey), -1)));
    ArrayNode result = NODES.arrayNode();
    int o = 0;
    int n = 0;
    while (o < others.size() || n < named.size()) {
      if (n >= named.size() || o < others.size()
          && before(originalIndex, id(others.get(o), mergeKey), id(named.get(n), mergeKey))) {
        result.add(others.get(o++));
      } else {
        result.add(named.get(n++));
      }
    }
    return result;
  }

  /** Whether both were in the original list and {@code left} came first. */
  private static boolean before(Map<JsonNode, Integer> originalIndex, JsonNode left, JsonNode right) {
    Integer leftIndex = originalIndex.get(left);
    Integer rightIndex = originalIndex.get(right);
    return leftIndex != null && rightIndex != null && leftIndex < rightIndex;
  }

  /** The first index of each item's identity: its merge key's value, or the value itself in a set. */
  private static Map<JsonNode, Integer> indexes(List<JsonNode> list, String mergeKey) {
    Map<JsonNode, Integer> indexes = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode id = id(list.get(i), mergeKey);
      if (id != null) {
        indexes.putIfAbsent(id, i);
      }
    }
    return indexes;
  }

  private static JsonNode id(JsonNode item, String mergeKey) {
    return mergeKey == null || !item.isObject() ? item : item.get(mergeKey);
  }

  private static List<JsonNode> items(JsonNode list) {
    List<JsonNode> items = new ArrayList<>(list.size());
    list.forEach(items::add);
    return items;
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
