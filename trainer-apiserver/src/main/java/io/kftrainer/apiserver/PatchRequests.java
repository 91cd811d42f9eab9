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
 * Unknown and repeated fields as kube-apiserver's patch handler finds them ({@link FieldValidation}): the repeated
 * keys of the patch and the unknown fields of the patched object; for apply, the fields its type does not declare
 * (always refused) and the repeated keys of the configuration.
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

  /** The fields of a JSON patch operation (evanphx/json-patch's, as kube-apiserver decodes them strictly). */
  private static final java.util.Set<String> OPERATION_FIELDS = java.util.Set.of("op", "path", "from", "value");

  private final Store store;
  private final CreateAndUpdateRequests writes;
  private final MergeTypes mergeTypes;
  private final UnknownFields unknownFields;

  PatchRequests(Store store, CreateAndUpdateRequests writes, MergeTypes mergeTypes, UnknownFields unknownFields) {
    this.store = store;
    this.writes = writes;
    this.mergeTypes = mergeTypes;
    this.unknownFields = unknownFields;
  }

  /** One request's patch: its type, parsed body and directive, and what the directive finds in the body. */
  private record Patch(PatchKind kind, JsonNode tree, FieldValidation directive, List<String> problems) {
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
    String fieldManager = rp.query().get("fieldManager");
    List<String> optionErrors = new ArrayList<>();
    if (kind == PatchKind.APPLY && (fieldManager == null || fieldManager.isEmpty())) {
      optionErrors.add("fieldManager: Required value: is required for apply patch");
    }
    String unsupported = FieldValidation.optionError(rp);
    if (unsupported != null) {
      optionErrors.add(unsupported);
    }
    if (!optionErrors.isEmpty()) {
      return FieldValidation.invalidOptions("PatchOptions", optionErrors);
    }
    FieldValidation directive = FieldValidation.of(rp, "PatchOptions");
    JsonNode patch;
    try {
      patch = kind == PatchKind.JSON_PATCH ? JSON_MAPPER.readTree(body) : parseYamlOrJson(body);
    } catch (IOException e) {
      return Response.status(400, "BadRequest", "the body of the request could not be decoded: " + e.getMessage());
    }
    if (patch == null || (kind == PatchKind.JSON_PATCH ? !patch.isArray() : !patch.isObject())) {
      return Response.status(400, "BadRequest", "the body of the request is not a valid " + kind + " patch");
    }
    if (kind == PatchKind.APPLY) {
      if (!patch.hasNonNull("kind") || !patch.hasNonNull("apiVersion")) {
        return Response.status(400, "BadRequest",
            "invalid object type: apiVersion and kind are required for apply patch");
      }
      if (patch.path(METADATA).isObject()) {
        ((ObjectNode) patch.get(METADATA)).remove("managedFields");
      }
    }
    Patch request = new Patch(kind, patch, directive, directive.reports() ? bodyProblems(kind, body, patch)
        : List.of());
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Stored current = store.get(target.kind(), rp.namespace(), rp.name());
      List<String> warnings = new ArrayList<>();
      Response response;
      if (current == null) {
        if (kind != PatchKind.APPLY || rp.subresource() != null) {
          return notFound(target);
        }
        response = applyCreate(target, request, fieldManager, warnings);
      } else {
        response = patchExisting(target, request, current, fieldManager, warnings);
      }
      if (response != null) {
        return response.withWarnings(warnings);
      }
    }
    return Response.json(409, Response.failure(409, "Conflict", "Operation cannot be fulfilled on "
        + target.qualified() + " \"" + rp.name() + "\": the object is being modified concurrently, please retry",
        details(target, rp.name())));
  }

  /**
   * The repeated keys of the body as kube's patch handler decodes it strictly: a merge or strategic patch's by
   * sigs.k8s.io/json ({@code duplicate field "spec.a"}); a JSON patch's, and the unknown fields of its operations, by
   * sigs.k8s.io/json into its operations ({@code json patch unknown field "[0].valu"}); an apply configuration's by
   * sigs.k8s.io/yaml's {@code UnmarshalStrict} (go-yaml's error, one for all).
   */
  private static List<String> bodyProblems(PatchKind kind, byte[] body, JsonNode patch) {
    if (kind == PatchKind.APPLY) {
      String duplicates = DuplicateFields.yamlError(body);
      return duplicates == null ? List.of() : List.of("error converting YAML to JSON: " + duplicates);
    }
    if (kind != PatchKind.JSON_PATCH) {
      return DuplicateFields.jsonProblems(body);
    }
    List<String> problems = new ArrayList<>();
    DuplicateFields.jsonProblems(body).forEach(problem -> problems.add("json patch " + problem));
    for (int i = 0; i < patch.size(); i++) {
      for (String field : iterable(patch.get(i))) {
        if (!OPERATION_FIELDS.contains(field)) {
          problems.add("json patch unknown field \"[" + i + "]." + field + "\"");
        }
      }
    }
    return problems;
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /**
   * kube-apiserver's answer to the repeated keys of an apply configuration, once it is applied: under
   * {@code Strict} a 400 ({@code error strict decoding YAML: ...}), under {@code Warn} one warning per key; null
   * when the apply goes on.
   */
  private static Response applyDuplicates(Patch patch, List<String> warnings) {
    if (patch.problems().isEmpty()) {
      return null;
    }
    if (patch.directive() == FieldValidation.STRICT) {
      return Response.status(400, "BadRequest", "error strict decoding YAML: " + patch.problems().get(0));
    }
    warnings.addAll(FieldValidation.warnings(patch.problems()));
    return null;
  }

  private Response applyCreate(Target target, Patch patch, String fieldManager,
      List<String> warnings) {
    ResourcePath rp = target.rp();
    ObjectNode object = (ObjectNode) patch.tree().deepCopy();
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
    List<String> undeclared = UnknownFields.undeclared(patch.tree(), mergeType(target));
    if (!undeclared.isEmpty()) {
      return UnknownFields.typingFailure(target, patch.tree(), undeclared);
    }
    ServerSideApply.Outcome outcome;
    try {
      outcome = ServerSideApply.apply(null, applyRequest(target, object, fieldManager), mergeType(target));
    } catch (IllegalArgumentException e) {
      return untypable(target, e);
    }
    Response refused = applyDuplicates(patch, warnings);
    if (refused != null) {
      return refused;
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
        target.statusSubresource(), QueryBool.of(rp.query().get("force")));
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

  private Response patchExisting(Target target, Patch request, Store.Stored stored,
      String fieldManager, List<String> warnings) {
    ResourcePath rp = target.rp();
    JsonNode current = stored.object();
    JsonNode patch = request.tree();
    JsonNode patched;
    try {
      switch (request.kind()) {
        case APPLY:
          List<String> undeclared = UnknownFields.undeclared(patch, mergeType(target));
          if (!undeclared.isEmpty()) {
            return UnknownFields.typingFailure(target, patch, undeclared);
          }
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
          Response refused = applyDuplicates(request, warnings);
          if (refused != null) {
            return refused;
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
    if (request.kind() != PatchKind.APPLY) {
      Response undecodable = decode(target, request, (ObjectNode) patched, warnings);
      if (undecodable != null) {
        return undecodable;
      }
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

  /**
   * What kube-apiserver's patch handler does with the patched object, as its decoder reads it: drops the fields the
   * kind does not declare and, with the repeated keys of the patch, reports them under {@code Warn} (warnings) and
   * {@code Strict}: a 422 on the field {@code patch}, whose value is the patched object as kube encodes it (a strategic
   * patch: the patch, as Go prints its map). Null when the patch goes on.
   */
  private Response decode(Target target, Patch request, ObjectNode patched, List<String> warnings) {
    String value = request.directive() != FieldValidation.STRICT ? null
        : request.kind() == PatchKind.STRATEGIC ? GoText.value(request.tree()) : GoText.json(patched);
    List<String> problems = new ArrayList<>(request.problems());
    problems.addAll(unknownFields.drop(target, patched));
    if (!request.directive().reports() || problems.isEmpty()) {
      return null;
    }
    if (value != null) {
      return StatusErrors.invalid("", "", "", List.of("patch: Invalid value: " + GoText.quote(value) + ": "
          + FieldValidation.strictDecodingError(problems)));
    }
    warnings.addAll(FieldValidation.warnings(problems));
    return null;
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
