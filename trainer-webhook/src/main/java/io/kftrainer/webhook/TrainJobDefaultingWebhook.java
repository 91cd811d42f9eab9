package io.kftrainer.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@code defaulter.trainjob.trainer.kubeflow.org}: stamps {@code spec.runtimePatches[].time}, as upstream's
 * TrainJob defaulter.
 *
 * <ul>
 *   <li>Create: a patch without a time gets now.</li>
 *   <li>Update: a patch whose manager had a patch before keeps the old time if it is otherwise unchanged, and gets
 *       now if it changed (whatever time the request carries); a patch of a new manager without a time gets
 *       now.</li>
 * </ul>
 *
 * <p>Works on the JSON of the request so that the response's JSON patch addresses exactly the request's object
 * (fields this operator's model does not know included). Times are RFC 3339 in UTC with seconds, as Kubernetes
 * writes {@code metav1.Time}. The response carries a patch only when a time changes.
 */
public final class TrainJobDefaultingWebhook implements AdmissionHandler {

  private static final String MANAGER = "manager";
  private static final String TIME = "time";

  private final Clock clock;
  private final RequestObjects objects;

  public TrainJobDefaultingWebhook(Clock clock, KubernetesSerialization serialization) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.objects = new RequestObjects(serialization);
  }

  @Override
  public AdmissionResponse admit(AdmissionRequest request) {
    String operation = request.getOperation();
    if (!RequestObjects.CREATE.equals(operation) && !RequestObjects.UPDATE.equals(operation)) {
      return AdmissionResponses.allowed();
    }
    JsonNode patches = objects.tree(request.getObject()).path("spec").path("runtimePatches");
    Map<String, JsonNode> oldByManager = new HashMap<>();
    if (RequestObjects.UPDATE.equals(operation) && request.getOldObject() != null) {
      for (JsonNode old : objects.tree(request.getOldObject()).path("spec").path("runtimePatches")) {
        oldByManager.put(old.path(MANAGER).asText(), old);
      }
    }
    String now = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    ArrayNode operations = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < patches.size(); i++) {
      JsonNode patch = patches.get(i);
      JsonNode old = oldByManager.get(patch.path(MANAGER).asText());
      JsonNode time = patch.get(TIME);
      JsonNode wanted;
      if (old != null) {
        wanted = withoutTime(old).equals(withoutTime(patch)) ? old.get(TIME) : text(now);
      } else {
        wanted = isUnset(time) ? text(now) : time;
      }
      addOperation(operations, "/spec/runtimePatches/" + i + "/" + TIME, time, wanted);
    }
    return AdmissionResponses.patched(operations);
  }

  private static void addOperation(ArrayNode operations, String path, JsonNode current, JsonNode wanted) {
    if (Objects.equals(normalized(current), normalized(wanted))) {
      return;
    }
    if (isUnset(wanted)) {
      operations.addObject().put("op", "remove").put("path", path);
    } else {
      operations.addObject().put("op", isUnset(current) ? "add" : "replace").put("path", path).set("value", wanted);
    }
  }

  private static JsonNode withoutTime(JsonNode patch) {
    if (!(patch instanceof ObjectNode object)) {
      return patch;
    }
    ObjectNode copy = object.deepCopy();
    copy.remove(TIME);
    return copy;
  }

  private static boolean isUnset(JsonNode value) {
    return value == null || value.isNull() || value.isMissingNode();
  }

  private static JsonNode normalized(JsonNode value) {
    return isUnset(value) ? null : value;
  }

  private static JsonNode text(String value) {
    return JsonNodeFactory.instance.textNode(value);
  }
}
