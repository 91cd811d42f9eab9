package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merge of an applied configuration into the live object, as structured-merge-diff merges: objects field by
 * field ({@code x-kubernetes-map-type: atomic} ones replaced), {@code map} lists item by item on their keys,
 * {@code set} lists by value, atomic lists and scalars replaced; a {@code null} removes the field. Items keep the
 * live order, with the applied items in the applied order (structured-merge-diff's interleaving).
 */
final class ApplyMerge {

  private ApplyMerge() {
  }

  /**
   * {@code config} merged into {@code live} (neither is modified).
   *
   * @throws IllegalArgumentException when an item of a map list lacks a key field
   */
  static JsonNode merge(JsonNode live, JsonNode config, MergeType type) {
    if (config.isObject() && !type.atomicMap()) {
      ObjectNode result = live != null && live.isObject() ? ((ObjectNode) live).deepCopy()
          : JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> e : config.properties()) {
        if (e.getValue().isNull()) {
          result.remove(e.getKey());
        } else {
          result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue(), type.field(e.getKey())));
        }
      }
      return result;
    }
    if (config.isArray() && type.listType() != MergeType.ListType.ATOMIC) {
      return mergeList(live != null && live.isArray() ? live : JsonNodeFactory.instance.arrayNode(), config, type);
    }
    return config.deepCopy();
  }

  /** structured-merge-diff's list merge: shared items in the applied order, live-only items where they were. */
  private static ArrayNode mergeList(JsonNode live, JsonNode config, MergeType type) {
    Map<String, JsonNode> lhs = index(live, type, true);
    Map<String, JsonNode> rhs = index(config, type, false);
    List<String> lhsKeys = new ArrayList<>(lhs.keySet());
    List<String> rhsKeys = new ArrayList<>(rhs.keySet());
    List<String> shared = new ArrayList<>();
    for (String key : rhsKeys) {
      if (lhs.containsKey(key)) {
        shared.add(key);
      }
    }
    int nextShared = 0;
    Set<String> merged = new HashSet<>();
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    int l = 0;
    int r = 0;
    while (l < lhsKeys.size() || r < rhsKeys.size()) {
      if (l < lhsKeys.size() && r < rhsKeys.size()) {
        String key = lhsKeys.get(l);
        if (key.equals(rhsKeys.get(r))) {
          merged.add(key);
          out.add(merge(lhs.get(key), rhs.get(key), type.items()));
          l++;
          r++;
          if (nextShared < shared.size() && shared.get(nextShared).equals(key)) {
            nextShared++;
          }
          continue;
        }
        if (rhs.containsKey(key) && nextShared < shared.size() && !shared.get(nextShared).equals(key)) {
          l++; // a shared item, merged when the applied order reaches it
          continue;
        }
      }
      if (l < lhsKeys.size()) {
        String key = lhsKeys.get(l);
        if (!rhs.containsKey(key)) {
          out.add(lhs.get(key).deepCopy());
          l++;
          continue;
        } else if (merged.contains(key)) {
          l++;
          continue;
        }
      }
      if (r < rhsKeys.size()) {
        String key = rhsKeys.get(r);
        merged.add(key);
        out.add(merge(lhs.get(key), rhs.get(key), type.items()));
        r++;
        if (nextShared < shared.size() && shared.get(nextShared).equals(key)) {
          nextShared++;
        }
      }
    }
    return out;
  }

  /** Items by path element; the first of duplicates wins (live lists may hold any). */
  private static Map<String, JsonNode> index(JsonNode list, MergeType type, boolean live) {
    Map<String, JsonNode> items = new LinkedHashMap<>();
    int unkeyed = 0;
    for (JsonNode item : list) {
      String element;
      try {
        element = FieldPaths.itemElement(item, type);
      } catch (IllegalArgumentException e) {
        if (!live) {
          throw e;
        }
        element = "live:" + unkeyed++; // kept as is, matched by nothing
      }
      items.putIfAbsent(element, item);
    }
    return items;
  }
}
