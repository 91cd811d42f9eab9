package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.kftrainer.apiserver.AdmissionChain.MUTATING;
import static io.kftrainer.apiserver.AdmissionChain.VALIDATING;
import static io.kftrainer.apiserver.KubeJson.metadata;
import static io.kftrainer.apiserver.KubeJson.now;
import static io.kftrainer.apiserver.KubeJson.parseObject;
import static io.kftrainer.apiserver.KubeJson.setOrRemove;
import static io.kftrainer.apiserver.StatusErrors.alreadyExists;
import static io.kftrainer.apiserver.StatusErrors.conflict;
import static io.kftrainer.apiserver.StatusErrors.invalid;
import static io.kftrainer.apiserver.StatusErrors.notFound;

/**
 * Creates (POST) and updates (PUT, and the commit of every patch): the body's unknown and repeated fields
 * ({@link FieldValidation}), server-owned metadata, status subresources, admission, schema validation, generation,
 * no-op detection, then a compare-and-set on the {@link Store}.
 */
final class CreateAndUpdateRequests {

  private static final String METADATA = "metadata";
  private static final String STATUS = "status";
  static final int MAX_ATTEMPTS = 64;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Store store;
  private final Validation validation;
  private final AdmissionChain admission;
  private final UnknownFields unknownFields;

  CreateAndUpdateRequests(Store store, Validation validation, AdmissionChain admission, UnknownFields unknownFields) {
    this.store = store;
    this.validation = validation;
    this.admission = admission;
    this.unknownFields = unknownFields;
  }

  Response create(Target target, String contentType, byte[] body) {
    FieldValidation directive = FieldValidation.of(target.rp(), "CreateOptions");
    ObjectNode object = parseObject(body, contentType);
    checkTypeMeta(target, object);
    List<String> warnings = new ArrayList<>();
    Response undecodable = decode(target, directive, contentType, body, object, warnings);
    if (undecodable != null) {
      return undecodable;
    }
    ObjectNode metadata = metadata(object);
    Response misplaced = placeInNamespace(target, metadata);
    if (misplaced != null) {
      return misplaced;
    }
    String name = metadata.path("name").asText("");
    if (name.isEmpty()) {
      String prefix = metadata.path("generateName").asText("");
      if (prefix.isEmpty()) {
        return invalid(target, "", List.of("metadata.name: Required value: name or generateName is required"));
      }
      metadata.put("name", prefix + randomSuffix());
    }
    Response response = createObject(target, object, warnings, AdmissionRequest.Operation.CREATE);
    return response.withWarnings(warnings);
  }

  /**
   * What kube-apiserver's decoder does with a create or update body ({@code object}, parsed from {@code body}):
   * drops the fields the kind does not declare and, under {@code Warn} or {@code Strict}, finds them and the keys
   * the body repeats (a YAML body's as go-yaml words them). {@code Warn} adds them to {@code warnings};
   * {@code Strict} answers them with kube's 400, which this returns; otherwise null.
   */
  private Response decode(Target target, FieldValidation directive, String contentType, byte[] body,
      ObjectNode object, List<String> warnings) {
    List<String> problems = new ArrayList<>();
    if (directive.reports()) {
      if (contentType != null && contentType.contains("yaml")) {
        String duplicates = DuplicateFields.yamlError(body);
        if (duplicates != null) {
          problems.add(duplicates);
        }
      } else {
        problems.addAll(DuplicateFields.jsonProblems(body));
      }
    }
    problems.addAll(unknownFields.drop(target, object));
    if (!directive.reports() || problems.isEmpty()) {
      return null;
    }
    if (directive == FieldValidation.STRICT) {
      // handlers' transformDecodeError: the kind and version of the body, defaulted from the URL
      String kind = target.kindName();
      return Response.status(400, "BadRequest", kind + " in version \"" + target.rp().version()
          + "\" cannot be handled as a " + kind + ": " + FieldValidation.strictDecodingError(problems));
    }
    warnings.addAll(FieldValidation.warnings(problems));
    return null;
  }

