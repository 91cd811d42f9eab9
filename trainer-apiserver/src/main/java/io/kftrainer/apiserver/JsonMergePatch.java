package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/** JSON merge patch (RFC 7386); strategic merge patch is {@link io.kftrainer.framework.merge.StrategicMerge}. */
final class JsonMergePatch {

  private JsonMergePatch() {
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
}
