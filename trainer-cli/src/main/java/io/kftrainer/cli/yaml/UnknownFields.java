package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fields of a manifest that the model does not know, found by comparing the document with the object read
 * from it, written back: what the model dropped is unknown to it (the API server would prune it, or reject it
 * under {@code kubectl}'s default strict field validation). Null values and empty objects and lists are not
 * reported, since the model may leave those out on writing.
 */
final class UnknownFields {

  private UnknownFields() {
  }

  /** The paths of the fields of {@code document} missing from {@code known}, e.g. {@code spec.trainr}. */
  static List<String> find(JsonNode document, JsonNode known) {
    List<String> paths = new ArrayList<>();
    walk(document, known, "", paths);
    return paths;
  }

  private static void walk(JsonNode document, JsonNode known, String path, List<String> paths) {
    if (document.isObject() && known.isObject()) {
      for (Map.Entry<String, JsonNode> field : (Iterable<Map.Entry<String, JsonNode>>) document::fields) {
        String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        JsonNode knownValue = known.get(field.getKey());
        if (knownValue == null) {
          if (!isEmpty(field.getValue())) {
            paths.add(fieldPath);
          }
        } else {
          walk(field.getValue(), knownValue, fieldPath, paths);
        }
      }
    } else if (document.isArray() && known.isArray() && document.size() == known.size()) {
      for (int i = 0; i < document.size(); i++) {
        walk(document.get(i), known.get(i), path + "[" + i + "]", paths);
      }
    }
  }

  private static boolean isEmpty(JsonNode value) {
    return value.isNull() || (value.isContainerNode() && value.isEmpty());
  }
}