  /** Admission, defaults and validation, then the commit of a new object; 201 or the error. */
  Response createObject(Target target, ObjectNode object, List<String> warnings,
      AdmissionRequest.Operation operation) {
    ResourcePath rp = target.rp();
    ObjectNode metadata = metadata(object);
    for (String field : List.of("uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
        "deletionGracePeriodSeconds", "selfLink")) {
      metadata.remove(field);
    }
    if (isCrdMainResource(target)) {
      CrdStatus.ensure(object, null);
    } else if (target.statusSubresource() && !rp.group().isEmpty()) {
      object.remove(STATUS); // custom resources with a status subresource ignore status on create
    }
    List<String> metadataErrors = ObjectMetaValidation.errors(metadata);
    if (!metadataErrors.isEmpty()) {
      return invalid(target, metadata.path("name").asText(), metadataErrors);
    }
    validation.prepare(target, object);
    Response denied = admission.admit(MUTATING, operation, target, object, null, warnings);
    if (denied != null) {
      return denied;
    }
    validation.prepare(target, object);
    List<String> errors = validation.validate(target, object, null);
    if (!errors.isEmpty()) {
      return invalid(target, metadata(object).path("name").asText(), errors);
    }
    denied = admission.admit(VALIDATING, operation, target, object, null, warnings);
    if (denied != null) {
      return denied;
    }
    metadata = metadata(object);
    metadata.put("uid", UUID.randomUUID().toString());
    metadata.put("creationTimestamp", now());
    if (Generation.tracked(rp.group(), rp.plural())) {
      metadata.put("generation", 1);
    }
    if (rp.isDryRun()) {
      return store.get(target.kind(), rp.namespace(), metadata.path("name").asText()) != null
          ? alreadyExists(target, metadata.path("name").asText()) : Response.json(201, object);
    }
    Store.Stored stored = store.put(target.kind(), null, object);
    if (stored == null) {
      return alreadyExists(target, metadata.path("name").asText());
    }
    return Response.json(201, stored.json());
  }

  private static String randomSuffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  static void checkTypeMeta(Target target, ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText("");
    String kind = object.path("kind").asText("");
    if ((!apiVersion.isEmpty() && !apiVersion.equals(target.rp().apiVersion()))
        || (!kind.isEmpty() && !kind.equals(target.kindName()))) {
      throw new ApiException(Response.status(400, "BadRequest", "the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + target.rp().apiVersion() + ")"));
    }
    object.put("apiVersion", target.rp().apiVersion());
    object.put("kind", target.kindName());
  }

  /**
   * 400 when the object names a namespace other than the URL's; otherwise sets the URL's namespace (none for a
   * cluster-scoped kind) and returns null.
   */
  static Response placeInNamespace(Target target, ObjectNode metadata) {
    if (!target.namespaced()) {
      metadata.remove("namespace");
      return null;
    }
    String namespace = metadata.path("namespace").asText("");
    if (!namespace.isEmpty() && !namespace.equals(target.rp().namespace())) {
      return Response.status(400, "BadRequest",
          "the namespace of the provided object does not match the namespace sent on the request");
    }
    metadata.put("namespace", target.rp().namespace());
    return null;
  }

  /** 400 when the object's {@code metadata} names another object than the URL; null when it names none or it. */
  static Response nameMismatch(ResourcePath rp, JsonNode metadata) {
    String name = metadata.path("name").asText("");
    return name.isEmpty() || name.equals(rp.name()) ? null : Response.status(400, "BadRequest",
        "the name of the object (" + name + ") does not match the name on the URL (" + rp.name() + ")");
  }

  Response update(Target target, String contentType, byte[] body) {
    ResourcePath rp = target.rp();
    FieldValidation directive = FieldValidation.of(rp, "UpdateOptions");
    ObjectNode object = parseObject(body, contentType);
    checkTypeMeta(target, object);
    List<String> decodeWarnings = new ArrayList<>();
    Response undecodable = decode(target, directive, contentType, body, object, decodeWarnings);
    if (undecodable != null) {
      return undecodable;
    }
    Response misnamed = nameMismatch(rp, metadata(object));
    if (misnamed != null) {
      return misnamed;
    }
    String requested = metadata(object).path("resourceVersion").asText("");
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Stored current = store.get(target.kind(), rp.namespace(), rp.name());
      if (current == null) {
        return notFound(target);
      }
      if (!requested.isEmpty() && !requested.equals(Long.toString(current.resourceVersion()))) {
        return conflict(target);
      }
      List<String> warnings = new ArrayList<>(decodeWarnings);
      Response response = updateObject(target, current, object.deepCopy(), warnings);
      if (response != null) {
        return response.withWarnings(warnings);
      }
    }
    return conflict(target);
  }

