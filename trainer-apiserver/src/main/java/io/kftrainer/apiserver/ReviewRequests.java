package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static io.kftrainer.apiserver.AdmissionChain.ALL_PHASES;
import static io.kftrainer.apiserver.KubeJson.metadata;
import static io.kftrainer.apiserver.KubeJson.parseObject;

/**
 * Access and token reviews, answered and never stored. Access reviews allow everything (unless an admission hook
 * says otherwise); token reviews verify the token ({@link ServiceAccountTokens#review}).
 */
final class ReviewRequests {

  private static final String STATUS = "status";

  private final AdmissionChain admission;
  private final ServiceAccountTokens tokens;

  ReviewRequests(AdmissionChain admission, ServiceAccountTokens tokens) {
    this.admission = admission;
    this.tokens = tokens;
  }

  static boolean isReview(Target target) {
    return target.rp().group().startsWith("authorization.k8s.io") || target.rp().group().equals("authentication.k8s.io");
  }

  /**
   * Access and token reviews are answered, never stored. This server has no authorization: every access is
   * allowed, and admission hooks may answer otherwise. Tokens are verified as kube-apiserver verifies
   * ServiceAccount tokens.
   */
  Response review(Target target, String contentType, byte[] body) {
    ObjectNode review = parseObject(body, contentType);
    CreateAndUpdateRequests.checkTypeMeta(target, review);
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
        status = tokens.review(review.path("spec"));
        break;
      case "selfsubjectreviews":
        status.putObject("userInfo").put("username", "admin");
        break;
      default:
        status.put("allowed", true);
    }
    review.set(STATUS, status);
    List<String> warnings = new ArrayList<>();
    Response denied = admission.admit(ALL_PHASES, AdmissionRequest.Operation.CREATE, target, review, null, warnings);
    return denied != null ? denied : Response.json(201, review).withWarnings(warnings);
  }
}
