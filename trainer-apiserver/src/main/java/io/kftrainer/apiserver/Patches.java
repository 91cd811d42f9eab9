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
  /**
   * The lists of the core kinds that strategic merge patch merges, by field name, with their merge keys
   * ({@code patchStrategy:"merge"} and {@code patchMergeKey} of the Go types in k8s.io/api). Lists not named here
   * (tolerations, args, command, envFrom...) are atomic: a patch replaces them.
   */
  private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
      Map.entry("containers", "name"),
      Map.entry("initContainers", "name"),
      Map.entry("ephemeralContainers", "name"),
      Map.entry("env", "name"),
      Map.entry("volumes", "name"),
      Map.entry("volumeMounts", "mountPath"),
      Map.entry("volumeDevices", "devicePath"),
      Map.entry("imagePullSecrets", "name"),
      Map.entry("hostAliases", "ip"),
      Map.entry("topologySpreadConstraints", "topologyKey"),
      Map.entry("resourceClaims", "name"),
      Map.entry("schedulingGates", "name"),
      Map.entry("conditions", "type"),
      Map.entry("ownerReferences", "uid"),
      Map.entry("secrets", "name"),
      Map.entry("ports", "containerPort"));
  /** Primitive lists merged as sets ({@code patchStrategy:"merge"} on a list of strings). */
  private static final java.util.Set<String> MERGED_PRIMITIVE_LISTS = java.util.Set.of("finalizers");
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
   * Strategic merge patch for the core kinds: like {@link #mergePatch}, but the lists of {@link #MERGE_KEYS} are
   * merged element by element on their merge key (containers and env by name, volumeMounts by mountPath, ports by
   * containerPort or port...), finalizers as a set, and the directives {@code $patch: delete|replace},
   * {@code $deleteFromPrimitiveList/x} are honoured; {@code $setElementOrder/x}, {@code $retainKeys} and other
   * directives are dropped. The keys are those of k8s.io/api's struct tags, by field name, whatever the kind.
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
        result.set(key, mergeList(key, result.get(key), (ArrayNode) value));
      } else {
        result.set(key, strategicMergePatch(result.get(key), value));
      }
    }
    return result;
  }

  private static JsonNode mergeList(String field, JsonNode current, ArrayNode patch) {
    if (MERGED_PRIMITIVE_LISTS.contains(field) && current != null && current.isArray()) {
      ArrayNode union = ((ArrayNode) current).deepCopy();
      for (JsonNode el : patch) {
        boolean present = false;
        for (JsonNode existing : union) {
          present |= existing.equals(el);
        }
        if (!present) {
          union.add(el);
        }
      }
      return union;
    }
    String mergeKey = mergeKey(field, patch);
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

  private static String mergeKey(String field, ArrayNode patch) {
    String key = MERGE_KEYS.get(field);
    if (key == null || patch.isEmpty()) {
      return null;
    }
    if (field.equals("ports") && !patch.get(0).has("containerPort")) {
      key = "port"; // a Service's ports
    }
    for (JsonNode el : patch) {
      if (!el.isObject() || !el.hasNonNull(key)) {
        return null;
      }
    }
    return key;
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
