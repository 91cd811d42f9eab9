package io.kftrainer.operator.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import java.util.function.UnaryOperator;

/**
 * Writes a TrainJob's status, as upstream, with a JSON merge patch of the {@code status} subresource, and only
 * when the status changed (an OptimizationJob's the same way). The patch holds the whole new status (a field it no
 * longer has as an explicit null) and the
 * {@code resourceVersion} the status was computed from: a TrainJob changed meanwhile answers 409, and the reconcile
 * fails and is retried on fresh state rather than overwriting what it did not see. Nothing but {@code status} is
 * written.
 *
 * <p>The write goes through JOSDK's {@link PrimaryUpdateAndCacheUtils}, which puts the written TrainJob into JOSDK's
 * cache of TrainJobs, so that the next reconcile starts from this status even if the watch event has not arrived
 * yet (otherwise it would see the old conditions and report their transitions twice). JOSDK's own
 * {@code UpdateControl.patchStatus} and {@code ErrorStatusUpdateControl.patchStatus} do neither in 5.2.3: they
 * patch without the {@code resourceVersion} and do not cache the answer.
 */
public final class StatusWriter {

  /**
   * No retry of a conflict inside the helper: it would patch the status computed from the stale TrainJob onto the
   * fresh one. The reconcile fails instead, and JOSDK runs it again on the fresh TrainJob.
   */
  private static final int NO_RETRY = 0;

  private final KubernetesClient client;
  private final KubernetesSerialization serialization;

  public StatusWriter(KubernetesClient client) {
    this.client = client;
    this.serialization = client.getKubernetesSerialization();
  }

  /**
   * Patches {@code status} onto {@code observed} unless it is what {@code observed} already has.
   *
   * @return whether a patch was sent
   */
  public <S, R extends CustomResource<?, S>> boolean write(R observed, S status, Context<R> context) {
    JsonNode wanted = pruned(serialization.convertValue(status, JsonNode.class));
    JsonNode current = pruned(observed.getStatus() == null ? null
        : serialization.convertValue(observed.getStatus(), JsonNode.class));
    if (wanted.equals(current)) {
      return false;
    }
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    patch.putObject("metadata").put("resourceVersion", observed.getMetadata().getResourceVersion());
    ObjectNode statusPatch = ((ObjectNode) wanted).deepCopy();
    // a merge patch keeps what it does not name: a field the new status drops (a suspended TrainJob's startTime)
    // is removed with an explicit null
    current.fieldNames().forEachRemaining(field -> {
      if (!wanted.has(field)) {
        statusPatch.putNull(field);
      }
    });
    patch.set("status", statusPatch);
    PatchContext mergePatch = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE)
        .withFieldManager(TrainJobReconciler.FIELD_MANAGER).build();
    // resource(observed), not withName(...): fabric8 reads the object from the server first for the latter
    PrimaryUpdateAndCacheUtils.updateAndCacheResource(observed, context, UnaryOperator.identity(),
        resource -> client.resource(resource).subresource("status").patch(mergePatch, serialization.asJson(patch)),
        NO_RETRY, 0, 0);
    return true;
  }

  /** The status without empty lists and objects, which mean the same as absent ones. */
  private static JsonNode pruned(JsonNode node) {
    if (node == null || node.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (node instanceof ObjectNode object) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      object.fields().forEachRemaining(field -> {
        JsonNode value = pruned(field.getValue());
        if (!value.isNull() && !(value.isContainerNode() && value.isEmpty())) {
          copy.set(field.getKey(), value);
        }
      });
      return copy;
    }
    return node;
  }
}
