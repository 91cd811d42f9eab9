package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The status the apiextensions controllers would give a CustomResourceDefinition: names accepted, established,
 * stored versions, so that {@code kubectl wait --for condition=established} and clients that check it work.
 */
final class CrdStatus {

  private CrdStatus() {
  }

  static void ensure(ObjectNode crd, JsonNode currentStatus) {
    JsonNode spec = crd.path("spec");
    ObjectNode status = currentStatus != null && currentStatus.isObject() ? ((ObjectNode) currentStatus).deepCopy()
        : JsonNodeFactory.instance.objectNode();
    if (spec.path("names").isObject()) {
      ObjectNode accepted = ((ObjectNode) spec.get("names")).deepCopy();
      if (!accepted.hasNonNull("singular")) {
        accepted.put("singular", accepted.path("kind").asText("").toLowerCase(java.util.Locale.ROOT));
      }
      if (!accepted.hasNonNull("listKind")) {
        accepted.put("listKind", accepted.path("kind").asText("") + "List");
      }
      status.set("acceptedNames", accepted);
    }
    if (!status.path("conditions").isArray() || status.path("conditions").isEmpty()) {
      String now = KubeJson.now();
      ArrayNode conditions = status.putArray("conditions");
      conditions.addObject().put("type", "NamesAccepted").put("status", "True").put("reason", "NoConflicts")
          .put("message", "no conflicts found").put("lastTransitionTime", now);
      conditions.addObject().put("type", "Established").put("status", "True").put("reason", "InitialNamesAccepted")
          .put("message", "the initial names have been accepted").put("lastTransitionTime", now);
    }
    ArrayNode stored = status.path("storedVersions").isArray() ? (ArrayNode) status.get("storedVersions")
        : status.putArray("storedVersions");
    for (JsonNode version : spec.path("versions")) {
      if (version.path("storage").asBoolean(false)) {
        String name = version.path("name").asText();
        boolean present = false;
        for (JsonNode v : stored) {
          present |= v.asText().equals(name);
        }
        if (!present) {
          stored.add(name);
        }
      }
    }
    crd.set("status", status);
  }
}
