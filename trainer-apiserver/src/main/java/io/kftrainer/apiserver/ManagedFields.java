package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * A record of server-side apply field managers in {@code metadata.managedFields}: one {@code Apply} entry per field
 * manager (and subresource) listing, in FieldsV1 form, the fields of the configuration it last applied. Lists are
 * recorded as atomic ({@code f:list: {}}), never by key ({@code k:}) or value ({@code v:}). The entry only changes
 * when the set of fields changes, so re-applying the same configuration stays a no-op.
 *
 * <p>This is bookkeeping for clients that read it (Java Operator SDK's SSA-based matcher decides from the {@code Apply}
 * entry of its field manager whether a dependent needs to be applied again); the server itself does not use it: no
 * conflict detection, no removal of fields a manager stops applying, and no {@code Update} entries for other writes.
 */
final class ManagedFields {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> SERVER_METADATA = List.of("name", "namespace", "uid", "resourceVersion",
      "generation", "creationTimestamp", "deletionTimestamp", "managedFields", "selfLink");

  private ManagedFields() {
  }

  /**
   * Records in {@code object} that {@code manager} applied {@code appliedConfig}.
   *
   * @param statusPath       whether the apply went to the {@code /status} subresource (only status counts)
   * @param statusSubresource whether the kind has a status subresource (then a main-resource apply's status is
   *                         ignored)
   */
  static void recordApply(ObjectNode object, JsonNode appliedConfig, String manager, String apiVersion,
      boolean statusPath, boolean statusSubresource) {
    ObjectNode fields = appliedFields(appliedConfig, statusPath, statusSubresource);
    ObjectNode metadata = object.has("metadata") && object.get("metadata").isObject()
        ? (ObjectNode) object.get("metadata") : object.putObject("metadata");
    ArrayNode entries = metadata.path("managedFields").isArray() ? (ArrayNode) metadata.get("managedFields")
        : NODES.arrayNode();
    String subresource = statusPath ? "status" : "";
    for (int i = 0; i < entries.size(); i++) {
      JsonNode entry = entries.get(i);
      if (entry.path("manager").asText().equals(manager) && entry.path("operation").asText().equals("Apply")
          && entry.path("subresource").asText("").equals(subresource)) {
        if (entry.path("fieldsV1").equals(fields) && entry.path("apiVersion").asText().equals(apiVersion)) {
          return;
        }
        entries.remove(i);
        break;
      }
    }
    ObjectNode entry = entries.addObject().put("manager", manager).put("operation", "Apply")
        .put("apiVersion", apiVersion).put("time", ApiHandler.now()).put("fieldsType", "FieldsV1");
    entry.set("fieldsV1", fields);
    if (statusPath) {
      entry.put("subresource", subresource);
    }
    metadata.set("managedFields", entries);
  }

  /** The FieldsV1 set of an applied configuration (server-owned metadata, type meta and ignored status left out). */
  static ObjectNode appliedFields(JsonNode appliedConfig, boolean statusPath, boolean statusSubresource) {
    ObjectNode config = NODES.objectNode();
    if (statusPath) {
      if (appliedConfig.has("status")) {
        config.set("status", appliedConfig.get("status"));
      }
    } else {
      appliedConfig.properties().forEach(e -> {
        String key = e.getKey();
        if (key.equals("apiVersion") || key.equals("kind") || (key.equals("status") && statusSubresource)) {
          return;
        }
        if (key.equals("metadata") && e.getValue().isObject()) {
          ObjectNode metadata = ((ObjectNode) e.getValue()).deepCopy();
          metadata.remove(SERVER_METADATA);
          if (!metadata.isEmpty()) {
            config.set(key, metadata);
          }
          return;
        }
        config.set(key, e.getValue());
      });
    }
    return fieldsV1(config);
  }

  /** {@code {"a":{"b":1},"c":[1]}} becomes {@code {"f:a":{"f:b":{}},"f:c":{}}}. */
  static ObjectNode fieldsV1(JsonNode config) {
    ObjectNode fields = NODES.objectNode();
    for (Map.Entry<String, JsonNode> e : config.properties()) {
      JsonNode value = e.getValue();
      fields.set("f:" + e.getKey(), value.isObject() && !value.isEmpty() ? fieldsV1(value) : NODES.objectNode());
    }
    return fields;
  }
}
