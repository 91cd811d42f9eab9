package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static io.kftrainer.apiserver.AdmissionChain.ALL_PHASES;
import static io.kftrainer.apiserver.KubeJson.metadata;
import static io.kftrainer.apiserver.KubeJson.parseObject;

/**
 * Access and token reviews, answered and never stored, as kube-apiserver answers them: access reviews by the same
 * RBAC that authorizes requests ({@link RbacAuthorizer}), for the user the review names
 * ({@code SubjectAccessReview}, {@code LocalSubjectAccessReview}) or the one who asks (the self reviews); token
 * reviews by verifying the token ({@link ServiceAccountTokens#review}). Admission hooks see every review.
 */
final class ReviewRequests {

  private static final String STATUS = "status";

  private final AdmissionChain admission;
  private final ServiceAccountTokens tokens;
  private final RbacAuthorizer authorizer;

  ReviewRequests(AdmissionChain admission, ServiceAccountTokens tokens, RbacAuthorizer authorizer) {
    this.admission = admission;
    this.tokens = tokens;
    this.authorizer = authorizer;
  }

  static boolean isReview(Target target) {
    return target.rp().group().startsWith("authorization.k8s.io") || target.rp().group().equals("authentication.k8s.io");
  }

  /** The review {@code body} with its status, as {@code requester} asked it. */
  Response review(Target target, String contentType, byte[] body, Authenticator.User requester) {
    ObjectNode review = parseObject(body, contentType);
    CreateAndUpdateRequests.checkTypeMeta(target, review);
    metadata(review);
    JsonNode spec = review.path("spec");
    ObjectNode status = switch (target.rp().plural()) {
      case "tokenreviews" -> tokens.review(spec);
      case "selfsubjectreviews" -> userInfo(requester);
      case "selfsubjectrulesreviews" -> authorizer.rules(requester, spec.path("namespace").asText(""));
      case "selfsubjectaccessreviews" -> access(target, requester, spec, null);
      case "localsubjectaccessreviews" -> access(target, subject(target, spec), spec, target.rp().namespace());
      case "subjectaccessreviews" -> access(target, subject(target, spec), spec, null);
      default -> throw new ApiException(Response.notFound());
    };
    review.set(STATUS, status);
    List<String> warnings = new ArrayList<>();
    Response denied = admission.admit(ALL_PHASES, AdmissionRequest.Operation.CREATE, target, review, null, warnings);
    return denied != null ? denied : Response.json(201, review).withWarnings(warnings);
  }

  private static ObjectNode userInfo(Authenticator.User user) {
    ObjectNode status = JsonNodeFactory.instance.objectNode();
    ObjectNode info = status.putObject("userInfo").put("username", user.name());
    user.groups().forEach(info.putArray("groups")::add);
    return status;
  }

  /** The user and groups a (local) subject access review's spec names. */
  private static Authenticator.User subject(Target target, JsonNode spec) {
    List<String> groups = new ArrayList<>();
    spec.path("groups").forEach(group -> groups.add(group.asText()));
    String user = spec.path("user").asText("");
    if (user.isEmpty() && groups.isEmpty()) {
      throw new ApiException(StatusErrors.invalid(target, "", List.of(
          "spec.user: Invalid value: \"\": at least one of user or group must be specified")));
    }
    return new Authenticator.User(user, List.copyOf(groups));
  }

  /**
   * Whether {@code user} may do what the spec's {@code resourceAttributes} or {@code nonResourceAttributes} say;
   * a local review's namespace is its own, whatever the attributes say.
   */
  private ObjectNode access(Target target, Authenticator.User user, JsonNode spec, String localNamespace) {
    JsonNode resource = spec.path("resourceAttributes");
    JsonNode nonResource = spec.path("nonResourceAttributes");
    if (resource.isObject() == nonResource.isObject()) {
      throw new ApiException(StatusErrors.invalid(target, "", List.of("spec.resourceAttributes: Invalid value: "
          + "\"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified")));
    }
    RbacAuthorizer.Request request;
    if (resource.isObject()) {
      String namespace = localNamespace != null ? localNamespace : emptyToNull(resource.path("namespace").asText(""));
      request = new RbacAuthorizer.Request(resource.path("verb").asText(""), resource.path("group").asText(""),
          resource.path("resource").asText(""), emptyToNull(resource.path("subresource").asText("")), namespace,
          emptyToNull(resource.path("name").asText("")), null);
    } else {
      request = new RbacAuthorizer.Request(nonResource.path("verb").asText(""), null, null, null, null, null,
          nonResource.path("path").asText(""));
    }
    // a denial has no reason, as kube-apiserver's RBAC authorizer gives none when no rule matched (kubectl prints "no")
    return JsonNodeFactory.instance.objectNode().put("allowed", authorizer.allowed(user, request));
  }

  private static String emptyToNull(String value) {
    return value.isEmpty() ? null : value;
  }
}
