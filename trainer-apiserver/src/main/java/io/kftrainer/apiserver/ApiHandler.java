package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The REST semantics of {@link EmbeddedApiServer}: routing, CRUD on the {@link Store}, every patch type, watches,
 * pod logs, admission hooks. One instance serves all requests concurrently; see {@link Store} for consistency.
 */
final class ApiHandler implements HttpHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

  static final String APPLY_PATCH = "application/apply-patch+yaml";
  static final String MERGE_PATCH = "application/merge-patch+json";
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  static final String JSON_PATCH = "application/json-patch+json";
  private static final String METADATA = "metadata";
  private static final String STATUS = "status";
  private static final int UNPROCESSABLE = 422;
  private static final int MAX_ATTEMPTS = 64;
  static final Store.Kind CRDS = new Store.Kind("apiextensions.k8s.io", "customresourcedefinitions");

  private static final ObjectMapper JSON_MAPPER = Json.MAPPER;
  private static final ObjectMapper YAML_MAPPER = new ObjectMapper(new YAMLFactory());
  private static final SecureRandom RANDOM = new SecureRandom();

  private enum PatchKind {
    APPLY, MERGE, STRATEGIC, JSON_PATCH
  }

  /** What the server knows of the resource a path names. */
  record Target(ResourcePath rp, Store.Kind kind, String kindName, boolean namespaced, boolean statusSubresource) {
    String qualified() {
      return rp.group().isEmpty() ? rp.plural() : rp.plural() + "." + rp.group();
    }
  }

  /** An error answer thrown from deep inside a request. */
  static final class ApiException extends RuntimeException {
    final transient Response response;

    ApiException(Response response) {
      super(null, null, false, false);
      this.response = response;
    }
  }

  private final RequestLog requestLog;
  private final Store store;
  private final Discovery discovery;
  private static final List<AdmissionHook.Phase> ALL_PHASES = List.of(AdmissionHook.Phase.values());
  private static final List<AdmissionHook.Phase> MUTATING = List.of(AdmissionHook.Phase.MUTATING);
  private static final List<AdmissionHook.Phase> VALIDATING = List.of(AdmissionHook.Phase.VALIDATING);

  private final List<AdmissionHook> hooks = new CopyOnWriteArrayList<>();
  static final int ADMISSIONS_IN_FLIGHT = 16;
  private final java.util.concurrent.Semaphore admissions = new java.util.concurrent.Semaphore(ADMISSIONS_IN_FLIGHT,
      true);
  /** Where {@link #stats} is served. */
  static final String STATS_PATH = "/debug/stats";
  private final FaultInjector faults;
  private final RequestTally tally = new RequestTally();
  private final Watches watches;
  private final PodLogs podLogs;
  final Validation validation;
  private final MergeTypes mergeTypes;

  ApiHandler(RequestLog requestLog, Store store, String serverVersion, PodLogSource podLogSource,
      long bookmarkIntervalMillis, FaultInjector faults) {
    this.requestLog = requestLog;
    this.faults = faults;
    this.store = store;
    this.discovery = new Discovery(this::storedCustomResourceDefinitions, serverVersion);
    this.watches = new Watches(store, this, bookmarkIntervalMillis);
    this.podLogs = new PodLogs(podLogSource);
    this.validation = new Validation(this::storedCustomResourceDefinitions);
    this.mergeTypes = new MergeTypes(this::storedCustomResourceDefinitions);
    store.addListener(event -> {
      if (event.object().kind().equals(CRDS)) {
        discovery.invalidate();
        validation.invalidate();
        mergeTypes.invalidate();
      }
    });
  }

  void addHook(AdmissionHook hook) {
    hooks.add(Objects.requireNonNull(hook, "hook"));
  }

  boolean removeHook(AdmissionHook hook) {
    return hooks.remove(hook);
  }

  void reset() {
    store.clear();
    discovery.invalidate();
    validation.invalidate();
    mergeTypes.invalidate();
  }

  Discovery discovery() {
    return discovery;
  }

  FaultInjector faults() {
    return faults;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // HTTP

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String rawPath = exchange.getRequestURI().getRawPath();
      String rawQuery = exchange.getRequestURI().getRawQuery();
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      requestLog.add(new ApiRequest(method, rawPath, rawQuery, contentType, Instant.now()));
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      if (rawPath.equals(STATS_PATH)) {
        send(exchange, stats(method, rawQuery));
        return;
      }
      String pathAndQuery = rawPath + (rawQuery == null ? "" : "?" + rawQuery);
      ResourcePath requested = ResourcePath.parse(pathAndQuery);
      tally.add(exchange.getRequestHeaders().getFirst("User-Agent"), method, requested);
      FaultInjector.Kind fault = faults.draw(method, requested);
      Response refusal = faults.refusal(fault, requested);
      if (refusal != null) {
        if (refusal.code() == 429) {
          exchange.getResponseHeaders().set("Retry-After", Integer.toString(faults.retryAfterSeconds()));
        }
        send(exchange, refusal);
        return;
      }
      Response response;
      try {
        faults.delayBefore(fault);
        response = route(exchange, method, pathAndQuery, contentType, body);
        if (response != null) {
          response = faults.afterServing(fault, response);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        response = Response.status(503, "ServiceUnavailable", "the server is shutting down");
      } catch (ApiException e) {
        response = e.response;
      } catch (RuntimeException | LinkageError | AssertionError e) {
        LOG.warn("{} {} failed", method, rawPath, e);
        response = Response.status(500, "InternalError", String.valueOf(e));
      }
      if (response != null) {
        send(exchange, response);
      }
    } catch (IOException e) {
      LOG.debug("client went away", e);
    }
  }

  /**
   * {@code GET /debug/stats}: the faults injected and the resource requests by client, verb and resource since start
   * or the last {@code DELETE /debug/stats} (which resets the requests, not the faults); {@code POST
   * /debug/stats?faults=on|off} arms or disarms the fault injector. Not a Kubernetes path: for load and chaos
   * harnesses that run the server in another process.
   */
  private Response stats(String method, String rawQuery) {
    if (method.equals("DELETE")) {
      tally.clear();
    } else if (method.equals("POST") && ("faults=on".equals(rawQuery) || "faults=off".equals(rawQuery))) {
      faults.armed(rawQuery.endsWith("on"));
    } else if (!method.equals("GET")) {
      return Response.status(400, "BadRequest", "GET, DELETE, or POST ?faults=on|off");
    }
    ObjectNode stats = JsonNodeFactory.instance.objectNode().put("faultsArmed", faults.isArmed());
    ObjectNode injected = stats.putObject("faults");
    faults.injected().forEach((kind, count) -> injected.put(kind.label(), count));
    ObjectNode requests = stats.putObject("requests");
    tally.snapshot().forEach(requests::put);
    return Response.json(200, stats.toString());
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    for (String warning : response.warnings()) {
      exchange.getResponseHeaders().add("Warning", "299 - " + quote(warning));
    }
    byte[] body = response.body();
    exchange.sendResponseHeaders(response.code(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Answers the request; null when the answer was streamed already (watches, logs). */
  private Response route(HttpExchange exchange, String method, String rawPath, String contentType, byte[] body)
      throws IOException {
    ResourcePath rp = ResourcePath.parse(rawPath);
    if (rp == null) {
      if (!method.equals("GET")) {
        return Response.methodNotAllowed();
      }
      String path = rawPath.indexOf('?') < 0 ? rawPath : rawPath.substring(0, rawPath.indexOf('?'));
      return discovery.handle(path, exchange.getRequestHeaders().getFirst("Host"),
          exchange.getRequestHeaders().getFirst("Accept"));
    }
    Target target = target(rp);
    if (target == null) {
      return Response.notFound();
    }
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    if (rp.subresource() != null) {
      return subresource(exchange, target, method, contentType, body);
    }
    byte[] content = body;
    String type = contentType;
    if (body.length > 0 && contentType != null && contentType.contains("protobuf")) {
      // kubectl create namespace|configmap|secret|serviceaccount write protobuf and do not fall back to JSON
      try {
        content = KubernetesProtobuf.decode(body).toString().getBytes(StandardCharsets.UTF_8);
        type = Response.JSON;
      } catch (IOException e) {
        return Response.status(415, "UnsupportedMediaType", "this server reads JSON and YAML; " + e.getMessage()
            + " (with kubectl: '... --dry-run=client -o yaml | kubectl create -f -')");
      }
    } else if (body.length > 0 && contentType != null && !contentType.contains("json")
        && !contentType.contains("yaml")) {
      return Response.status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
          + "accepted media types include: application/json, application/yaml");
    }
    if (rp.name() == null) {
      switch (method) {
        case "GET":
          if (rp.isWatch()) {
            watches.serve(exchange, target, TableConverter.wantsTable(accept));
            return null;
          }
          return list(target, TableConverter.wantsTable(accept));
        case "POST":
          return isReview(target) ? review(target, type, content) : create(target, type, content);
        case "DELETE":
          return deleteCollection(target, content);
        default:
          return Response.methodNotAllowed();
      }
    }
    switch (method) {
      case "GET":
        if (rp.isWatch()) {
          watches.serve(exchange, target, TableConverter.wantsTable(accept));
          return null;
        }
        return get(target, TableConverter.wantsTable(accept));
      case "PUT":
        return update(target, type, content);
      case "PATCH":
        return patch(target, contentType, content);
      case "DELETE":
        return delete(target, content);
      default:
        return Response.methodNotAllowed();
    }
  }

  private static boolean isReview(Target target) {
    return target.rp().group().startsWith("authorization.k8s.io") || target.rp().group().equals("authentication.k8s.io");
  }

  /**
   * Access and token reviews are answered, never stored. This server has no authentication or authorization:
   * everything is allowed, and admission hooks may answer otherwise.
   */
  private Response review(Target target, String contentType, byte[] body) {
    ObjectNode review = parseObject(body, contentType);
    checkTypeMeta(target, review);
    metadata(review);
    ObjectNode status = JsonNodeFactory.instance.objectNode();
    switch (target.rp().plural()) {
      case "selfsubjectrulesreviews":
        status.putArray("resourceRules").addObject().set("verbs", JsonNodeFactory.instance.arrayNode().add("*"));
        ((ObjectNode) status.get("resourceRules").get(0)).putArray("apiGroups").add("*");
        ((ObjectNode) status.get("resourceRules").get(0)).putArray("resources").add("*");
        status.putArray("nonResourceRules").addObject().putArray("verbs").add("*");
        ((ObjectNode) status.get("nonResourceRules").get(0)).putArray("nonResourceURLs").add("*");
        status.put("incomplete", false);
        break;
      case "tokenreviews":
        status.put("authenticated", true).putObject("user").put("username", "admin");
        break;
      case "selfsubjectreviews":
        status.putObject("userInfo").put("username", "admin");
        break;
      default:
        status.put("allowed", true);
    }
    review.set(STATUS, status);
    List<String> warnings = new ArrayList<>();
    Response denied = admit(ALL_PHASES, AdmissionRequest.Operation.CREATE, target, review, null, warnings);
    return denied != null ? denied : Response.json(201, review).withWarnings(warnings);
  }

  private Response subresource(HttpExchange exchange, Target target, String method, String contentType,
      byte[] body) throws IOException {
    ResourcePath rp = target.rp();
    String sub = rp.subresource();
    if (sub.equals(STATUS) && target.statusSubresource()) {
      switch (method) {
        case "GET":
          return get(target, false);
        case "PUT":
          return update(target, contentType, body);
        case "PATCH":
          return patch(target, contentType, body);
        default:
          return Response.methodNotAllowed();
      }
    }
    if (rp.group().isEmpty() && rp.plural().equals("pods")) {
      switch (sub) {
        case "log":
          if (!method.equals("GET")) {
            return Response.methodNotAllowed();
          }
          Store.Stored pod = store.get(target.kind(), rp.namespace(), rp.name());
          if (pod == null) {
            return notFound(target);
          }
          return podLogs.serve(exchange, pod.object(), rp.query());
        case "exec":
        case "attach":
        case "portforward":
          return method.equals("GET") || method.equals("POST")
              ? Response.status(400, "BadRequest", "Upgrade request required")
              : Response.methodNotAllowed();
        default:
          break;
      }
    }
    return Response.notFound();
  }

  /** The resource a path names, or null when this server does not serve it (kube-apiserver answers 404). */
  Target target(ResourcePath rp) {
    ObjectNode resource = discovery.resource(rp.group(), rp.version(), rp.plural()).orElse(null);
    if (resource == null) {
      return null;
    }
    boolean namespaced = resource.path("namespaced").asBoolean();
    if (namespaced == (rp.namespace() == null) && (rp.name() != null || !namespaced)) {
      // a namespaced object outside a namespace, or a cluster-scoped one inside one
      if (!(rp.plural().equals("namespaces") && rp.group().isEmpty() && rp.namespace() == null)) {
        return null;
      }
    }
    boolean status = discovery.resource(rp.group(), rp.version(), rp.plural() + "/status").isPresent();
    return new Target(rp, new Store.Kind(rp.group(), rp.plural()), resource.path("kind").asText(), namespaced,
        status);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // reads

  private Response get(Target target, boolean table) {
    ResourcePath rp = target.rp();
    Store.Stored stored = store.get(target.kind(), rp.namespace(), rp.name());
    if (stored == null) {
      return notFound(target);
    }
    if (table) {
      return Response.json(200, TableConverter.toTable(rp, stored.object(), storedCustomResourceDefinitions(),
          Instant.now()));
    }
    return Response.json(200, stored.json());
  }

  /** The items a list or watch request selects. */
  record Selection(String namespace, String name, LabelSelector labels, FieldSelector fields) {
    boolean matches(Store.Stored stored) {
      return (namespace == null || namespace.equals(stored.namespace()))
          && (name == null || name.equals(stored.name()))
          && labels.matches(stored.object()) && fields.matches(stored.object());
    }
  }

  static Selection selection(ResourcePath rp) {
    try {
      return new Selection(rp.namespace(), rp.name(), LabelSelector.parse(rp.query().get("labelSelector")),
          FieldSelector.parse(Objects.requireNonNullElse(rp.query().get("fieldSelector"), "")));
    } catch (IllegalArgumentException e) {
      throw new ApiException(Response.status(400, "BadRequest", e.getMessage()));
    }
  }

  private Response list(Target target, boolean table) {
    ResourcePath rp = target.rp();
    Selection selection = selection(rp);
    long version = store.resourceVersion();
    Collection<Store.Stored> candidates = store.list(target.kind(), rp.namespace());
    int limit = parseInt(rp.query().get("limit"), 0);
    String after = decodeContinue(rp.query().get("continue"));
    ObjectNode list = JsonNodeFactory.instance.objectNode();
    list.put("apiVersion", rp.apiVersion());
    list.put("kind", target.kindName() + "List");
    ObjectNode metadata = list.putObject(METADATA);
    metadata.put("resourceVersion", Long.toString(version));
    ArrayNode items = list.putArray("items");
    String last = null;
    for (Store.Stored stored : candidates) {
      String key = stored.namespace() + "/" + stored.name();
      if (after != null && key.compareTo(after) <= 0) {
        continue;
      }
      if (!selection.matches(stored)) {
        continue;
      }
      if (limit > 0 && items.size() == limit) {
        metadata.put("continue", Base64.getUrlEncoder().withoutPadding()
            .encodeToString(last.getBytes(StandardCharsets.UTF_8)));
        break;
      }
      items.add(stored.object());
      last = key;
    }
    if (table) {
      return Response.json(200, TableConverter.toTable(rp, list, storedCustomResourceDefinitions(), Instant.now()));
    }
    return Response.json(200, list);
  }

  private static String decodeContinue(String token) {
    if (token == null || token.isEmpty()) {
      return null;
    }
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new ApiException(Response.status(400, "BadRequest", "continue key is not valid: " + e.getMessage()));
    }
  }

  private static int parseInt(String value, int otherwise) {
    if (value == null || value.isEmpty()) {
      return otherwise;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new ApiException(Response.status(400, "BadRequest", "invalid integer: " + value));
    }
  }

  /** The stored CustomResourceDefinitions (apiextensions.k8s.io/v1). */
  List<JsonNode> storedCustomResourceDefinitions() {
    List<JsonNode> crds = new ArrayList<>();
    store.list(CRDS, null).forEach(s -> crds.add(s.object()));
    return crds;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // create and update

  private Response create(Target target, String contentType, byte[] body) {
    ResourcePath rp = target.rp();
    ObjectNode object = parseObject(body, contentType);
    checkTypeMeta(target, object);
    ObjectNode metadata = metadata(object);
    if (target.namespaced()) {
      String namespace = metadata.path("namespace").asText("");
      if (!namespace.isEmpty() && !namespace.equals(rp.namespace())) {
        return Response.status(400, "BadRequest",
            "the namespace of the provided object does not match the namespace sent on the request");
      }
      metadata.put("namespace", rp.namespace());
    } else {
      metadata.remove("namespace");
    }
    String name = metadata.path("name").asText("");
    if (name.isEmpty()) {
      String prefix = metadata.path("generateName").asText("");
      if (prefix.isEmpty()) {
        return invalid(target, "", List.of("metadata.name: Required value: name or generateName is required"));
      }
      metadata.put("name", prefix + randomSuffix());
    }
    List<String> warnings = new ArrayList<>();
    Response response = createObject(target, object, warnings, AdmissionRequest.Operation.CREATE);
    return response.withWarnings(warnings);
  }

  /** Admission, defaults and validation, then the commit of a new object; 201 or the error. */
  private Response createObject(Target target, ObjectNode object, List<String> warnings,
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
    Response denied = admit(MUTATING, operation, target, object, null, warnings);
    if (denied != null) {
      return denied;
    }
    validation.prepare(target, object);
    List<String> errors = validation.validate(target, object, null);
    if (!errors.isEmpty()) {
      return invalid(target, metadata(object).path("name").asText(), errors);
    }
    denied = admit(VALIDATING, operation, target, object, null, warnings);
    if (denied != null) {
      return denied;
    }
    metadata = metadata(object);
    metadata.put("uid", UUID.randomUUID().toString());
    metadata.put("creationTimestamp", now());
    metadata.put("generation", 1);
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

  private static void checkTypeMeta(Target target, ObjectNode object) {
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

  private Response update(Target target, String contentType, byte[] body) {
    ResourcePath rp = target.rp();
    ObjectNode object = parseObject(body, contentType);
    checkTypeMeta(target, object);
    String name = metadata(object).path("name").asText("");
    if (!name.isEmpty() && !name.equals(rp.name())) {
      return Response.status(400, "BadRequest", "the name of the object (" + name
          + ") does not match the name on the URL (" + rp.name() + ")");
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
      List<String> warnings = new ArrayList<>();
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
  private Response updateObject(Target target, Store.Stored current, ObjectNode changed, List<String> warnings) {
    ResourcePath rp = target.rp();
    ObjectNode candidate = finishUpdate(target, current.object(), changed);
    List<String> metadataErrors = ObjectMetaValidation.errors(metadata(candidate));
    if (!metadataErrors.isEmpty()) {
      return invalid(target, rp.name(), metadataErrors);
    }
    validation.prepare(target, candidate);
    Response denied = admit(MUTATING, AdmissionRequest.Operation.UPDATE, target, candidate, current.object(),
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
    denied = admit(VALIDATING, AdmissionRequest.Operation.UPDATE, target, candidate, current.object(), warnings);
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
    if (!target.rp().isStatus()) {
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

  // ---------------------------------------------------------------------------------------------------------------
  // PATCH: every patch type, server-side apply included

  private Response patch(Target target, String contentType, byte[] body) {
    ResourcePath rp = target.rp();
    PatchKind kind = patchKind(contentType);
    if (kind == null) {
      return Response.status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
          + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
          + "application/apply-patch+yaml, application/strategic-merge-patch+json, "
          + "application/apply-patch+cbor");
    }
    if (kind == PatchKind.STRATEGIC && !Discovery.isBuiltin(rp.group(), rp.plural())) {
      // custom resources have no Go types to take patch strategies from
      return Response.status(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
          + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
          + "application/apply-patch+yaml, application/apply-patch+cbor");
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
    checkTypeMeta(target, object);
    ObjectNode metadata = metadata(object);
    String name = metadata.path("name").asText("");
    if (!name.isEmpty() && !name.equals(rp.name())) {
      return Response.status(400, "BadRequest", "the name of the object (" + name
          + ") does not match the name on the URL (" + rp.name() + ")");
    }
    metadata.put("name", rp.name());
    String namespace = metadata.path("namespace").asText("");
    if (target.namespaced()) {
      if (!namespace.isEmpty() && !namespace.equals(rp.namespace())) {
        return Response.status(400, "BadRequest",
            "the namespace of the provided object does not match the namespace sent on the request");
      }
      metadata.put("namespace", rp.namespace());
    } else {
      metadata.remove("namespace");
    }
    ServerSideApply.Outcome outcome;
    try {
      outcome = ServerSideApply.apply(null, applyRequest(target, object, fieldManager), mergeType(target));
    } catch (IllegalArgumentException e) {
      return Response.status(UNPROCESSABLE, "Invalid", e.getMessage());
    }
    Response response = createObject(target, outcome.object(), warnings, AdmissionRequest.Operation.CREATE);
    return response.code() == 409 && "AlreadyExists".equals(reasonOf(response)) ? null : response;
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
          ServerSideApply.Outcome outcome = ServerSideApply.apply((ObjectNode) current,
              applyRequest(target, (ObjectNode) patch, fieldManager), mergeType(target));
          if (outcome.object() == null) {
            return Response.json(409, Response.failure(409, "Conflict",
                ServerSideApply.message(outcome.conflicts()), ServerSideApply.details(outcome.conflicts())));
          }
          patched = outcome.object();
          break;
        case MERGE:
          patched = Patches.mergePatch(current, patch);
          break;
        case STRATEGIC:
          patched = StrategicMergePatch.apply(current, patch, mergeType(target));
          break;
        default:
          patched = JsonPatch.apply(patch, current.deepCopy());
      }
    } catch (JsonPatchException | IllegalArgumentException e) {
      return Response.status(UNPROCESSABLE, "Invalid", "the patch could not be applied: " + e.getMessage());
    }
    if (!patched.isObject()) {
      return Response.status(UNPROCESSABLE, "Invalid", "the patched object is not a JSON object");
    }
    String name = patched.path(METADATA).path("name").asText("");
    if (!name.isEmpty() && !name.equals(rp.name())) {
      return Response.status(400, "BadRequest", "the name of the object (" + name
          + ") does not match the name on the URL (" + rp.name() + ")");
    }
    String requested = patched.path(METADATA).path("resourceVersion").asText("");
    if (!requested.isEmpty() && !requested.equals(Long.toString(stored.resourceVersion()))) {
      return conflict(target);
    }
    ObjectNode candidate = (ObjectNode) patched;
    return updateObject(target, stored, candidate, warnings);
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

  // ---------------------------------------------------------------------------------------------------------------
  // DELETE

  private Response delete(Target target, byte[] body) {
    ResourcePath rp = target.rp();
    ObjectNode options = body.length == 0 ? JsonNodeFactory.instance.objectNode() : parseObject(body, Response.JSON);
    String policy = options.path("propagationPolicy").asText(rp.query().getOrDefault("propagationPolicy", ""));
    if (options.path("orphanDependents").asBoolean(false)) {
      policy = "Orphan";
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Stored current = store.get(target.kind(), rp.namespace(), rp.name());
      if (current == null) {
        return notFound(target);
      }
      JsonNode preconditions = options.path("preconditions");
      String uid = preconditions.path("uid").asText("");
      if (!uid.isEmpty() && !uid.equals(current.uid())) {
        return Response.json(409, Response.failure(409, "Conflict", "Operation cannot be fulfilled on "
            + target.qualified() + " \"" + rp.name() + "\": Precondition failed: UID in precondition: " + uid
            + ", UID in object meta: " + current.uid(), details(target, rp.name())));
      }
      String version = preconditions.path("resourceVersion").asText("");
      if (!version.isEmpty() && !version.equals(Long.toString(current.resourceVersion()))) {
        return conflict(target);
      }
      Response response = deleteObject(target, current, policy, rp.isDryRun());
      if (response != null) {
        return response;
      }
    }
    return conflict(target);
  }

  /** Deletes (or marks for deletion) one object with a propagation policy; null on a concurrent change. */
  Response deleteObject(Target target, Store.Stored current, String policy, boolean dryRun) {
    ObjectNode object = current.object().deepCopy();
    ObjectNode metadata = metadata(object);
    List<String> finalizers = new ArrayList<>();
    metadata.path("finalizers").forEach(f -> finalizers.add(f.asText()));
    if (policy.equals("Orphan") && !dryRun) {
      GarbageCollector.orphanDependents(this, current);
    }
    if (policy.equals("Foreground") && !finalizers.contains(GarbageCollector.FOREGROUND)) {
      finalizers.add(GarbageCollector.FOREGROUND);
      ArrayNode array = metadata.putArray("finalizers");
      finalizers.forEach(array::add);
    }
    if (dryRun) {
      return Response.json(200, object);
    }
    if (finalizers.isEmpty()) {
      if (!store.remove(current)) {
        return null;
      }
      return Response.json(200, Response.success(target.qualified(), current));
    }
    if (!metadata.hasNonNull("deletionTimestamp")) {
      metadata.put("deletionTimestamp", now());
      metadata.put("deletionGracePeriodSeconds", 0);
    }
    if (object.equals(current.object())) {
      return Response.json(200, current.json());
    }
    Store.Stored stored = store.put(target.kind(), current, object);
    return stored == null ? null : Response.json(200, stored.json());
  }

  private Response deleteCollection(Target target, byte[] body) {
    ResourcePath rp = target.rp();
    Selection selection = selection(rp);
    ObjectNode options = body.length == 0 ? JsonNodeFactory.instance.objectNode() : parseObject(body, Response.JSON);
    String policy = options.path("propagationPolicy").asText(rp.query().getOrDefault("propagationPolicy", ""));
    ObjectNode list = JsonNodeFactory.instance.objectNode();
    list.put("apiVersion", rp.apiVersion());
    list.put("kind", target.kindName() + "List");
    list.putObject(METADATA);
    ArrayNode items = list.putArray("items");
    for (Store.Stored stored : new ArrayList<>(store.list(target.kind(), rp.namespace()))) {
      if (selection.matches(stored)) {
        Response response = deleteObject(target, stored, policy, rp.isDryRun());
        if (response != null) {
          items.add(stored.object());
        }
      }
    }
    metadata(list).put("resourceVersion", Long.toString(store.resourceVersion()));
    return Response.json(200, list);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // admission

  /**
   * Runs the hooks of {@code phases} on {@code object} (mutating it in place). Returns the denial response, or null
   * when admitted. As kube-apiserver: mutating hooks, then schema validation, then validating hooks, so that a
   * validating webhook never sees an object of the wrong shape.
   * At most {@link #ADMISSIONS_IN_FLIGHT} requests run their hooks at once, the others wait their turn: hooks call
   * webhook servers, which a burst of simultaneous requests would otherwise flood (kube-apiserver bounds the
   * mutating requests in flight likewise).
   */
  private Response admit(List<AdmissionHook.Phase> phases, AdmissionRequest.Operation operation, Target target,
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

  // ---------------------------------------------------------------------------------------------------------------
  // Status answers

  static StatusDetails details(Target target, String name) {
    StatusDetails details = new StatusDetails();
    details.setName(name);
    details.setGroup(target.rp().group());
    details.setKind(target.rp().plural());
    return details;
  }

  static Response notFound(Target target) {
    String name = target.rp().name();
    return Response.json(404, Response.failure(404, "NotFound", target.qualified() + " \"" + name + "\" not found",
        details(target, name)));
  }

  private static Response alreadyExists(Target target, String name) {
    return Response.json(409, Response.failure(409, "AlreadyExists", target.qualified() + " \"" + name
        + "\" already exists", details(target, name)));
  }

  private static Response conflict(Target target) {
    String name = target.rp().name();
    return Response.json(409, Response.failure(409, "Conflict", "Operation cannot be fulfilled on "
        + target.qualified() + " \"" + name + "\": the object has been modified; please apply your changes to the "
        + "latest version and try again", details(target, name)));
  }

  /** 422 Invalid with kube-apiserver's message: {@code Kind.group "name" is invalid: [cause, cause]}. */
  static Response invalid(Target target, String name, List<String> causes) {
    String kind = target.kindName() + (target.rp().group().isEmpty() ? "" : "." + target.rp().group());
    String joined = causes.size() == 1 ? causes.get(0) : "[" + String.join(", ", causes) + "]";
    StatusDetails details = details(target, name);
    details.setKind(target.kindName());
    List<io.fabric8.kubernetes.api.model.StatusCause> statusCauses = new ArrayList<>();
    for (String cause : causes) {
      io.fabric8.kubernetes.api.model.StatusCause c = new io.fabric8.kubernetes.api.model.StatusCause();
      int colon = cause.indexOf(": ");
      c.setField(colon < 0 ? "" : cause.substring(0, colon));
      c.setMessage(colon < 0 ? cause : cause.substring(colon + 2));
      c.setReason("FieldValueInvalid");
      statusCauses.add(c);
    }
    details.setCauses(statusCauses);
    return Response.json(UNPROCESSABLE, Response.failure(UNPROCESSABLE, "Invalid", kind + " \"" + name
        + "\" is invalid: " + joined, details));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // JSON helpers

  private static String quote(String s) {
    try {
      return JSON_MAPPER.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode parseYamlOrJson(byte[] body) throws IOException {
    String text = new String(body, StandardCharsets.UTF_8).trim();
    return text.startsWith("{") || text.startsWith("[") ? JSON_MAPPER.readTree(text) : YAML_MAPPER.readTree(text);
  }

  private static ObjectNode parseObject(byte[] body, String contentType) {
    JsonNode node;
    try {
      node = contentType != null && contentType.contains("yaml") ? parseYamlOrJson(body) : JSON_MAPPER.readTree(body);
    } catch (IOException e) {
      throw new ApiException(Response.status(400, "BadRequest", "the body of the request could not be decoded: "
          + e.getMessage()));
    }
    if (node == null || !node.isObject()) {
      throw new ApiException(Response.status(400, "BadRequest", "the body of the request is not a JSON object"));
    }
    return (ObjectNode) node;
  }

  static ObjectNode metadata(ObjectNode object) {
    JsonNode metadata = object.get(METADATA);
    if (metadata == null || !metadata.isObject()) {
      return object.putObject(METADATA);
    }
    return (ObjectNode) metadata;
  }

  static void setOrRemove(ObjectNode node, String field, JsonNode value) {
    if (value == null || value.isNull()) {
      node.remove(field);
    } else {
      node.set(field, value.deepCopy());
    }
  }

  private static boolean isCrdMainResource(Target target) {
    return target.kind().equals(CRDS) && target.rp().subresource() == null;
  }

  /** Kubernetes timestamps: RFC 3339 in UTC, whole seconds. */
  static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
  }

  Store store() {
    return store;
  }
}
