package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** JSON merge patch (RFC 7386) and an approximation of Kubernetes' strategic merge patch. */
final class Patches {

  /** Keys tried, in order, to match list elements in a strategic merge patch (approximation of patchMergeKey). */
  private static final List<String> MERGE_KEYS = List.of("name", "mountPath", "containerPort", "devicePath", "type", "ip");
  private static final String DIRECTIVE_PATCH = "$patch";
  private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

  private Patches() {
  }

  /**
   * Applies {@code patch} to {@code target} following RFC 7386: objects merge recursively, {@code null} removes a
   * key, any other value (arrays included) replaces. {@code target} is not modified; the result is a new tree.
   */
  static JsonNode mergePatch(JsonNode target, JsonNode patch) {
    if (patch == null || !patch.isObject()) {
      return patch == null ? null : patch.deepCopy();
    }
    ObjectNode result = target != null && target.isObject()
        ? ((ObjectNode) target).deepCopy() : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      if (e.getValue().isNull()) {
        result.remove(e.getKey());
      } else {
        result.set(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }

  /**
   * An approximation of a strategic merge patch: like {@link #mergePatch}, but lists of objects are merged element by
   * element on the first of {@link #MERGE_KEYS} that every patch element carries, and the directives
   * {@code $patch: delete|replace}, {@code $deleteFromPrimitiveList/x} are honoured; {@code $setElementOrder/x},
   * {@code $retainKeys} and other directives are dropped. The real algorithm takes merge keys and strategies from the
   * Go types' struct tags, which this server does not know.
   */
  static JsonNode strategicMergePatch(JsonNode target, JsonNode patch) {
    if (patch == null || !patch.isObject()) {
      return patch == null ? null : stripDirectives(patch);
    }
    String directive = patch.path(DIRECTIVE_PATCH).asText("");
    if (directive.equals("replace")) {
      return stripDirectives(patch);
    }
    ObjectNode result = target != null && target.isObject()
        ? ((ObjectNode) target).deepCopy() : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      String key = e.getKey();
      JsonNode value = e.getValue();
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        String field = key.substring(DELETE_FROM_PRIMITIVE_LIST.length());
        JsonNode current = result.get(field);
        if (current != null && current.isArray() && value.isArray()) {
          ArrayNode kept = JsonNodeFactory.instance.arrayNode();
          current.forEach(el -> {
            boolean remove = false;
            for (JsonNode v : value) {
              remove |= v.equals(el);
            }
            if (!remove) {
              kept.add(el);
            }
          });
          result.set(field, kept);
        }
        continue;
      }
      if (key.startsWith("$")) {
        continue;
      }
      if (value.isNull() || (value.isObject() && value.path(DIRECTIVE_PATCH).asText("").equals("delete"))) {
        result.remove(key);
      } else if (value.isArray()) {
        result.set(key, mergeList(result.get(key), (ArrayNode) value));
      } else {
        result.set(key, strategicMergePatch(result.get(key), value));
      }
    }
    return result;
  }

  private static JsonNode mergeList(JsonNode current, ArrayNode patch) {
    String mergeKey = mergeKey(patch);
    if (mergeKey == null || current == null || !current.isArray()) {
      ArrayNode replaced = JsonNodeFactory.instance.arrayNode();
      for (JsonNode el : patch) {
        if (!(el.isObject() && el.path(DIRECTIVE_PATCH).asText("").equals("delete"))) {
          replaced.add(stripDirectives(el));
        }
      }
      return replaced;
    }
    List<JsonNode> merged = new ArrayList<>();
    current.forEach(merged::add);
    for (JsonNode el : patch) {
      JsonNode id = el.get(mergeKey);
      int index = -1;
      for (int i = 0; i < merged.size(); i++) {
        if (id.equals(merged.get(i).get(mergeKey))) {
          index = i;
          break;
        }
      }
      boolean delete = el.path(DIRECTIVE_PATCH).asText("").equals("delete");
      if (index >= 0 && delete) {
        merged.remove(index);
      } else if (index >= 0) {
        merged.set(index, strategicMergePatch(merged.get(index), el));
      } else if (!delete) {
        merged.add(stripDirectives(el));
      }
    }
    ArrayNode result = JsonNodeFactory.instance.arrayNode();
    merged.forEach(result::add);
    return result;
  }

  private static String mergeKey(ArrayNode patch) {
    if (patch.isEmpty()) {
      return null;
    }
    for (String key : MERGE_KEYS) {
      boolean all = true;
      for (JsonNode el : patch) {
        all &= el.isObject() && el.hasNonNull(key);
      }
      if (all) {
        return key;
      }
    }
    return null;
  }

  /** A deep copy of {@code node} without {@code $...} directive keys. */
  static JsonNode stripDirectives(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      node.properties().forEach(e -> {
        if (!e.getKey().startsWith("$")) {
          copy.set(e.getKey(), stripDirectives(e.getValue()));
        }
      });
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      node.forEach(el -> copy.add(stripDirectives(el)));
      return copy;
    }
    return node.deepCopy();
  }

}
