package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

/** The admission hooks ({@link AdmissionHook}) of the server, called on creates, updates and reviews. */
final class AdmissionChain {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionChain.class);
  private static final String METADATA = "metadata";
  private static final ObjectMapper JSON_MAPPER = Json.MAPPER;
  static final List<AdmissionHook.Phase> ALL_PHASES = List.of(AdmissionHook.Phase.values());
  static final List<AdmissionHook.Phase> MUTATING = List.of(AdmissionHook.Phase.MUTATING);
  static final List<AdmissionHook.Phase> VALIDATING = List.of(AdmissionHook.Phase.VALIDATING);
  static final int ADMISSIONS_IN_FLIGHT = 16;

  private final List<AdmissionHook> hooks = new CopyOnWriteArrayList<>();
  private final Semaphore admissions = new Semaphore(ADMISSIONS_IN_FLIGHT, true);

  void add(AdmissionHook hook) {
    hooks.add(Objects.requireNonNull(hook, "hook"));
  }

  boolean remove(AdmissionHook hook) {
    return hooks.remove(hook);
  }

  /**
   * Runs the hooks of {@code phases} on {@code object} (mutating it in place). Returns the denial response, or null
   * when admitted. As kube-apiserver: mutating hooks, then schema validation, then validating hooks, so that a
   * validating webhook never sees an object of the wrong shape.
   * At most {@link #ADMISSIONS_IN_FLIGHT} requests run their hooks at once, the others wait their turn: hooks call
   * webhook servers, which a burst of simultaneous requests would otherwise flood (kube-apiserver bounds the
   * mutating requests in flight likewise).
   */
  Response admit(List<AdmissionHook.Phase> phases, AdmissionRequest.Operation operation, Target target,
      ObjectNode object, JsonNode oldObject, List<String> warnings) {
    if (hooks.stream().noneMatch(hook -> phases.contains(hook.phase()))) {
      return null;
    }
    try {
      admissions.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Response.status(503, "ServiceUnavailable", "interrupted while waiting for admission");
    }
    try {
      return runHooks(phases, operation, target, object, oldObject, warnings);
    } finally {
      admissions.release();
    }
  }

  private Response runHooks(List<AdmissionHook.Phase> phases, AdmissionRequest.Operation operation, Target target,
      ObjectNode object, JsonNode oldObject, List<String> warnings) {
    ResourcePath rp = target.rp();
    for (AdmissionHook.Phase phase : phases) {
      for (AdmissionHook hook : hooks) {
        if (hook.phase() != phase) {
          continue;
        }
        AdmissionRequest request = new AdmissionRequest(UUID.randomUUID().toString(), operation, rp.group(),
            rp.version(), object.path("kind").asText(null), rp.plural(), rp.subresource(), rp.namespace(),
            object.path(METADATA).path("name").asText(rp.name()), toResource(object),
            oldObject == null ? null : toResource(oldObject), rp.isDryRun());
        AdmissionResponse response;
        try {
          if (!hook.handles(request)) {
            continue;
          }
          response = Objects.requireNonNull(hook.admit(request), "admission hook returned null");
        } catch (RuntimeException e) {
          LOG.warn("admission hook {} failed", hook, e);
          return Response.status(500, "InternalError", "admission hook failed: " + e.getMessage());
        }
        warnings.addAll(response.warnings());
        if (!response.allowed()) {
          return denial(response.status());
        }
        if (response.isMutation()) {
          if (phase == AdmissionHook.Phase.VALIDATING) {
            return Response.status(500, "InternalError", "validating admission hook " + hook
                + " returned a mutation");
          }
          JsonNode mutated;
          try {
            mutated = response.jsonPatch() != null ? JsonPatch.apply(response.jsonPatch(), object.deepCopy())
                : JSON_MAPPER.valueToTree(response.mutated());
          } catch (JsonPatchException | IllegalArgumentException e) {
            return Response.status(500, "InternalError", "admission hook returned an invalid patch: "
                + e.getMessage());
          }
          object.removeAll();
          object.setAll((ObjectNode) mutated);
        }
      }
    }
    return null;
  }

  private static Response denial(Status status) {
    Status copy = Json.KUBERNETES.clone(status);
    copy.setApiVersion("v1");
    copy.setKind("Status");
    copy.setStatus("Failure");
    if (copy.getCode() == null || copy.getCode() == 0) {
      copy.setCode(400);
    }
    if (copy.getReason() == null || copy.getReason().isEmpty()) {
      copy.setReason(AdmissionResponse.reasonFor(copy.getCode()));
    }
    return Response.json(copy.getCode(), copy);
  }

  private static GenericKubernetesResource toResource(JsonNode node) {
    return JSON_MAPPER.convertValue(node, GenericKubernetesResource.class);
  }
}
