package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.server.mock.ExclusiveCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.server.mock.crud.PostHandler;
import io.fabric8.kubernetes.client.server.mock.crud.PutHandler;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The request dispatcher of {@link EmbeddedApiServer}: fabric8's CRUD dispatcher with server-side apply, RFC 7386
 * merge patch, an approximate strategic merge patch, request accounting, discovery, Tables, and admission hooks.
 * GET (objects, lists, watches) and DELETE are fabric8's.
 */
final class ApiServerDispatcher extends ExclusiveCrudDispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(ApiServerDispatcher.class);

  static final String APPLY_PATCH = "application/apply-patch+yaml";
  static final String MERGE_PATCH = "application/merge-patch+json";
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  static final String JSON_PATCH = "application/json-patch+json";
  private static final String JSON = "application/json";
  private static final String METADATA = "metadata";
  private static final String STATUS = "status";
  private static final int MAX_OPTIMISTIC_ATTEMPTS = 16;
  private static final int UNPROCESSABLE = 422;

  private static final ObjectMapper JSON_MAPPER = Json.MAPPER;
  private static final ObjectMapper YAML_MAPPER = new ObjectMapper(new YAMLFactory());

  private enum PatchKind {
    APPLY, MERGE, STRATEGIC, JSON_PATCH
  }

  /** A stored object as read under the lock: its key in the store, its JSON, and whether its kind has /status. */
  private record Stored(AttributeSet key, String json, boolean statusSubresource) {
  }

  private final RequestLog requestLog;
  private final List<AdmissionHook> hooks = new CopyOnWriteArrayList<>();
  private final Discovery discovery;
  private final PostHandler postHandler;
  private final PutHandler putHandler;
  private volatile Runnable afterRequest = () -> {
  };

  ApiServerDispatcher(RequestLog requestLog, String serverVersion) {
    this.requestLog = requestLog;
    this.discovery = new Discovery(this::storedCustomResourceDefinitions, serverVersion);
    this.postHandler = new PostHandler((KubernetesAttributesExtractor) getAttributeExtractor(), this);
    this.putHandler = new PutHandler(this);
  }

  void setAfterRequest(Runnable afterRequest) {
    this.afterRequest = Objects.requireNonNull(afterRequest);
  }

  void addHook(AdmissionHook hook) {
    hooks.add(Objects.requireNonNull(hook, "hook"));
  }

  boolean removeHook(AdmissionHook hook) {
    return hooks.remove(hook);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // routing

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    final byte[] body = request.getBody().getBytes();
    final String rawPath = request.getPath();
    final String method = request.getMethod();
    final int q = rawPath.indexOf('?');
    requestLog.add(new ApiRequest(method, q < 0 ? rawPath : rawPath.substring(0, q),
        q < 0 ? null : rawPath.substring(q + 1), request.getHeader("Content-Type"), Instant.now()));
    try {
      final MockResponse response = route(request, method, rawPath, body);
      return finish(response, rawPath);
    } catch (RuntimeException e) {
      LOG.warn("{} {} failed", method, rawPath, e);
      return status(500, "InternalError", String.valueOf(e));
    } finally {
      afterRequest.run();
    }
  }

  private MockResponse route(RecordedRequest request, String method, String rawPath, byte[] body) {
    if (method == null || request.method() == null) {
      return status(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
    }
    final String path = rawPath.indexOf('?') < 0 ? rawPath : rawPath.substring(0, rawPath.indexOf('?'));
    final ResourcePath rp = ResourcePath.parse(rawPath);
    String contentType = request.getHeader("Content-Type");
    byte[] content = body;
    if (body.length > 0 && contentType != null && contentType.contains("protobuf")) {
      // kubectl create namespace|configmap|secret|serviceaccount write protobuf and do not fall back to JSON
      try {
        content = KubernetesProtobuf.decode(body).toString().getBytes(StandardCharsets.UTF_8);
        contentType = JSON;
      } catch (IOException e) {
        return status(415, "UnsupportedMediaType", "this server reads JSON and YAML; " + e.getMessage()
            + " (with kubectl: '... --dry-run=client -o yaml | kubectl create -f -')");
      }
    } else if (body.length > 0 && contentType != null && !contentType.contains("json")
        && !contentType.contains("yaml")) {
      return status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media "
          + "types include: application/json, application/yaml");
    }
    switch (request.method()) {
      case GET: {
        if (rp == null) {
          return discovery.handle(path, request.getHeader("Host"));
        }
        if (!rp.isWatch() && TableConverter.wantsTable(request.getHeader("Accept"))) {
          return tableOf(rp, rawPath);
        }
        return rp.isWatch() ? super.handleGet(rawPath) : get(rp, rawPath);
      }
      case POST:
        return rp == null || rp.name() != null ? super.handleCreate(copy(request, content))
            : create(rp, contentType, content);
      case PUT:
        return rp == null || rp.name() == null ? notAllowed() : update(rp, contentType, content);
      case PATCH:
        return rp == null || rp.name() == null ? notAllowed() : patch(rp, contentType, content);
      case DELETE:
        return rp == null ? notAllowed() : super.handleDelete(rawPath);
      default:
        return notAllowed();
    }
  }

  private static RecordedRequest copy(RecordedRequest request, byte[] body) {
    return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(),
        new io.fabric8.mockwebserver.http.Buffer(body));
  }

  /** Fills empty error bodies with a Status, and sets a JSON content type. */
  private static MockResponse finish(MockResponse response, String rawPath) {
    if (response == null) {
      return notAllowed();
    }
    if (response.getWebSocketListener() != null) {
      return response;
    }
    boolean emptyBody = response.getBody() == null || response.getBody().size() == 0;
    if (response.code() == 404 && emptyBody) {
      ResourcePath rp = ResourcePath.parse(rawPath);
      return rp == null ? status(404, "NotFound", "the server could not find the requested resource") : notFound(rp);
    }
    if (!emptyBody && response.header("Content-Type") == null) {
      response.setHeader("Content-Type", JSON);
    }
    return response;
  }

  static MockResponse notFound(ResourcePath rp) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setCode(404);
    status.setReason("NotFound");
    status.setMessage(qualifiedResource(rp) + (rp.name() != null ? " \"" + rp.name() + "\"" : "") + " not found");
    if (rp.name() != null) {
      StatusDetails details = new StatusDetails();
      details.setName(rp.name());
      details.setGroup(rp.group());
      details.setKind(rp.plural());
      status.setDetails(details);
    }
    return json(404, status);
  }

  private static String qualifiedResource(ResourcePath rp) {
    return rp.group().isEmpty() ? rp.plural() : rp.plural() + "." + rp.group();
  }

  private static String quote(String s) {
    try {
      return JSON_MAPPER.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static MockResponse status(int code, String reason, String message) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setCode(code);
    status.setReason(reason);
    status.setMessage(message);
    return json(code, status);
  }

  static MockResponse json(int code, Object body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", JSON)
        .setBody(body instanceof String ? (String) body : Serialization.asJson(body));
  }

  private static MockResponse notAllowed() {
    return status(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // POST and PUT: admission, then fabric8's handlers under the write lock

  private MockResponse create(ResourcePath rp, String contentType, byte[] body) {
    final ObjectNode object;
    try {
      object = parseObject(body, contentType);
    } catch (IOException e) {
      return status(400, "BadRequest", "the body of the request could not be decoded: " + e.getMessage());
    }
    prepareForCreate(rp, object);
    List<String> warnings = new ArrayList<>();
    MockResponse denied = admit(AdmissionRequest.Operation.CREATE, rp, object, null, warnings);
    if (denied != null) {
      return denied;
    }
    final ResourcePath target = rp.withName(metadata(object).path("name").asText(""));
    final String json = object.toString();
    return withWarnings(exclusively(() -> {
      if (!target.name().isEmpty() && findResource(getKey(target.objectPath())) != null) {
        return alreadyExists(target);
      }
      return rp.isDryRun() ? json(201, object) : postHandler.handle(rp.collectionPath(), JSON, json);
    }), warnings);
  }

  /** kube-apiserver's answer to a create of an existing object: 409 with reason AlreadyExists. */
  private static MockResponse alreadyExists(ResourcePath rp) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setCode(409);
    status.setReason("AlreadyExists");
    status.setMessage(qualifiedResource(rp) + " \"" + rp.name() + "\" already exists");
    StatusDetails details = new StatusDetails();
    details.setName(rp.name());
    details.setGroup(rp.group());
    details.setKind(rp.plural());
    status.setDetails(details);
    return json(409, status);
  }

  private MockResponse update(ResourcePath rp, String contentType, byte[] body) {
    final ObjectNode object;
    try {
      object = parseObject(body, contentType);
    } catch (IOException e) {
      return status(400, "BadRequest", "the body of the request could not be decoded: " + e.getMessage());
    }
    if (rp.namespace() == null) {
      metadata(object).remove("namespace");
    }
    List<String> warnings = new ArrayList<>();
    if (!hooks.isEmpty() || rp.isDryRun() || isCrdMainResource(rp)) {
      Stored stored = read(rp);
      if (stored == null) {
        return notFound(rp);
      }
      if (isCrdMainResource(rp)) {
        CrdStatus.ensure(object, parse(stored.json()).get(STATUS));
      }
      MockResponse denied = admit(AdmissionRequest.Operation.UPDATE, rp, object, parse(stored.json()), warnings);
      if (denied != null) {
        return denied;
      }
      if (rp.isDryRun()) {
        return withWarnings(json(200, object), warnings);
      }
    }
    final String json = object.toString();
    final String path = rp.objectPath() + (rp.subresource() != null ? "/" + rp.subresource() : "");
    return withWarnings(exclusively(() -> putHandler.handle(path, JSON, json)), warnings);
  }

  private void prepareForCreate(ResourcePath rp, ObjectNode object) {
    ObjectNode metadata = metadata(object);
    if (rp.namespace() == null) {
      // cluster-scoped (or a namespaced kind posted without namespace): like the API server, drop the namespace
      metadata.remove("namespace");
    } else if (!metadata.hasNonNull("namespace")) {
      metadata.put("namespace", rp.namespace());
    }
    if (isCrdMainResource(rp)) {
      CrdStatus.ensure(object, null);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // PATCH: every patch type, server-side apply included

  private MockResponse patch(ResourcePath rp, String contentType, byte[] body) {
    final PatchKind kind = patchKind(contentType);
    if (kind == null) {
      return status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted "
          + "media types include: application/json-patch+json, application/merge-patch+json, "
          + "application/apply-patch+yaml, application/strategic-merge-patch+json");
    }
    final JsonNode patch;
    try {
      patch = kind == PatchKind.APPLY ? parseYamlOrJson(body) : JSON_MAPPER.readTree(body);
    } catch (IOException e) {
      return status(400, "BadRequest", "the body of the request could not be decoded: " + e.getMessage());
    }
    if (patch == null || (kind == PatchKind.JSON_PATCH ? !patch.isArray() : !patch.isObject())) {
      return status(400, "BadRequest", "the body of the request is not a valid " + kind + " patch");
    }
    if (kind == PatchKind.APPLY) {
      String fieldManager = rp.query().get("fieldManager");
      if (fieldManager == null || fieldManager.isEmpty()) {
        return status(UNPROCESSABLE, "Invalid",
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
      }
      if (!patch.hasNonNull("kind") || !patch.hasNonNull("apiVersion")) {
        return status(400, "BadRequest", "invalid object type: apiVersion and kind are required for apply patch");
      }
      if (patch.path(METADATA).isObject()) {
        ((ObjectNode) patch.get(METADATA)).remove("managedFields");
      }
    }
    for (int attempt = 0; attempt < MAX_OPTIMISTIC_ATTEMPTS; attempt++) {
      final Stored stored = read(rp);
      final List<String> warnings = new ArrayList<>();
      final MockResponse response;
      if (stored == null) {
        if (kind != PatchKind.APPLY || rp.subresource() != null) {
          return notFound(rp);
        }
        response = applyCreate(rp, (ObjectNode) patch.deepCopy(), patch, warnings);
      } else {
        response = patchExisting(rp, kind, patch, stored, warnings);
      }
      if (response != null) {
        return withWarnings(response, warnings);
      }
      LOG.debug("{} changed while patching it, retrying", rp.objectPath());
    }
    return status(409, "Conflict", "Operation cannot be fulfilled on " + qualifiedResource(rp) + " \"" + rp.name()
        + "\": the object is being modified concurrently, please retry");
  }

  /** Server-side apply of an absent object: create it (201). Returns null when someone created it meanwhile. */
  private MockResponse applyCreate(ResourcePath rp, ObjectNode object, JsonNode appliedConfig,
      List<String> warnings) {
    ObjectNode metadata = metadata(object);
    String name = metadata.path("name").asText("");
    if (name.isEmpty()) {
      metadata.put("name", rp.name());
    } else if (!name.equals(rp.name())) {
      return status(400, "BadRequest", "the name of the object (" + name + ") does not match the name on the URL ("
          + rp.name() + ")");
    }
    String namespace = metadata.path("namespace").asText("");
    if (rp.namespace() != null && !namespace.isEmpty() && !namespace.equals(rp.namespace())) {
      return status(400, "BadRequest", "the namespace of the object (" + namespace
          + ") does not match the namespace on the URL (" + rp.namespace() + ")");
    }
    prepareForCreate(rp, object);
    MockResponse denied = admit(AdmissionRequest.Operation.CREATE, rp, object, null, warnings);
    if (denied != null) {
      return denied;
    }
    metadata(object).remove("managedFields");
    ManagedFields.recordApply(object, appliedConfig, rp.query().get("fieldManager"), rp.apiVersion(), false,
        statusSubresource(rp));
    if (rp.isDryRun()) {
      return json(201, object);
    }
    final String json = object.toString();
    return exclusively(() -> {
      if (findResource(getKey(rp.objectPath())) != null) {
        return null; // created meanwhile: retry as an update
      }
      return postHandler.handle(rp.collectionPath(), JSON, json);
    });
  }

  /** Patch of an existing object. Returns null when the object changed since {@code stored} was read. */
  private MockResponse patchExisting(ResourcePath rp, PatchKind kind, JsonNode patch, Stored stored,
      List<String> warnings) {
    final JsonNode current = parse(stored.json());
    final JsonNode patched;
    try {
      switch (kind) {
        case APPLY:
        case MERGE:
          patched = Patches.mergePatch(current, patch);
          break;
        case STRATEGIC:
          patched = Patches.strategicMergePatch(current, patch);
          break;
        default:
          patched = JsonPatch.apply(patch, current.deepCopy());
      }
    } catch (JsonPatchException | IllegalArgumentException e) {
      return status(UNPROCESSABLE, "Invalid", "the patch could not be applied: " + e.getMessage());
    }
    if (!patched.isObject()) {
      return status(UNPROCESSABLE, "Invalid", "the patched object is not a JSON object");
    }
    MockResponse invalid = validateIdentity(rp, current, patched);
    if (invalid != null) {
      return invalid;
    }
    ObjectNode candidate = finishUpdate(rp, current, (ObjectNode) patched, stored.statusSubresource());
    MockResponse denied = admit(AdmissionRequest.Operation.UPDATE, rp, candidate, current, warnings);
    if (denied != null) {
      return denied;
    }
    // hooks may have touched what an update must not change
    candidate = finishUpdate(rp, current, candidate, stored.statusSubresource());
    if (kind == PatchKind.APPLY) {
      setOrRemove(metadata(candidate), "managedFields", current.path(METADATA).get("managedFields"));
      ManagedFields.recordApply(candidate, patch, rp.query().get("fieldManager"), rp.apiVersion(), rp.isStatus(),
          stored.statusSubresource());
    }
    if (candidate.equals(current)) {
      return json(200, stored.json()); // no-op: no new resourceVersion, no watch event
    }
    if (rp.isDryRun()) {
      return json(200, candidate);
    }
    final ObjectNode toStore = candidate;
    return exclusively(() -> {
      Map.Entry<AttributeSet, String> now = findResource(getKey(rp.objectPath()));
      if (now == null || !now.getValue().equals(stored.json())) {
        return null;
      }
      if (!rp.isStatus()) {
        touchGeneration(current, toStore);
      }
      touchResourceVersion(current, toStore);
      String json = toStore.toString();
      GenericKubernetesResource resource = Serialization.unmarshal(json, GenericKubernetesResource.class);
      if (resource.isMarkedForDeletion() && resource.getFinalizers().isEmpty()) {
        processEvent(rp.objectPath(), getKey(rp.objectPath()), now.getKey(), null, null);
      } else {
        processEvent(rp.objectPath(), getKey(rp.objectPath()), now.getKey(), null, json);
      }
      return json(200, json);
    });
  }

  private static MockResponse validateIdentity(ResourcePath rp, JsonNode current, JsonNode patched) {
    String name = patched.path(METADATA).path("name").asText("");
    if (!name.isEmpty() && !name.equals(rp.name())) {
      return status(400, "BadRequest", "the name of the object (" + name + ") does not match the name on the URL ("
          + rp.name() + ")");
    }
    String namespace = patched.path(METADATA).path("namespace").asText("");
    if (rp.namespace() != null && !namespace.isEmpty() && !namespace.equals(rp.namespace())) {
      return status(400, "BadRequest", "the namespace of the object (" + namespace
          + ") does not match the namespace on the URL (" + rp.namespace() + ")");
    }
    String currentVersion = current.path(METADATA).path("resourceVersion").asText("");
    String requestedVersion = patched.path(METADATA).path("resourceVersion").asText("");
    if (!requestedVersion.isEmpty() && !requestedVersion.equals(currentVersion)) {
      return status(409, "Conflict", "Operation cannot be fulfilled on " + qualifiedResource(rp) + " \""
          + rp.name() + "\": the object has been modified; please apply your changes to the latest version and "
          + "try again");
    }
    return null;
  }

  /**
   * Turns a patched object into the object to store: a /status request changes only status, a main-resource request
   * does not change status when the kind has a status subresource, and the server-owned metadata stays.
   */
  private static ObjectNode finishUpdate(ResourcePath rp, JsonNode current, ObjectNode patched,
      boolean statusSubresource) {
    ObjectNode result;
    if (rp.isStatus()) {
      result = current.deepCopy();
      setOrRemove(result, STATUS, patched.get(STATUS));
    } else {
      result = patched;
      if (statusSubresource) {
        setOrRemove(result, STATUS, current.get(STATUS));
      }
    }
    ObjectNode metadata = metadata(result);
    JsonNode currentMetadata = current.path(METADATA);
    for (String field : List.of("namespace", "uid", "creationTimestamp", "resourceVersion", "generation",
        "deletionTimestamp")) {
      setOrRemove(metadata, field, currentMetadata.get(field));
    }
    if (isCrdMainResource(rp)) {
      CrdStatus.ensure(result, current.get(STATUS));
    }
    return result;
  }

  private static void setOrRemove(ObjectNode node, String field, JsonNode value) {
    if (value == null || value.isNull()) {
      node.remove(field);
    } else {
      node.set(field, value.deepCopy());
    }
  }

  private static PatchKind patchKind(String contentType) {
    if (contentType == null) {
      return PatchKind.JSON_PATCH;
    }
    String mediaType = contentType.split(";")[0].trim().toLowerCase(java.util.Locale.ROOT);
    switch (mediaType) {
      case APPLY_PATCH:
        return PatchKind.APPLY;
      case MERGE_PATCH:
        return PatchKind.MERGE;
      case STRATEGIC_MERGE_PATCH:
        return PatchKind.STRATEGIC;
      case JSON_PATCH:
      case JSON:
        return PatchKind.JSON_PATCH;
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // admission

  /**
   * Runs the hooks on {@code object} (mutating it in place). Returns the denial response, or null when admitted.
   */
  private MockResponse admit(AdmissionRequest.Operation operation, ResourcePath rp, ObjectNode object,
      JsonNode oldObject, List<String> warnings) {
    if (hooks.isEmpty()) {
      return null;
    }
    for (AdmissionHook.Phase phase : AdmissionHook.Phase.values()) {
      for (AdmissionHook hook : hooks) {
        if (hook.phase() != phase) {
          continue;
        }
        AdmissionRequest request = new AdmissionRequest(UUID.randomUUID().toString(), operation, rp.group(),
            rp.version(), object.path("kind").asText(null), rp.plural(), rp.subresource(), rp.namespace(),
            object.path(METADATA).path("name").asText(rp.name()), toResource(object),
            oldObject == null ? null : toResource(oldObject), rp.isDryRun());
        final AdmissionResponse response;
        try {
          if (!hook.handles(request)) {
            continue;
          }
          response = Objects.requireNonNull(hook.admit(request), "admission hook returned null");
        } catch (RuntimeException e) {
          LOG.warn("admission hook {} failed", hook, e);
          return status(500, "InternalError", "admission hook failed: " + e.getMessage());
        }
        warnings.addAll(response.warnings());
        if (!response.allowed()) {
          return denial(response.status());
        }
        if (response.isMutation()) {
          if (phase == AdmissionHook.Phase.VALIDATING) {
            return status(500, "InternalError", "validating admission hook " + hook + " returned a mutation");
          }
          JsonNode mutated;
          try {
            mutated = response.jsonPatch() != null ? JsonPatch.apply(response.jsonPatch(), object.deepCopy())
                : JSON_MAPPER.valueToTree(response.mutated());
          } catch (JsonPatchException | IllegalArgumentException e) {
            return status(500, "InternalError", "admission hook returned an invalid patch: " + e.getMessage());
          }
          object.removeAll();
          object.setAll((ObjectNode) mutated);
        }
      }
    }
    return null;
  }

  private static MockResponse denial(Status status) {
    Status copy = Serialization.clone(status);
    copy.setApiVersion("v1");
    copy.setKind("Status");
    copy.setStatus("Failure");
    if (copy.getCode() == null || copy.getCode() == 0) {
      copy.setCode(400);
    }
    if (copy.getReason() == null || copy.getReason().isEmpty()) {
      copy.setReason(AdmissionResponse.reasonFor(copy.getCode()));
    }
    return json(copy.getCode(), copy);
  }

  private static MockResponse withWarnings(MockResponse response, List<String> warnings) {
    for (String warning : warnings) {
      response.addHeader("Warning", "299 - " + quote(warning));
    }
    return response;
  }

  private static GenericKubernetesResource toResource(JsonNode node) {
    return JSON_MAPPER.convertValue(node, GenericKubernetesResource.class);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // reads

  private Stored read(ResourcePath rp) {
    final Stored[] holder = new Stored[1];
    exclusively(() -> {
      Map.Entry<AttributeSet, String> entry = findResource(getKey(rp.objectPath()));
      if (entry != null) {
        holder[0] = new Stored(entry.getKey(), entry.getValue(),
            isStatusSubresourceEnabledForResource(rp.objectPath()));
      }
      return null;
    });
    return holder[0];
  }

  /** The stored CustomResourceDefinitions (apiextensions.k8s.io/v1). */
  List<JsonNode> storedCustomResourceDefinitions() {
    MockResponse response = super.handleGet("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
    List<JsonNode> result = new ArrayList<>();
    if (response.code() == 200 && response.getBody() != null) {
      parse(response.getBody().readUtf8()).path("items").forEach(result::add);
    }
    return result;
  }

  /**
   * GET of an object or a list. A list's {@code fieldSelector} is evaluated here on each stored item (see
   * {@link FieldSelector}): fabric8 understands only metadata.name and metadata.namespace and lists nothing for
   * other fields, such as the {@code involvedObject.*} that {@code kubectl describe} selects events with.
   */
  private MockResponse get(ResourcePath rp, String rawPath) {
    String selector = rp.query().get("fieldSelector");
    if (rp.name() != null || selector == null || selector.isEmpty()) {
      return super.handleGet(rawPath);
    }
    final FieldSelector fields;
    try {
      fields = FieldSelector.parse(selector);
    } catch (IllegalArgumentException e) {
      return status(400, "BadRequest", e.getMessage());
    }
    MockResponse response = super.handleGet(withoutQueryParameter(rawPath, "fieldSelector"));
    if (response.code() != 200 || response.getBody() == null) {
      return response;
    }
    JsonNode list = parse(response.getBody().readUtf8());
    if (list.path("items").isArray()) {
      ArrayNode matching = array();
      list.get("items").forEach(item -> {
        if (fields.matches(item)) {
          matching.add(item);
        }
      });
      ((ObjectNode) list).set("items", matching);
      typeList((ObjectNode) list, rp);
    }
    return json(200, list.toString());
  }

  /**
   * Names the list {@code <Kind>List} in the request's group version, as kube-apiserver does: fabric8 answers
   * {@code v1 List}, which client-go's typed clients (kubectl describe's event search) decode as no items.
   */
  private void typeList(ObjectNode list, ResourcePath rp) {
    discovery.kindOf(rp.group(), rp.version(), rp.plural()).ifPresent(kind -> {
      list.put("apiVersion", rp.apiVersion());
      list.put("kind", kind + "List");
    });
  }

  private static String withoutQueryParameter(String rawPath, String parameter) {
    int q = rawPath.indexOf('?');
    if (q < 0) {
      return rawPath;
    }
    List<String> kept = new ArrayList<>();
    for (String pair : rawPath.substring(q + 1).split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (!key.equals(parameter)) {
        kept.add(pair);
      }
    }
    return rawPath.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
  }

  private MockResponse tableOf(ResourcePath rp, String rawPath) {
    MockResponse response = get(rp, rawPath);
    if (response.code() != 200 || response.getBody() == null) {
      return response;
    }
    JsonNode document = parse(response.getBody().readUtf8());
    return json(200, TableConverter.toTable(rp, document, storedCustomResourceDefinitions(), Instant.now()));
  }

  private boolean statusSubresource(ResourcePath rp) {
    final boolean[] holder = new boolean[1];
    exclusively(() -> {
      holder[0] = isStatusSubresourceEnabledForResource(rp.objectPath());
      return null;
    });
    return holder[0];
  }

  private static boolean isCrdMainResource(ResourcePath rp) {
    return rp.group().equals("apiextensions.k8s.io") && rp.plural().equals("customresourcedefinitions")
        && rp.subresource() == null;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // JSON helpers

  static JsonNode parse(String json) {
    try {
      return JSON_MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored object is not JSON", e);
    }
  }

  private static JsonNode parseYamlOrJson(byte[] body) throws IOException {
    String text = new String(body, StandardCharsets.UTF_8).trim();
    return text.startsWith("{") ? JSON_MAPPER.readTree(text) : YAML_MAPPER.readTree(text);
  }

  private static ObjectNode parseObject(byte[] body, String contentType) throws IOException {
    JsonNode node = contentType != null && contentType.contains("yaml") ? parseYamlOrJson(body)
        : JSON_MAPPER.readTree(body);
    if (node == null || !node.isObject()) {
      throw new IOException("not a JSON object");
    }
    return (ObjectNode) node;
  }

  private static ObjectNode metadata(ObjectNode object) {
    JsonNode metadata = object.get(METADATA);
    if (metadata == null || !metadata.isObject()) {
      return object.putObject(METADATA);
    }
    return (ObjectNode) metadata;
  }

  /** Kubernetes timestamps: RFC 3339 in UTC, whole seconds. */
  static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
  }

  static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }
}
