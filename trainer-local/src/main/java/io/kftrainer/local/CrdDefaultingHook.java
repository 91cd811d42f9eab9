package io.kftrainer.local;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.apiserver.AdmissionHook;
import io.kftrainer.apiserver.AdmissionRequest;
import io.kftrainer.apiserver.AdmissionResponse;
import io.kftrainer.operator.runtime.CrdDefaults;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The API server's CRD defaulting for the embedded server, which does none: sets the {@link CrdDefaults} of
 * TrainJobs, TrainingRuntimes and ClusterTrainingRuntimes on create and update, so that they are stored as a
 * cluster stores them ({@code spec.runtimeRef.apiGroup}/{@code kind}, {@code spec.managedBy}, {@code spec.suspend},
 * policy defaults).
 *
 * <p>A {@link AdmissionHook.Phase#MUTATING} hook; it must be registered before the {@link WebhookDispatcher}, since
 * the server runs mutating hooks in registration order and an API server defaults before it calls webhooks.
 *
 * <p>The response is a JSON patch of {@code add} operations only, computed on the typed model with and without
 * defaults: the rest of the object is kept as sent, fields the model does not know included. An object that does
 * not read as the model is admitted unchanged, for validation to report.
 */
final class CrdDefaultingHook implements AdmissionHook {

  private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.of(
      TrainerConstants.TRAINJOB_KIND, TrainJob.class,
      TrainerConstants.TRAINING_RUNTIME_KIND, TrainingRuntime.class,
      TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND, ClusterTrainingRuntime.class);

  private final KubernetesSerialization serialization;

  CrdDefaultingHook(KubernetesSerialization serialization) {
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  /** One hook per kind, each on the main resource only (not {@code status}). */
  static List<AdmissionHook> forTrainerKinds(KubernetesSerialization serialization) {
    CrdDefaultingHook hook = new CrdDefaultingHook(serialization);
    return TYPES.keySet().stream().sorted()
        .map(kind -> AdmissionHook.mutating(TrainerConstants.GROUP, kind, hook))
        .toList();
  }

  @Override
  public AdmissionResponse admit(AdmissionRequest request) {
    Class<? extends HasMetadata> type = TYPES.get(request.kind());
    if (type == null || request.object() == null) {
      return AdmissionResponse.allow();
    }
    JsonNode object = serialization.convertValue(request.object(), JsonNode.class);
    HasMetadata typed;
    try {
      typed = serialization.convertValue(object, type);
    } catch (IllegalArgumentException e) {
      return AdmissionResponse.allow();
    }
    JsonNode before = serialization.convertValue(typed, JsonNode.class);
    CrdDefaults.applyTo(typed);
    JsonNode after = serialization.convertValue(typed, JsonNode.class);
    ArrayNode additions = additions(JsonDiff.asJson(before, after, DiffFlags.dontNormalizeOpIntoMoveAndCopy()),
        object);
    return additions.isEmpty() ? AdmissionResponse.allow() : AdmissionResponse.patch(additions);
  }

  /** The {@code add} operations of {@code diff} whose parent exists in {@code object}. */
  private static ArrayNode additions(JsonNode diff, JsonNode object) {
    ArrayNode additions = JsonNodeFactory.instance.arrayNode();
    for (JsonNode operation : diff) {
      if ("add".equals(operation.path("op").asText())) {
        JsonNode parent = object.at(JsonPointer.compile(operation.path("path").asText()).head());
        if (parent.isObject()) {
          additions.add(operation);
        }
      }
    }
    return additions;
  }

  @Override
  public String toString() {
    return "CRD defaults";
  }
}
