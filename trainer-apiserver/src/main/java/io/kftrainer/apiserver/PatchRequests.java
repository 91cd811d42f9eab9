package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.zjsonpatch.CompatibilityFlags;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import io.kftrainer.framework.merge.StrategicMerge;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

import static io.kftrainer.apiserver.KubeJson.metadata;
import static io.kftrainer.apiserver.KubeJson.parseYamlOrJson;
import static io.kftrainer.apiserver.StatusErrors.conflict;
import static io.kftrainer.apiserver.StatusErrors.details;
import static io.kftrainer.apiserver.StatusErrors.notFound;
import static io.kftrainer.apiserver.CreateAndUpdateRequests.MAX_ATTEMPTS;

/**
 * PATCH, every type: JSON patch, JSON merge patch, strategic merge patch ({@link StrategicMerge}) and
 * server-side apply ({@link ServerSideApply}, which also creates), committed through {@link CreateAndUpdateRequests}.
 */
final class PatchRequests {

  static final String APPLY_PATCH = "application/apply-patch+yaml";
  static final String MERGE_PATCH = "application/merge-patch+json";
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  static final String JSON_PATCH = "application/json-patch+json";
  private static final String METADATA = "metadata";
  private static final int UNPROCESSABLE = 422;
  private static final ObjectMapper JSON_MAPPER = Json.MAPPER;
  /** As evanphx/json-patch in kube-apiserver: removing a path that is not there is an error. */
  private static final EnumSet<CompatibilityFlags> JSON_PATCH_FLAGS =
      EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT);

  private enum PatchKind {
    APPLY, MERGE, STRATEGIC, JSON_PATCH
  }

  private final Store store;
  private final CreateAndUpdateRequests writes;
  private final MergeTypes mergeTypes;

  PatchRequests(Store store, CreateAndUpdateRequests writes, MergeTypes mergeTypes) {
    this.store = store;
    this.writes = writes;
    this.mergeTypes = mergeTypes;
  }

  Response patch(Target target, String contentType, byte[] body) {
    ResourcePath rp = target.rp();
    PatchKind kind = patchKind(contentType);
    if (kind == null) {
      return Response.status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
          + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
          + "application/apply-patch+yaml, application/strategic-merge-patch+json");
    }
    if (kind == PatchKind.STRATEGIC && !Discovery.isBuiltin(rp.group(), rp.plural())) {
      // custom resources have no Go types to take patch strategies from
      return Response.status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
          + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
          + "application/apply-patch+yaml");
    }
    JsonNode patch;
    try {
      patch = kind == PatchKind.JSON_PATCH ? JSON_MAPPER.readTree(body) : parseYamlOrJson(body);
    } catch (IOException e) {
      return Response.status(400, "BadRequest", "the body of the request could not be decoded: " + e.getMessage());
    }
    if (patch == null || (kind == PatchKind.JSON_PATCH ? !patch.isArray() : !patch.isObject())) {
      return Response.status(400, "BadRequest", "the body of the request is not a valid " + kind + " patch");
    }
    String fieldManager = rp.query().get("fieldManager");
    if (kind == PatchKind.APPLY) {
      if (fieldManager == null || fieldManager.isEmpty()) {
        return Response.status(UNPROCESSABLE, "Invalid", "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: "
            + "Required value: is required for apply patch");
      }
      if (!patch.hasNonNull("kind") || !patch.hasNonNull("apiVersion")) {
        return Response.status(400, "BadRequest",
            "invalid object type: apiVersion and kind are required for apply patch");
      }
      if (patch.path(METADATA).isObject()) {
        ((ObjectNode) patch.get(METADATA)).remove("managedFields");
      }
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Stored current = store.get(target.kind(), rp.namespace(), rp.name());
      List<String> warnings = new ArrayList<>();
      Response response;
      if (current == null) {
        if (kind != PatchKind.APPLY || rp.subresource() != null) {
          return notFound(target);
        }
        response = applyCreate(target, (ObjectNode) patch.deepCopy(), fieldManager, warnings);
      } else {
        response = patchExisting(target, kind, patch, current, fieldManager, warnings);
      }
      if (response != null) {
        return response.withWarnings(warnings);
      }
    }
    return Response.json(409, Response.failure(409, "Conflict", "Operation cannot be fulfilled on "
        + target.qualified() + " \"" + rp.name() + "\": the object is being modified concurrently, please retry",
        details(target, rp.name())));
  }

  private Response applyCreate(Target target, ObjectNode object, String fieldManager,
      List<String> warnings) {
    ResourcePath rp = target.rp();
    CreateAndUpdateRequests.checkTypeMeta(target, object);
    ObjectNode metadata = metadata(object);
    Response misnamed = CreateAndUpdateRequests.nameMismatch(rp, metadata);
    if (misnamed != null) {
      return misnamed;
    }
    metadata.put("name", rp.name());
    Response misplaced = CreateAndUpdateRequests.placeInNamespace(target, metadata);
    if (misplaced != null) {
      return misplaced;
    }
    ServerSideApply.Outcome outcome;
    try {
      outcome = ServerSideApply.apply(null, applyRequest(target, object, fieldManager), mergeType(target));
    } catch (IllegalArgumentException e) {
      return untypable(target, e);
    }
    Response response = writes.createObject(target, outcome.object(), warnings, AdmissionRequest.Operation.CREATE);
    return response.code() == 409 && "AlreadyExists".equals(reasonOf(response)) ? null : response;
  }

  /** kube-apiserver's words for a configuration that does not fit its type (a map-list item without its key). */
  private static Response untypable(Target target, IllegalArgumentException e) {
    ResourcePath rp = target.rp();
    return Response.status(UNPROCESSABLE, "Invalid", "failed to create typed patch object ("
        + rp.group() + "/" + rp.version() + ", Kind=" + target.kindName() + "): "
        + e.getMessage());
  }

  private ServerSideApply.Request applyRequest(Target target, ObjectNode config, String fieldManager) {
    ResourcePath rp = target.rp();
    return new ServerSideApply.Request(config, fieldManager, rp.apiVersion(), rp.isStatus(),
        target.statusSubresource(), "true".equals(rp.query().get("force")));
  }

  private MergeType mergeType(Target target) {
    return mergeTypes.of(target.rp().group(), target.rp().version(), target.kindName());
  }

  private static String reasonOf(Response response) {
    try {
      return JSON_MAPPER.readTree(response.body()).path("reason").asText();
    } catch (IOException e) {
      return "";
    }
  }

  private Response patchExisting(Target target, PatchKind kind, JsonNode patch, Store.Stored stored,
      String fieldManager, List<String> warnings) {
    ResourcePath rp = target.rp();
    JsonNode current = stored.object();
    JsonNode patched;
    try {
      switch (kind) {
        case APPLY:
          ServerSideApply.Outcome outcome;
          try {
            outcome = ServerSideApply.apply((ObjectNode) current,
                applyRequest(target, (ObjectNode) patch, fieldManager), mergeType(target));
          } catch (IllegalArgumentException e) {
            return untypable(target, e);
          }
          if (outcome.object() == null) {
            return Response.json(409, Response.failure(409, "Conflict",
                ServerSideApply.message(outcome.conflicts()), ServerSideApply.details(outcome.conflicts())));
          }
          patched = outcome.object();
          break;
        case MERGE:
          patched = JsonMergePatch.mergePatch(current, patch);
          break;
        case STRATEGIC:
          patched = StrategicMerge.apply(current, patch, mergeType(target));
          break;
        default:
          patched = JsonPatch.apply(patch, current.deepCopy(), JSON_PATCH_FLAGS);
      }
    } catch (JsonPatchException e) {
      // kube-apiserver answers every operation that does not apply (a failed test, a path that is not there)
      // with its generic 422, without the reason (NewGenericServerResponse)
      return Response.json(UNPROCESSABLE, Response.failure(UNPROCESSABLE, "Invalid",
          "the server rejected our request due to an error in our request", new StatusDetails()));
    } catch (IllegalArgumentException e) {
      return Response.status(UNPROCESSABLE, "Invalid", "the patch could not be applied: " + e.getMessage());
    }
    if (!patched.isObject()) {
      return Response.status(UNPROCESSABLE, "Invalid", "the patched object is not a JSON object");
    }
    Response misnamed = CreateAndUpdateRequests.nameMismatch(rp, patched.path(METADATA));
    if (misnamed != null) {
      return misnamed;
    }
    String requested = patched.path(METADATA).path("resourceVersion").asText("");
    if (!requested.isEmpty() && !requested.equals(Long.toString(stored.resourceVersion()))) {
      return conflict(target);
    }
    ObjectNode candidate = (ObjectNode) patched;
    return writes.updateObject(target, stored, candidate, warnings);
  }

  private static PatchKind patchKind(String contentType) {
    if (contentType == null) {
      return PatchKind.JSON_PATCH;
    }
    String mediaType = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    switch (mediaType) {
      case APPLY_PATCH:
        return PatchKind.APPLY;
      case MERGE_PATCH:
        return PatchKind.MERGE;
      case STRATEGIC_MERGE_PATCH:
        return PatchKind.STRATEGIC;
      case JSON_PATCH:
      case Response.JSON:
        return PatchKind.JSON_PATCH;
      default:
        return null;
    }
  }
}
