package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Authorization as kube-apiserver's {@code --authorization-mode=RBAC}, over the Roles, ClusterRoles, RoleBindings and
 * ClusterRoleBindings stored in this server, plus the bootstrap policy that matters here (hard-coded rather than
 * stored, so that lists of ClusterRoles hold only what clients created):
 * <ul>
 *   <li>{@code system:masters} (the kubeconfig's admin) may do everything ({@code cluster-admin});</li>
 *   <li>every authenticated user may read discovery, {@code /version}, the OpenAPI and the health paths
 *   ({@code system:discovery}, {@code system:public-info-viewer}) and create self-reviews
 *   ({@code system:basic-user});</li>
 *   <li>ServiceAccounts may read the OIDC discovery document and JWKS
 *   ({@code system:service-account-issuer-discovery});</li>
 *   <li>anything else only when a binding grants it: a ServiceAccount without bindings may do nothing else, in
 *   particular nothing on Secrets.</li>
 * </ul>
 * Not implemented: ClusterRole aggregation, the {@code escalate}/{@code bind} checks on writes of RBAC objects
 * (only the admin can write them unless a binding grants that, and then it grants everything they say).
 */
final class RbacAuthorizer {

  private static final String RBAC = "rbac.authorization.k8s.io";
  private static final Store.Kind ROLES = new Store.Kind(RBAC, "roles");
  private static final Store.Kind CLUSTER_ROLES = new Store.Kind(RBAC, "clusterroles");
  private static final Store.Kind ROLE_BINDINGS = new Store.Kind(RBAC, "rolebindings");
  private static final Store.Kind CLUSTER_ROLE_BINDINGS = new Store.Kind(RBAC, "clusterrolebindings");
  private static final List<String> DISCOVERY = List.of("/api", "/api/*", "/apis", "/apis/*", "/openapi",
      "/openapi/*", "/version", "/version/", "/healthz", "/livez", "/readyz");
  private static final List<String> ISSUER_DISCOVERY = List.of(ServiceAccountTokens.DISCOVERY_PATH,
      ServiceAccountTokens.JWKS_PATH);
  private static final List<String> SELF_REVIEWS = List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews",
      "selfsubjectreviews");

  /**
   * What a request asks, as kube's {@code RequestInfo}: a resource request (verb, group, resource, subresource,
   * namespace, name) or a non-resource one (verb, path).
   */
  record Request(String verb, String group, String resource, String subresource, String namespace, String name,
      String path) {

    static Request of(String method, ResourcePath rp, String path) {
      if (rp == null) {
        return new Request(method.toLowerCase(java.util.Locale.ROOT), null, null, null, null, null, path);
      }
      return new Request(verb(method, rp), rp.group(), rp.plural(), rp.subresource(), rp.namespace(),
          rp.name() != null ? rp.name() : selectedName(method, rp), null);
    }

    /**
     * A list or watch of one object ({@code fieldSelector=metadata.name=NAME}) is a request for that name, as
     * kube-apiserver's RequestInfoFactory reads it: a Role's {@code resourceNames} cover it.
     */
    private static String selectedName(String method, ResourcePath rp) {
      String selector = rp.query().get("fieldSelector");
      if (!(method.equals("GET") || method.equals("HEAD")) || selector == null
          || !selector.startsWith("metadata.name=") || selector.contains(",")) {
        return null;
      }
      return selector.substring("metadata.name=".length());
    }

    private static String verb(String method, ResourcePath rp) {
      return switch (method) {
        case "GET", "HEAD" -> rp.isWatch() ? "watch" : rp.name() == null ? "list" : "get";
        case "POST" -> "create";
        case "PUT" -> "update";
        case "PATCH" -> "patch";
        case "DELETE" -> rp.name() == null ? "deletecollection" : "delete";
        default -> method.toLowerCase(java.util.Locale.ROOT);
      };
    }

    boolean isResource() {
      return path == null;
    }
  }

  private final Store store;

  RbacAuthorizer(Store store) {
    this.store = store;
  }

  boolean allowed(Authenticator.User user, Request request) {
    if (user.groups().contains(Authenticator.MASTERS)) {
      return true;
    }
    if (!request.isResource()) {
      if (matchesPath(DISCOVERY, request.path()) && request.verb().equals("get")) {
        return true;
      }
      if (user.groups().contains("system:serviceaccounts") && matchesPath(ISSUER_DISCOVERY, request.path())
          && request.verb().equals("get")) {
        return true;
      }
    } else if (request.verb().equals("create") && SELF_REVIEWS.contains(request.resource())
        && (request.group().equals("authorization.k8s.io") || request.group().equals("authentication.k8s.io"))) {
      return true;
    }
    for (Store.Stored binding : store.list(CLUSTER_ROLE_BINDINGS, null)) {
      if (binds(binding.object(), user) && roleAllows(binding.object().path("roleRef"), null, request)) {
        return true;
      }
    }
    if (request.isResource() && request.namespace() != null) {
      for (Store.Stored binding : store.list(ROLE_BINDINGS, request.namespace())) {
        if (binds(binding.object(), user)
            && roleAllows(binding.object().path("roleRef"), request.namespace(), request)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A {@code SelfSubjectRulesReview}'s status: the rules of every role bound to {@code user} in {@code namespace}
   * or cluster-wide, and the bootstrap policy's, as kube's RBAC rule resolver lists them.
   */
  ObjectNode rules(Authenticator.User user, String namespace) {
    ObjectNode status = JsonNodeFactory.instance.objectNode().put("incomplete", false);
    ArrayNode resourceRules = status.putArray("resourceRules");
    ArrayNode nonResourceRules = status.putArray("nonResourceRules");
    if (user.groups().contains(Authenticator.MASTERS)) {
      resourceRules.addObject().<ObjectNode>set("verbs", strings("*")).<ObjectNode>set("apiGroups", strings("*"))
          .set("resources", strings("*"));
      nonResourceRules.addObject().<ObjectNode>set("verbs", strings("*")).set("nonResourceURLs", strings("*"));
      return status;
    }
    resourceRules.addObject().<ObjectNode>set("verbs", strings("create"))
        .<ObjectNode>set("apiGroups", strings("authorization.k8s.io", "authentication.k8s.io"))
        .set("resources", strings(SELF_REVIEWS.toArray(String[]::new)));
    nonResourceRules.addObject().<ObjectNode>set("verbs", strings("get"))
        .set("nonResourceURLs", strings(DISCOVERY.toArray(String[]::new)));
    if (user.groups().contains("system:serviceaccounts")) {
      nonResourceRules.addObject().<ObjectNode>set("verbs", strings("get"))
          .set("nonResourceURLs", strings(ISSUER_DISCOVERY.toArray(String[]::new)));
    }
    for (Store.Stored binding : store.list(CLUSTER_ROLE_BINDINGS, null)) {
      if (binds(binding.object(), user)) {
        collectRules(binding.object().path("roleRef"), null, resourceRules, nonResourceRules);
      }
    }
    if (!namespace.isEmpty()) {
      for (Store.Stored binding : store.list(ROLE_BINDINGS, namespace)) {
        if (binds(binding.object(), user)) {
          collectRules(binding.object().path("roleRef"), namespace, resourceRules, nonResourceRules);
        }
      }
    }
    return status;
  }

  private void collectRules(JsonNode roleRef, String bindingNamespace, ArrayNode resourceRules,
      ArrayNode nonResourceRules) {
    Store.Stored role = role(roleRef, bindingNamespace);
    if (role == null) {
      return;
    }
    for (JsonNode rule : role.object().path("rules")) {
      (rule.has("nonResourceURLs") ? nonResourceRules : resourceRules).add(rule.deepCopy());
    }
  }

  private static ArrayNode strings(String... values) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (String value : values) {
      array.add(value);
    }
    return array;
  }

  private static boolean binds(JsonNode binding, Authenticator.User user) {
    for (JsonNode subject : binding.path("subjects")) {
      String name = subject.path("name").asText();
      boolean matches = switch (subject.path("kind").asText()) {
        case "User" -> name.equals(user.name());
        case "Group" -> user.groups().contains(name);
        case "ServiceAccount" -> user.name().equals("system:serviceaccount:"
            + subject.path("namespace").asText(binding.path("metadata").path("namespace").asText()) + ":" + name);
        default -> false;
      };
      if (matches) {
        return true;
      }
    }
    return false;
  }

  private boolean roleAllows(JsonNode roleRef, String bindingNamespace, Request request) {
    Store.Stored role = role(roleRef, bindingNamespace);
    if (role == null) {
      return false;
    }
    for (JsonNode rule : role.object().path("rules")) {
      if (ruleAllows(rule, request)) {
        return true;
      }
    }
    return false;
  }

  private Store.Stored role(JsonNode roleRef, String bindingNamespace) {
    String name = roleRef.path("name").asText();
    return roleRef.path("kind").asText().equals("Role") && bindingNamespace != null
        ? store.get(ROLES, bindingNamespace, name) : store.get(CLUSTER_ROLES, null, name);
  }

  private static boolean ruleAllows(JsonNode rule, Request request) {
    if (!contains(rule.path("verbs"), request.verb())) {
      return false;
    }
    if (!request.isResource()) {
      for (JsonNode url : rule.path("nonResourceURLs")) {
        if (matchesPath(List.of(url.asText()), request.path())) {
          return true;
        }
      }
      return false;
    }
    if (!contains(rule.path("apiGroups"), request.group())) {
      return false;
    }
    String resource = request.subresource() == null ? request.resource()
        : request.resource() + "/" + request.subresource();
    boolean resourceMatches = false;
    for (JsonNode candidate : rule.path("resources")) {
      String text = candidate.asText();
      resourceMatches |= text.equals("*") || text.equals(resource)
          || (request.subresource() != null && text.equals("*/" + request.subresource()));
    }
    if (!resourceMatches) {
      return false;
    }
    JsonNode names = rule.path("resourceNames");
    return names.isEmpty() || (request.name() != null && contains(names, request.name()));
  }

  private static boolean contains(JsonNode values, String value) {
    for (JsonNode candidate : values) {
      if (candidate.asText().equals("*") || candidate.asText().equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesPath(List<String> patterns, String path) {
    for (String pattern : patterns) {
      if (pattern.equals("*") || pattern.equals(path)
          || (pattern.endsWith("*") && path.startsWith(pattern.substring(0, pattern.length() - 1)))) {
        return true;
      }
    }
    return false;
  }

  /** kube-apiserver's 403 for {@code request} by {@code user}. */
  static Response forbidden(Authenticator.User user, Request request) {
    if (!request.isResource()) {
      return Response.status(403, "Forbidden", "forbidden: User \"" + user.name() + "\" cannot "
          + request.verb() + " path \"" + request.path() + "\"");
    }
    String resource = request.subresource() == null ? request.resource()
        : request.resource() + "/" + request.subresource();
    String qualified = request.group().isEmpty() ? request.resource() : request.resource() + "." + request.group();
    String scope = request.namespace() == null ? " at the cluster scope"
        : " in the namespace \"" + request.namespace() + "\"";
    io.fabric8.kubernetes.api.model.StatusDetails details = new io.fabric8.kubernetes.api.model.StatusDetails();
    details.setName(request.name());
    details.setGroup(request.group());
    details.setKind(request.resource());
    return Response.json(403, Response.failure(403, "Forbidden", qualified
        + (request.name() == null ? "" : " \"" + request.name() + "\"") + " is forbidden: User \"" + user.name()
        + "\" cannot " + request.verb() + " resource \"" + resource + "\" in API group \"" + request.group() + "\""
        + scope, details));
  }
}