  /**
   * Admission, validation and commit of a changed object. Returns null when {@code current} is no longer current
   * (the caller retries).
   */
  Response updateObject(Target target, Store.Stored current, ObjectNode changed, List<String> warnings) {
    ResourcePath rp = target.rp();
    ObjectNode candidate = finishUpdate(target, current.object(), changed);
    List<String> metadataErrors = ObjectMetaValidation.errors(metadata(candidate));
    if (!metadataErrors.isEmpty()) {
      return invalid(target, rp.name(), metadataErrors);
    }
    validation.prepare(target, candidate);
    Response denied = admission.admit(MUTATING, AdmissionRequest.Operation.UPDATE, target, candidate, current.object(),
        warnings);
    if (denied != null) {
      return denied;
    }
    candidate = finishUpdate(target, current.object(), candidate); // hooks may have touched what must not change
    validation.prepare(target, candidate);
    List<String> errors = validation.validate(target, candidate, current.object());
    if (!errors.isEmpty()) {
      return invalid(target, rp.name(), errors);
    }
    denied = admission.admit(VALIDATING, AdmissionRequest.Operation.UPDATE, target, candidate, current.object(), warnings);
    if (denied != null) {
      return denied;
    }
    return commitUpdate(target, current, candidate, rp.isDryRun());
  }

  /** Stores {@code candidate} over {@code current}: no-op detection, generation, finalizers; null on conflict. */
  Response commitUpdate(Target target, Store.Stored current, ObjectNode candidate, boolean dryRun) {
    ObjectNode withoutVersion = candidate.deepCopy();
    metadata(withoutVersion).put("resourceVersion", Long.toString(current.resourceVersion()));
    if (withoutVersion.equals(current.object())) {
      return Response.json(200, current.json()); // no-op: no new resourceVersion, no watch event
    }
    if (!target.rp().isStatus() && Generation.tracked(target.rp().group(), target.rp().plural())) {
      touchGeneration(current.object(), candidate);
    }
    if (dryRun) {
      return Response.json(200, candidate);
    }
    JsonNode metadata = candidate.path(METADATA);
    if (metadata.hasNonNull("deletionTimestamp") && (!metadata.path("finalizers").isArray()
        || metadata.path("finalizers").isEmpty())) {
      return store.remove(current) ? Response.json(200, candidate) : null;
    }
    Store.Stored stored = store.put(target.kind(), current, candidate);
    return stored == null ? null : Response.json(200, stored.json());
  }

  private static void touchGeneration(JsonNode current, ObjectNode candidate) {
    ObjectNode a = current.deepCopy();
    ObjectNode b = candidate.deepCopy();
    for (ObjectNode o : List.of(a, b)) {
      o.remove(METADATA);
      o.remove(STATUS);
    }
    long generation = current.path(METADATA).path("generation").asLong(1);
    metadata(candidate).put("generation", a.equals(b) ? generation : generation + 1);
  }

  /**
   * Turns a changed object into the object to store: a /status request changes only status, a main-resource request
   * does not change status when the kind has a status subresource, and the server-owned metadata stays.
   */
  private static ObjectNode finishUpdate(Target target, JsonNode current, ObjectNode changed) {
    ResourcePath rp = target.rp();
    ObjectNode result;
    if (rp.isStatus()) {
      result = current.deepCopy();
      setOrRemove(result, STATUS, changed.get(STATUS));
      setOrRemove(metadata(result), "managedFields", changed.path(METADATA).get("managedFields"));
    } else {
      result = changed;
      if (target.statusSubresource()) {
        setOrRemove(result, STATUS, current.get(STATUS));
      }
    }
    result.put("apiVersion", current.path("apiVersion").asText());
    result.put("kind", current.path("kind").asText());
    ObjectNode metadata = metadata(result);
    JsonNode currentMetadata = current.path(METADATA);
    for (String field : List.of("name", "namespace", "uid", "creationTimestamp", "resourceVersion", "generation",
        "deletionTimestamp", "deletionGracePeriodSeconds")) {
      setOrRemove(metadata, field, currentMetadata.get(field));
    }
    if (isCrdMainResource(target)) {
      CrdStatus.ensure(result, current.get(STATUS));
    }
    return result;
  }

  private static boolean isCrdMainResource(Target target) {
    return target.kind().equals(ApiHandler.CRDS) && target.rp().subresource() == null;
  }
}
