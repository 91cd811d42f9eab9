package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP side of {@link EmbeddedApiServer}: request accounting and the {@link RequestFilter}, then routing to the
 * class of each concern — {@link Discovery}, {@link GetAndListRequests} and {@link WatchStreams},
 * {@link CreateAndUpdateRequests}, {@link PatchRequests}, {@link DeleteRequests}, {@link ReviewRequests},
 * {@link PodLogs} — with {@link AdmissionChain} and {@link Validation} between them and the {@link Store}. One
 * instance serves all requests concurrently; see {@link Store} for consistency.
 */
final class ApiHandler implements HttpHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

  static final Store.Kind CRDS = new Store.Kind("apiextensions.k8s.io", "customresourcedefinitions");
  private static final String STATUS = "status";
  private static final ObjectMapper JSON_MAPPER = Json.MAPPER;
  /** Where {@link #stats} is served. */
  static final String STATS_PATH = "/debug/stats";

  private final RequestLog requestLog;
  private final Store store;
  private final Discovery discovery;
  private final RequestFilter filter;
  private final RequestTally tally = new RequestTally();
  private final WatchStreams watches;
  private final PodLogs podLogs;
  private final AdmissionChain admission = new AdmissionChain();
  final Validation validation;
  private final MergeTypes mergeTypes;
  private final GetAndListRequests reads;
  private final CreateAndUpdateRequests writes;
  private final PatchRequests patches;
  private final DeleteRequests deletes;
  private final ReviewRequests reviews;
  private final ServiceAccountTokens tokens;
  private final RbacAuthorizer authorizer;

  ApiHandler(RequestLog requestLog, Store store, String serverVersion, PodLogSource podLogSource,
      long bookmarkIntervalMillis, RequestFilter filter, java.nio.file.Path signingKeyFile) {
    this.requestLog = requestLog;
    this.filter = filter;
    this.store = store;
    this.discovery = new Discovery(this::storedCustomResourceDefinitions, serverVersion);
    this.watches = new WatchStreams(store, this, bookmarkIntervalMillis);
    this.podLogs = new PodLogs(podLogSource);
    this.validation = new Validation(this::storedCustomResourceDefinitions);
    this.mergeTypes = new MergeTypes(this::storedCustomResourceDefinitions);
    this.reads = new GetAndListRequests(store, this::storedCustomResourceDefinitions);
    UnknownFields unknownFields = new UnknownFields(validation, mergeTypes);
    this.writes = new CreateAndUpdateRequests(store, validation, admission, unknownFields);
    this.patches = new PatchRequests(store, writes, mergeTypes, unknownFields);
    this.deletes = new DeleteRequests(store, this);
    this.tokens = new ServiceAccountTokens(store, java.time.Clock.systemUTC(), signingKeyFile);
    this.authorizer = new RbacAuthorizer(store);
    this.reviews = new ReviewRequests(admission, tokens, authorizer);
    store.addListener(event -> {
      if (event.object().kind().equals(CRDS)) {
        discovery.invalidate();
        validation.invalidate();
        mergeTypes.invalidate();
      }
    });
  }

  void addHook(AdmissionHook hook) {
    admission.add(hook);
  }

  boolean removeHook(AdmissionHook hook) {
    return admission.remove(hook);
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

  RequestFilter filter() {
    return filter;
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
      RequestFilter.Plan plan = requested == null ? RequestFilter.Plan.SERVE : filter.plan(new RequestFilter.Request(
          method, requested.group(), requested.version(), requested.namespace(), requested.plural(),
          requested.name(), requested.subresource(), requested.isWatch()));
      if (plan.refusal() != null) {
        send(exchange, failure(exchange, plan.refusal()));
        return;
      }
      Response response;
      try {
        TimeUnit.NANOSECONDS.sleep(plan.delayBefore().toNanos());
        response = route(exchange, method, pathAndQuery, contentType, body);
        if (response != null && plan.replacement() != null) {
          TimeUnit.NANOSECONDS.sleep(plan.delayAfter().toNanos());
          response = failure(exchange, plan.replacement());
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
   * {@code GET /debug/stats}: what the {@link RequestFilter} did (the faults injected) and the resource requests by
   * client, verb and resource since start or the last {@code DELETE /debug/stats} (which resets the requests, not
   * the faults); {@code POST /debug/stats?faults=on|off} turns the filter on or off. Not a Kubernetes path: for load
   * and chaos harnesses that run the server in another process.
   */
  private Response stats(String method, String rawQuery) {
    if (method.equals("DELETE")) {
      tally.clear();
    } else if (method.equals("POST") && ("faults=on".equals(rawQuery) || "faults=off".equals(rawQuery))) {
      filter.enable(rawQuery.endsWith("on"));
    } else if (!method.equals("GET")) {
      return Response.status(400, "BadRequest", "GET, DELETE, or POST ?faults=on|off");
    }
    ObjectNode stats = JsonNodeFactory.instance.objectNode().put("faultsArmed", filter.enabled());
    ObjectNode injected = stats.putObject("faults");
    filter.counts().forEach(injected::put);
    ObjectNode requests = stats.putObject("requests");
    tally.snapshot().forEach(requests::put);
    return Response.json(200, stats.toString());
  }

  /** A filter's failure as kube-apiserver answers it, with its {@code Retry-After}. */
  private static Response failure(HttpExchange exchange, RequestFilter.Failure failure) {
    if (failure.retryAfterSeconds() > 0) {
      exchange.getResponseHeaders().set("Retry-After", Integer.toString(failure.retryAfterSeconds()));
    }
    return Response.status(failure.code(), failure.reason(), failure.message());
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    // each text once, as kube-apiserver's warning recorder
    for (String warning : new java.util.LinkedHashSet<>(response.warnings())) {
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
      if (ServiceAccountTokens.isOidcPath(path)) {
        return tokens.oidc(path, exchange.getRequestHeaders().getFirst("Accept"));
      }
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
          return reads.list(target, TableConverter.wantsTable(accept));
        case "POST":
          return ReviewRequests.isReview(target) ? reviews.review(target, type, content, AccessControl.user(exchange))
              : writes.create(target, type, content);
        case "DELETE":
          return deletes.deleteCollection(target, content);
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
        return reads.get(target, TableConverter.wantsTable(accept));
      case "PUT":
        return writes.update(target, type, content);
      case "PATCH":
        return patches.patch(target, contentType, content);
      case "DELETE":
        return deletes.delete(target, content);
      default:
        return Response.methodNotAllowed();
    }
  }

  private Response subresource(HttpExchange exchange, Target target, String method, String contentType,
      byte[] body) throws IOException {
    ResourcePath rp = target.rp();
    String sub = rp.subresource();
    if (sub.equals(STATUS) && target.statusSubresource()) {
      switch (method) {
        case "GET":
          return reads.get(target, false);
        case "PUT":
          return writes.update(target, contentType, body);
        case "PATCH":
          return patches.patch(target, contentType, body);
        default:
          return Response.methodNotAllowed();
      }
    }
    if (rp.group().isEmpty() && rp.plural().equals("serviceaccounts") && sub.equals("token")) {
      if (!method.equals("POST")) {
        return Response.methodNotAllowed();
      }
      if (body.length > 0 && contentType != null && contentType.contains("protobuf")) {
        // kubectl create token writes its TokenRequest in protobuf
        try {
          return tokens.request(target, Response.JSON,
              KubernetesProtobuf.decode(body).toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
          return Response.status(415, "UnsupportedMediaType", "this server reads JSON and YAML; " + e.getMessage());
        }
      }
      return tokens.request(target, contentType, body);
    }
    if (rp.group().isEmpty() && rp.plural().equals("pods")) {
      switch (sub) {
        case "log":
          if (!method.equals("GET")) {
            return Response.methodNotAllowed();
          }
          Store.Stored pod = store.get(target.kind(), rp.namespace(), rp.name());
          if (pod == null) {
            return StatusErrors.notFound(target);
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

  /** The stored CustomResourceDefinitions (apiextensions.k8s.io/v1). */
  List<JsonNode> storedCustomResourceDefinitions() {
    List<JsonNode> crds = new ArrayList<>();
    store.list(CRDS, null).forEach(s -> crds.add(s.object()));
    return crds;
  }

  /** Creates {@code object} as a client's POST would (admission, validation); for the built-in controllers. */
  Response create(Target target, ObjectNode object) {
    return writes.createObject(target, object, new ArrayList<>(), AdmissionRequest.Operation.CREATE);
  }

  /**
   * Commits {@code candidate} over {@code current} ({@link CreateAndUpdateRequests#commitUpdate}); for the garbage
   * collector.
   */
  Response commitUpdate(Target target, Store.Stored current, ObjectNode candidate, boolean dryRun) {
    return writes.commitUpdate(target, current, candidate, dryRun);
  }

  /** Deletes {@code current} ({@link DeleteRequests#deleteObject}); for the garbage collector. */
  Response deleteObject(Target target, Store.Stored current, String policy, boolean dryRun) {
    return deletes.deleteObject(target, current, policy, dryRun);
  }

  private static String quote(String s) {
    try {
      return JSON_MAPPER.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  Store store() {
    return store;
  }

  /** RBAC over this server's roles and bindings, for {@link AccessControl}. */
  RbacAuthorizer authorizer() {
    return authorizer;
  }

  /** The ServiceAccount tokens this server issues, for {@link Authenticator}. */
  ServiceAccountTokens tokens() {
    return tokens;
  }
}
