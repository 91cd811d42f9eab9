package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Discovery documents ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/G}, {@code /apis/G/V}),
 * {@code /version}, {@code /} and health endpoints. The built-in kinds are a fixed table (the fabric8 store accepts any
 * kind; these are the ones announced); custom resources are computed from the stored CustomResourceDefinitions at
 * request time. Only the legacy (unaggregated) discovery format is served: clients asking for aggregated discovery
 * fall back to it. {@code /openapi/v3} and {@code /openapi/v2}: see {@link OpenApi}.
 */
final class Discovery {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
      "update", "watch");
  private static final List<String> SUBRESOURCE_VERBS = List.of("get", "patch", "update");

  /**
   * A built-in resource; {@code flags} holds "status", "scale", "all" (category), "cluster" (not namespaced),
   * "review" (create-only, answered and never stored, as access and token reviews) and "token" (a
   * {@code /token} subresource, ServiceAccounts' TokenRequest).
   */
  private record Builtin(String plural, String kind, List<String> flags, List<String> shortNames) {
    boolean has(String flag) {
      return flags.contains(flag);
    }
  }

  private record GroupVersion(String group, String version, List<Builtin> resources) {
  }

  private static Builtin r(String plural, String kind, String flags, String... shortNames) {
    return new Builtin(plural, kind, flags.isEmpty() ? List.of() : Arrays.asList(flags.split(",")),
        Arrays.asList(shortNames));
  }

  private static final List<GroupVersion> BUILTIN = List.of(
      new GroupVersion("", "v1", List.of(
          r("configmaps", "ConfigMap", "", "cm"),
          r("endpoints", "Endpoints", "", "ep"),
          r("events", "Event", "", "ev"),
          r("limitranges", "LimitRange", "", "limits"),
          r("namespaces", "Namespace", "cluster,status", "ns"),
          r("nodes", "Node", "cluster,status", "no"),
          r("persistentvolumeclaims", "PersistentVolumeClaim", "status", "pvc"),
          r("persistentvolumes", "PersistentVolume", "cluster,status", "pv"),
          r("pods", "Pod", "status,all", "po"),
          r("podtemplates", "PodTemplate", ""),
          r("replicationcontrollers", "ReplicationController", "status,scale,all", "rc"),
          r("resourcequotas", "ResourceQuota", "status", "quota"),
          r("secrets", "Secret", ""),
          r("serviceaccounts", "ServiceAccount", "token", "sa"),
          r("services", "Service", "status,all", "svc"))),
      new GroupVersion("apps", "v1", List.of(
          r("controllerrevisions", "ControllerRevision", ""),
          r("daemonsets", "DaemonSet", "status,all", "ds"),
          r("deployments", "Deployment", "status,scale,all", "deploy"),
          r("replicasets", "ReplicaSet", "status,scale,all", "rs"),
          r("statefulsets", "StatefulSet", "status,scale,all", "sts"))),
      new GroupVersion("batch", "v1", List.of(
          r("cronjobs", "CronJob", "status,all", "cj"),
          r("jobs", "Job", "status,all"))),
      new GroupVersion("coordination.k8s.io", "v1", List.of(
          r("leases", "Lease", ""))),
      new GroupVersion("apiextensions.k8s.io", "v1", List.of(
          r("customresourcedefinitions", "CustomResourceDefinition", "cluster,status", "crd", "crds"))),
      new GroupVersion("admissionregistration.k8s.io", "v1", List.of(
          r("mutatingwebhookconfigurations", "MutatingWebhookConfiguration", "cluster"),
          r("validatingadmissionpolicies", "ValidatingAdmissionPolicy", "cluster,status"),
          r("validatingadmissionpolicybindings", "ValidatingAdmissionPolicyBinding", "cluster"),
          r("validatingwebhookconfigurations", "ValidatingWebhookConfiguration", "cluster"))),
      new GroupVersion("events.k8s.io", "v1", List.of(
          r("events", "Event", "", "ev"))),
      new GroupVersion("rbac.authorization.k8s.io", "v1", List.of(
          r("clusterrolebindings", "ClusterRoleBinding", "cluster"),
          r("clusterroles", "ClusterRole", "cluster"),
          r("rolebindings", "RoleBinding", ""),
          r("roles", "Role", ""))),
      new GroupVersion("policy", "v1", List.of(
          r("poddisruptionbudgets", "PodDisruptionBudget", "status", "pdb"))),
      new GroupVersion("scheduling.k8s.io", "v1", List.of(
          r("priorityclasses", "PriorityClass", "cluster", "pc"))),
      new GroupVersion("node.k8s.io", "v1", List.of(
          r("runtimeclasses", "RuntimeClass", "cluster"))),
      new GroupVersion("networking.k8s.io", "v1", List.of(
          r("ingressclasses", "IngressClass", "cluster"),
          r("ingresses", "Ingress", "status", "ing"),
          r("networkpolicies", "NetworkPolicy", "", "netpol"))),
      new GroupVersion("storage.k8s.io", "v1", List.of(
          r("csidrivers", "CSIDriver", "cluster"),
          r("storageclasses", "StorageClass", "cluster", "sc"),
          r("volumeattachments", "VolumeAttachment", "cluster,status"))),
      new GroupVersion("discovery.k8s.io", "v1", List.of(
          r("endpointslices", "EndpointSlice", ""))),
      new GroupVersion("autoscaling", "v2", List.of(
          r("horizontalpodautoscalers", "HorizontalPodAutoscaler", "status,all", "hpa"))),
      new GroupVersion("authorization.k8s.io", "v1", List.of(
          r("localsubjectaccessreviews", "LocalSubjectAccessReview", "review"),
          r("selfsubjectaccessreviews", "SelfSubjectAccessReview", "cluster,review"),
          r("selfsubjectrulesreviews", "SelfSubjectRulesReview", "cluster,review"),
          r("subjectaccessreviews", "SubjectAccessReview", "cluster,review"))),
      new GroupVersion("authentication.k8s.io", "v1", List.of(
          r("selfsubjectreviews", "SelfSubjectReview", "cluster,review"),
          r("tokenreviews", "TokenReview", "cluster,review"))),
      new GroupVersion("certificates.k8s.io", "v1", List.of(
          r("certificatesigningrequests", "CertificateSigningRequest", "cluster,status", "csr"))));

  private final Supplier<List<JsonNode>> crds;
  private final String serverVersion;
  /** Discovery is read on every request and changes only with CRDs. */
  private volatile Cached cache;
  private final AtomicLong crdChanges = new AtomicLong();

  private record Cached(long changes, Map<String, Map<String, List<ObjectNode>>> groups) {
  }

  Discovery(Supplier<List<JsonNode>> crds, String serverVersion) {
    this.crds = crds;
    this.serverVersion = serverVersion;
  }

  /** Answers a GET of a non-resource path. */
  Response handle(String path, String host, String accept) {
    String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    if (p.equals("/")) {
      return ok(root());
    }
    if (p.equals("/version")) {
      return ok(version());
    }
    if (p.equals("/healthz") || p.equals("/livez") || p.equals("/readyz")) {
      return Response.text(200, "ok");
    }
    if (p.equals("/api")) {
      ObjectNode versions = NODES.objectNode().put("kind", "APIVersions");
      versions.putArray("versions").add("v1");
      versions.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0")
          .put("serverAddress", host == null ? "127.0.0.1" : host);
      return ok(versions);
    }
    if (p.equals("/apis")) {
      ObjectNode list = NODES.objectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
      ArrayNode groups = list.putArray("groups");
      groups().forEach((group, versions) -> {
        if (!group.isEmpty()) {
          groups.add(apiGroup(group, versions));
        }
      });
      return ok(list);
    }
    Map<String, Map<String, List<ObjectNode>>> groups = groups();
    if (p.equals("/openapi/v2")) {
      return accept == null || accept.contains("json") || accept.contains("*/*")
          ? ok(OpenApi.swagger(crds.get(), serverVersion))
          : Response.status(406, "NotAcceptable", "only the following media types are accepted: application/json");
    }
    if (p.startsWith("/openapi/v3")) {
      JsonNode document = OpenApi.handle(p, groups, crds.get(), serverVersion);
      return document != null ? ok(document)
          : Response.notFound();
    }
    String[] segments = p.substring(1).split("/");
    if (segments.length == 2 && segments[0].equals("api")) {
      return resourceList(groups, "", segments[1]);
    }
    if (segments.length == 2 && segments[0].equals("apis") && groups.containsKey(segments[1])) {
      return ok(apiGroup(segments[1], groups.get(segments[1])).put("apiVersion", "v1"));
    }
    if (segments.length == 3 && segments[0].equals("apis")) {
      return resourceList(groups, segments[1], segments[2]);
    }
    return Response.notFound();
  }

  private Response resourceList(Map<String, Map<String, List<ObjectNode>>> groups, String group, String version) {
    List<ObjectNode> resources = groups.getOrDefault(group, Map.of()).get(version);
    if (resources == null) {
      return Response.notFound();
    }
    ObjectNode list = NODES.objectNode().put("kind", "APIResourceList").put("apiVersion", "v1")
        .put("groupVersion", group.isEmpty() ? version : group + "/" + version);
    ArrayNode array = list.putArray("resources");
    resources.forEach(array::add);
    return ok(list);
  }

  private static ObjectNode apiGroup(String group, Map<String, List<ObjectNode>> versions) {
    ObjectNode node = NODES.objectNode().put("kind", "APIGroup").put("name", group);
    ArrayNode array = node.putArray("versions");
    String preferred = null;
    for (String version : versions.keySet()) {
      array.addObject().put("groupVersion", group + "/" + version).put("version", version);
      preferred = preferred == null ? version : preferred;
    }
    if (preferred != null) {
      node.putObject("preferredVersion").put("groupVersion", group + "/" + preferred).put("version", preferred);
    }
    return node;
  }

  /** Whether {@code group} is a built-in API group (custom resources live in other groups). */
  static boolean isBuiltinGroup(String group) {
    for (GroupVersion gv : BUILTIN) {
      if (gv.group().equals(group)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code plural} of {@code group} is a built-in kind (not a custom resource). */
  static boolean isBuiltin(String group, String plural) {
    for (GroupVersion gv : BUILTIN) {
      if (gv.group().equals(group)) {
        for (Builtin b : gv.resources()) {
          if (b.plural().equals(plural)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Forgets the computed resources: call after a CustomResourceDefinition changed. */
  void invalidate() {
    crdChanges.incrementAndGet();
  }

  /** The APIResource of {@code plural} (or {@code plural/sub}) in the group version, built-in or from a CRD. */
  Optional<ObjectNode> resource(String group, String version, String name) {
    return groups().getOrDefault(group, Map.of()).getOrDefault(version, List.of()).stream()
        .filter(resource -> resource.path("name").asText().equals(name))
        .findFirst();
  }

  /** group -> version -> APIResources, built-ins first, then CRDs; a CRD's storage version comes first. */
  Map<String, Map<String, List<ObjectNode>>> groups() {
    Cached cached = cache;
    long changes = crdChanges.get();
    if (cached == null || cached.changes() != changes) {
      cached = new Cached(changes, computeGroups());
      cache = cached;
    }
    return cached.groups();
  }

  private Map<String, Map<String, List<ObjectNode>>> computeGroups() {
    Map<String, Map<String, List<ObjectNode>>> groups = new LinkedHashMap<>();
    for (GroupVersion gv : BUILTIN) {
      List<ObjectNode> resources = groups.computeIfAbsent(gv.group(), g -> new LinkedHashMap<>())
          .computeIfAbsent(gv.version(), v -> new ArrayList<>());
      for (Builtin b : gv.resources()) {
        resources.add(resource(b.plural(), b.kind().toLowerCase(java.util.Locale.ROOT), b.kind(), !b.has("cluster"),
            b.has("review") ? List.of("create") : VERBS, b.shortNames(), b.has("all") ? List.of("all") : List.of()));
        if (b.has("status")) {
          resources.add(resource(b.plural() + "/status", "", b.kind(), !b.has("cluster"), SUBRESOURCE_VERBS,
              List.of(), List.of()));
        }
        if (b.has("scale")) {
          resources.add(scale(b.plural(), !b.has("cluster")));
        }
        if (b.has("token")) {
          resources.add(resource(b.plural() + "/token", "", "TokenRequest", true, List.of("create"), List.of(),
              List.of()).put("group", "authentication.k8s.io").put("version", "v1"));
        }
      }
    }
    for (JsonNode crd : crds.get()) {
      JsonNode spec = crd.path("spec");
      String group = spec.path("group").asText("");
      JsonNode names = spec.path("names");
      String plural = names.path("plural").asText("");
      String kind = names.path("kind").asText("");
      if (group.isEmpty() || plural.isEmpty() || kind.isEmpty()) {
        continue;
      }
      boolean namespaced = !"Cluster".equals(spec.path("scope").asText("Namespaced"));
      List<JsonNode> versions = new ArrayList<>();
      spec.path("versions").forEach(v -> {
        if (v.path("served").asBoolean(true)) {
          if (v.path("storage").asBoolean(false)) {
            versions.add(0, v);
          } else {
            versions.add(v);
          }
        }
      });
      for (JsonNode version : versions) {
        List<ObjectNode> resources = groups.computeIfAbsent(group, g -> new LinkedHashMap<>())
            .computeIfAbsent(version.path("name").asText(), v -> new ArrayList<>());
        resources.add(resource(plural, names.path("singular").asText(kind.toLowerCase(java.util.Locale.ROOT)), kind,
            namespaced, VERBS, strings(names.path("shortNames")), strings(names.path("categories"))));
        JsonNode subresources = version.has("subresources") ? version.path("subresources")
            : spec.path("subresources");
        if (subresources.has("status")) {
          resources.add(resource(plural + "/status", "", kind, namespaced, SUBRESOURCE_VERBS, List.of(), List.of()));
        }
        if (subresources.has("scale")) {
          resources.add(scale(plural, namespaced));
        }
      }
    }
    return groups;
  }

  private static ObjectNode resource(String name, String singular, String kind, boolean namespaced,
      List<String> verbs, List<String> shortNames, List<String> categories) {
    ObjectNode node = NODES.objectNode().put("name", name).put("singularName", singular)
        .put("namespaced", namespaced).put("kind", kind);
    ArrayNode v = node.putArray("verbs");
    verbs.forEach(v::add);
    if (!shortNames.isEmpty()) {
      ArrayNode s = node.putArray("shortNames");
      shortNames.forEach(s::add);
    }
    if (!categories.isEmpty()) {
      ArrayNode c = node.putArray("categories");
      categories.forEach(c::add);
    }
    return node;
  }

  private static ObjectNode scale(String plural, boolean namespaced) {
    return resource(plural + "/scale", "", "Scale", namespaced, SUBRESOURCE_VERBS, List.of(), List.of())
        .put("group", "autoscaling").put("version", "v1");
  }

  private static List<String> strings(JsonNode array) {
    List<String> result = new ArrayList<>();
    array.forEach(n -> result.add(n.asText()));
    return result;
  }

  private ObjectNode root() {
    ObjectNode root = NODES.objectNode();
    ArrayNode paths = root.putArray("paths");
    paths.add("/api").add("/api/v1").add("/apis");
    groups().forEach((group, versions) -> {
      if (!group.isEmpty()) {
        paths.add("/apis/" + group);
        versions.keySet().forEach(v -> paths.add("/apis/" + group + "/" + v));
      }
    });
    paths.add("/healthz").add("/livez").add("/readyz").add("/version");
    return root;
  }

  private ObjectNode version() {
    String[] parts = serverVersion.replaceFirst("^v", "").split("[.-]");
    return NODES.objectNode().put("major", parts[0]).put("minor", parts.length > 1 ? parts[1] : "0")
        .put("gitVersion", serverVersion).put("gitCommit", "").put("gitTreeState", "clean")
        .put("buildDate", "1970-01-01T00:00:00Z").put("goVersion", "").put("compiler", "")
        .put("platform", "linux/amd64");
  }

  private static Response ok(JsonNode body) {
    return Response.json(200, body.toString());
  }
}
