package io.kftrainer.operator.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Optional;

/**
 * The fields a field manager owns on an object, from the {@code fieldsV1} of its {@code Apply} entry in
 * {@code metadata.managedFields}, and whether a desired object still sets each of them.
 *
 * <p>An apply that leaves out a field the manager owns removes it, so an apply is a no-op only when the desired
 * object is in the observed one ({@link JsonSubset}) <em>and</em> it still sets every owned field. The second
 * half is checked on paths, not values (values are {@link JsonSubset}'s business), so server defaults inside owned
 * fields do not matter. FieldsV1 keys: {@code f:name} a field, {@code k:{"name":"x"}} the list item with those key
 * values, {@code v:value} a set item, {@code i:n} an item by index, {@code .} the item itself.
 *
 * <p>Java Operator SDK's {@code SSABasedGenericKubernetesResourceMatcher} answers the same question for dependent
 * resources, but needs a JOSDK {@code Context} and compares the owned values for equality, so defaults the API
 * server adds inside an owned atomic list make every reconcile write.
 */
final class OwnedFields {

  private static final ObjectMapper JSON = new ObjectMapper();

  private OwnedFields() {
  }

  /** The {@code fieldsV1} of {@code manager}'s {@code Apply} entry for the main resource, if it has one. */
  static Optional<JsonNode> ofApply(JsonNode observed, String manager) {
    for (JsonNode entry : observed.path("metadata").path("managedFields")) {
      if (manager.equals(entry.path("manager").asText()) && "Apply".equals(entry.path("operation").asText())
          && entry.path("subresource").asText("").isEmpty() && entry.path("fieldsV1").isObject()) {
        return Optional.of(entry.get("fieldsV1"));
      }
    }
    return Optional.empty();
  }

  /** Whether {@code desired} sets every field of the FieldsV1 set {@code owned}. */
  static boolean allSetIn(JsonNode owned, JsonNode desired) {
    for (Map.Entry<String, JsonNode> entry : owned.properties()) {
      String key = entry.getKey();
      JsonNode child = entry.getValue();
      if (key.equals(".")) {
        continue;
      }
      JsonNode value = valueAt(desired, key);
      if (value == null || value.isNull() || value.isMissingNode() || !allSetIn(child, value)) {
        return false;
      }
    }
    return true;
  }

  /** The part of {@code desired} that the FieldsV1 key names, or null. */
  private static JsonNode valueAt(JsonNode desired, String key) {
    String rest = key.substring(2);
    switch (key.substring(0, 2)) {
      case "f:":
        return desired.isObject() ? desired.get(rest) : null;
      case "k:":
        JsonNode keys = parse(rest);
        for (JsonNode item : desired.isArray() ? desired : JSON.createArrayNode()) {
          if (keys.isObject() && matches(item, keys)) {
            return item;
          }
        }
        return null;
      case "v:":
        JsonNode wanted = parse(rest);
        for (JsonNode item : desired.isArray() ? desired : JSON.createArrayNode()) {
          if (JsonSubset.contains(item, wanted) && JsonSubset.contains(wanted, item)) {
            return item;
          }
        }
        return null;
      case "i:":
        int index = Integer.parseInt(rest);
        return desired.isArray() && index < desired.size() ? desired.get(index) : null;
      default:
        return null;
    }
  }

  private static boolean matches(JsonNode item, JsonNode keys) {
    for (Map.Entry<String, JsonNode> key : keys.properties()) {
      JsonNode value = item.get(key.getKey());
      if (value == null || !JsonSubset.contains(value, key.getValue()) || !JsonSubset.contains(key.getValue(), value)) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a FieldsV1 key value: " + json, e);
    }
  }
}
