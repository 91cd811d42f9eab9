package io.kftrainer.statusserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes {@code status.trainerStatus} with server-side apply of the status subresource, field manager
 * {@value #FIELD_MANAGER} and {@code force=true}, as upstream: the fields this manager applied last time and omits
 * now are removed (an update replaces the trainer status, it does not merge into it), and no other manager's
 * fields are touched. One PATCH per accepted update, none when the TrainJob already has exactly this trainer status.
 */
final class TrainerStatusApplier {

  static final String FIELD_MANAGER = "trainer-status";
  private static final String APPLY_PATCH = "application/apply-patch+yaml";

  /**
   * The outcome of an apply: {@code code} 200 when written or unchanged; otherwise the API server's code, its
   * {@code reason} and {@code message}.
   */
  record Outcome(int code, String reason, String message, boolean written) {
    static final Outcome UNCHANGED = new Outcome(200, "", "", false);
    static final Outcome APPLIED = new Outcome(200, "", "", true);
  }

  private final ClusterApi api;
  private final TrainJobs trainJobs;
  private final ObjectMapper json;

  TrainerStatusApplier(ClusterApi api, TrainJobs trainJobs, ObjectMapper json) {
    this.api = Objects.requireNonNull(api, "api");
    this.trainJobs = Objects.requireNonNull(trainJobs, "trainJobs");
    this.json = Objects.requireNonNull(json, "json");
  }

  /** @throws IOException if the API server cannot be reached */
  Outcome apply(String namespace, String name, TrainerStatus status) throws IOException {
    boolean unchanged = trainJobs.get(namespace, name)
        .map(TrainJob::getStatus)
        .map(TrainJobStatus::getTrainerStatus)
        .filter(status::equals)
        .isPresent();
    if (unchanged) {
      return Outcome.UNCHANGED;
    }
    ObjectNode patch = json.createObjectNode()
        .put("apiVersion", TrainerConstants.API_VERSION)
        .put("kind", TrainerConstants.TRAINJOB_KIND);
    patch.putObject("metadata").put("name", name).put("namespace", namespace);
    patch.putObject("status").set("trainerStatus", json.valueToTree(status));
    String path = TrainJobStatusEndpoint.path(namespace, name) + "?fieldManager="
        + URLEncoder.encode(FIELD_MANAGER, StandardCharsets.UTF_8) + "&force=true";
    ClusterApi.Answer answer = api.patch(path, APPLY_PATCH, json.writeValueAsString(patch));
    if (answer.isSuccessful()) {
      return Outcome.APPLIED;
    }
    JsonNode failure = parse(answer.body());
    return new Outcome(answer.code(), failure.path("reason").asText(""), failure.path("message").asText(""),
        false);
  }

  private JsonNode parse(String body) {
    try {
      return json.readTree(body);
    } catch (IOException e) {
      return json.createObjectNode();
    }
  }
}
