package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static io.kftrainer.apiserver.AdmissionChain.ALL_PHASES;
import static io.kftrainer.apiserver.KubeJson.metadata;
import static io.kftrainer.apiserver.KubeJson.parseObject;

/** Access and token reviews: answered (everything allowed, unless an admission hook says otherwise), never stored. */
final class Reviews {

  private static final String STATUS = "status";

  private final AdmissionChain admission;

  Reviews(AdmissionChain admission) {
    this.admission = admission;
  }

  static boolean isReview(Target target) {
    return target.rp().group().startsWith("authorization.k8s.io") || target.rp().group().equals("authentication.k8s.io");
  }

  /**
   * Access and token reviews are answered, never stored. This server has no authentication or authorization:
   * everything is allowed, and admission hooks may answer otherwise.
   */
  Response review(Target target, String contentType, byte[] body) {
    ObjectNode review = parseObject(body, contentType);
    Writes.checkTypeMeta(target, review);
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
    Response denied = admission.admit(ALL_PHASES, AdmissionRequest.Operation.CREATE, target, review, null, warnings);
    return denied != null ? denied : Response.json(201, review).withWarnings(warnings);
  }
}
