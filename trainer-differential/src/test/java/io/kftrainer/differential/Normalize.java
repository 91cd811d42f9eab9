package io.kftrainer.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Removes from an object what differs between two runs of the same input: uids, resourceVersions, generations,
 * managedFields, timestamps (replaced by {@code (time)}), a Secret's key material (each value replaced by
 * {@code (key material)}: the SSH keys are fresh on every run), and the {@code kubectl.kubernetes.io} annotations.
 * And {@link #DOCUMENTED}, the differences docs/upstream-differences.md lists that every case would otherwise show.
 */
final class Normalize {

  private static final Set<String> METADATA_DROPPED = Set.of("uid", "resourceVersion", "creationTimestamp",
      "managedFields", "generation", "selfLink");
  private static final Set<String> TIMES = Set.of("lastTransitionTime", "lastUpdateTime", "lastProbeTime",
      "startTime", "completionTime", "lastHeartbeatTime");

  /** What {@link #object} leaves out for being a listed difference (the table's introduction says so). */
  static final String DOCUMENTED = "the label `trainer.kubeflow.org/trainjob-name` of every child, the runtime "
      + "snapshot ConfigMap's `data.runtime` and `immutable`, the Flux CurveZMQ Secret's `immutable`, the TrainJob's "
      + "`status.startTime` and `status.completionTime` (KEP-2899's, not in upstream v2.3)";
  /** KEP-2899's TrainJob status fields, which upstream v2.3's controller does not write. */
  private static final Set<String> STATUS_DOCUMENTED = Set.of("startTime", "completionTime");
  static final String TRAINJOB_NAME_LABEL = "trainer.kubeflow.org/trainjob-name";

  private Normalize() {
  }

  static JsonNode object(JsonNode object) {
    JsonNode copy = object.deepCopy();
    if (copy.get("metadata") instanceof ObjectNode metadata) {
      METADATA_DROPPED.forEach(metadata::remove);
      if (metadata.get("ownerReferences") instanceof ArrayNode owners) {
        owners.forEach(owner -> ((ObjectNode) owner).remove("uid"));
      }
      if (metadata.get("annotations") instanceof ObjectNode annotations) {
        List<String> kubectl = new ArrayList<>();
        annotations.fieldNames().forEachRemaining(name -> {
          if (name.startsWith("kubectl.kubernetes.io/")) {
            kubectl.add(name);
          }
        });
        annotations.remove(kubectl);
      }
      if (metadata.get("labels") instanceof ObjectNode labels) {
        labels.remove(TRAINJOB_NAME_LABEL);
        if (labels.isEmpty()) {
          metadata.remove("labels");
        }
      }
      String name = metadata.path("name").asText();
      if (name.endsWith("-runtime-snapshot") && copy.get("data") instanceof ObjectNode data && data.has("runtime")) {
        data.put("runtime", "(runtime snapshot)");
        ((ObjectNode) copy).remove("immutable");
      }
      if (name.endsWith("-flux-curve")) {
        ((ObjectNode) copy).remove("immutable");
      }
    }
    if ("Secret".equals(copy.path("kind").asText()) && copy.get("data") instanceof ObjectNode data) {
      List<String> keys = new ArrayList<>();
      data.fieldNames().forEachRemaining(keys::add);
      keys.forEach(key -> data.put(key, "(key material)"));
    }
    times(copy);
    return copy;
  }

  /** A TrainJob's status without its timestamps and {@link #STATUS_DOCUMENTED}. */
  static JsonNode status(JsonNode status) {
    JsonNode copy = status == null ? null : status.deepCopy();
    if (copy instanceof ObjectNode object) {
      STATUS_DOCUMENTED.forEach(object::remove);
    }
    if (copy != null) {
      times(copy);
    }
    return copy;
  }

  private static void times(JsonNode node) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (TIMES.contains(name) && object.get(name).isTextual()) {
          object.put(name, "(time)");
        } else {
          times(object.get(name));
        }
      }
    } else if (node instanceof ArrayNode array) {
      array.forEach(Normalize::times);
    }
  }
}
