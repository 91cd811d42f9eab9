package io.kftrainer.operator.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Whether an object already says everything a desired object says: {@code desired} ⊆ {@code observed} on their
 * JSON trees. This is how the operator decides that a server-side apply would change nothing and can be skipped.
 *
 * <ul>
 *   <li>Objects: every field of {@code desired} is in {@code observed} with a value that contains it; extra fields
 *       of {@code observed} (defaults, fields of other managers, server metadata) do not matter.</li>
 *   <li>Arrays: the same length, and each element contains the desired one at the same index (an apply replaces
 *       atomic lists, and list elements gain server defaults too).</li>
 *   <li>Scalars: equal; numbers by value ({@code 1} equals {@code 1.0}).</li>
 *   <li>{@code null}, and empty objects or arrays, are contained in an absent field: the API server drops them.</li>
 * </ul>
 *
 * <p>{@code status} and the server-populated metadata of {@code desired} are ignored (see {@link #comparable}).
 */
final class JsonSubset {

  /** Metadata the API server writes; a desired object never decides them. */
  private static final List<String> SERVER_METADATA = List.of("resourceVersion", "uid", "generation",
      "creationTimestamp", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");

  private JsonSubset() {
  }

  /** {@code desired} without {@code status} and server-populated metadata (a copy). */
  static JsonNode comparable(JsonNode desired) {
    if (!(desired instanceof ObjectNode object)) {
      return desired;
    }
    ObjectNode copy = object.deepCopy();
    copy.remove("status");
    if (copy.get("metadata") instanceof ObjectNode metadata) {
      metadata.remove(SERVER_METADATA);
    }
    return copy;
  }

  static boolean contains(JsonNode observed, JsonNode desired) {
    if (desired == null || desired.isNull() || desired.isMissingNode()) {
      return true;
    }
    if (observed == null || observed.isNull() || observed.isMissingNode()) {
      return isEmpty(desired);
    }
    if (desired.isObject()) {
      if (!observed.isObject()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> fields = desired.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (!contains(observed.get(field.getKey()), field.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired.isArray()) {
      if (!observed.isArray() || observed.size() != desired.size()) {
        return false;
      }
      for (int i = 0; i < desired.size(); i++) {
        if (!contains(observed.get(i), desired.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (desired.isNumber()) {
      return observed.isNumber() && desired.decimalValue().compareTo(observed.decimalValue()) == 0;
    }
    return desired.equals(observed);
  }

  private static boolean isEmpty(JsonNode node) {
    if (node.isArray()) {
      return node.isEmpty();
    }
    if (node.isObject()) {
      for (JsonNode value : node) {
        if (!(value.isNull() || isEmpty(value))) {
          return false;
        }
      }
      return true;
    }
    return node.isNull();
  }
}
