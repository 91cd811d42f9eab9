package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code Apply} entries of {@code metadata.managedFields}: one per field manager (and subresource), listing in
 * FieldsV1 form ({@link FieldPaths}) the paths it owns. An entry only changes when its paths change, so re-applying
 * the same configuration stays a no-op. Entries of other operations are kept as they are.
 */
final class ManagedFields {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> SERVER_METADATA = List.of("name", "namespace", "uid", "resourceVersion",
      "generation", "creationTimestamp", "deletionTimestamp", "managedFields", "selfLink");

  private ManagedFields() {
  }

  /**
   * The part of an applied configuration that its manager owns: type meta, server-owned metadata and, when the
   * kind has a status subresource, the status of a main-resource apply (or all but status on {@code /status}) left
   * out.
   */
  static ObjectNode appliedConfig(JsonNode config, boolean statusPath, boolean statusSubresource) {
    ObjectNode owned = NODES.objectNode();
    if (statusPath) {
      if (config.has("status")) {
        owned.set("status", config.get("status"));
      }
      return owned;
    }
    config.properties().forEach(e -> {
      String key = e.getKey();
      if (key.equals("apiVersion") || key.equals("kind") || (key.equals("status") && statusSubresource)) {
        return;
      }
      if (key.equals("metadata") && e.getValue().isObject()) {
        ObjectNode metadata = ((ObjectNode) e.getValue()).deepCopy();
        metadata.remove(SERVER_METADATA);
        if (!metadata.isEmpty()) {
          owned.set(key, metadata);
        }
        return;
      }
      owned.set(key, e.getValue());
    });
    return owned;
  }

  /** The paths of each {@code Apply} manager of {@code subresource} ({@code ""}: the main resource). */
  static Map<String, Set<List<String>>> appliers(JsonNode entries, String subresource) {
    Map<String, Set<List<String>>> managers = new LinkedHashMap<>();
    for (JsonNode entry : entries) {
      if (isApply(entry, subresource)) {
        managers.put(entry.path("manager").asText(), FieldPaths.fromFieldsV1(entry.path("fieldsV1")));
      }
    }
    return managers;
  }

  private static boolean isApply(JsonNode entry, String subresource) {
    return entry.path("operation").asText().equals("Apply")
        && entry.path("subresource").asText("").equals(subresource);
  }

  /**
   * Writes into {@code object} the entries of {@code previous} with the applier's paths set to {@code mine} and
   * the other appliers' to {@code others} (an applier left with no path loses its entry).
   */
  static void write(ObjectNode object, JsonNode previous, ServerSideApply.Request request,
      Set<List<String>> mine, Map<String, Set<List<String>>> others) {
    ArrayNode entries = NODES.arrayNode();
    boolean written = false;
    for (JsonNode entry : previous) {
      if (!isApply(entry, request.subresource())) {
        entries.add(entry);
        continue;
      }
      String manager = entry.path("manager").asText();
      if (manager.equals(request.manager())) {
        entries.add(entry(entry, mine, request.apiVersion()));
        written = true;
      } else if (others.containsKey(manager) && !others.get(manager).isEmpty()) {
        entries.add(entry(entry, others.get(manager), entry.path("apiVersion").asText()));
      }
    }
    if (!written) {
      entries.add(entry(newEntry(request), mine, request.apiVersion()));
    }
    ObjectNode metadata = object.path("metadata") instanceof ObjectNode m ? m : object.putObject("metadata");
    metadata.set("managedFields", entries);
  }

  /** {@code previous} when its paths and version are these, otherwise a copy with them, stamped now. */
  private static JsonNode entry(JsonNode previous, Set<List<String>> paths, String apiVersion) {
    ObjectNode fields = FieldPaths.toFieldsV1(paths);
    if (!previous.path("time").asText().isEmpty() && previous.path("fieldsV1").equals(fields)
        && previous.path("apiVersion").asText().equals(apiVersion)) {
      return previous;
    }
    ObjectNode entry = ((ObjectNode) previous).deepCopy();
    entry.put("apiVersion", apiVersion).put("time", KubeJson.now()).put("fieldsType", "FieldsV1");
    entry.set("fieldsV1", fields);
    return entry;
  }

  /** A new entry, its fields in kube-apiserver's order. */
  private static ObjectNode newEntry(ServerSideApply.Request request) {
    ObjectNode entry = NODES.objectNode().put("manager", request.manager()).put("operation", "Apply")
        .put("apiVersion", request.apiVersion()).put("time", "").put("fieldsType", "FieldsV1");
    entry.putObject("fieldsV1");
    if (!request.subresource().isEmpty()) {
      entry.put("subresource", request.subresource());
    }
    return entry;
  }
}
