package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * The body training code POSTs to the status server ({@link TrainJobStatusEndpoint#path}): upstream's
 * {@code UpdateTrainJobStatusRequest}. Not a resource: it is never stored. Unknown fields are ignored, as upstream's
 * decoder does.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdateTrainJobStatusRequest {

  @JsonProperty("trainerStatus")
  private TrainerStatus trainerStatus;

  public TrainerStatus getTrainerStatus() {
    return trainerStatus;
  }

  public void setTrainerStatus(TrainerStatus trainerStatus) {
    this.trainerStatus = trainerStatus;
  }

  public UpdateTrainJobStatusRequest withTrainerStatus(TrainerStatus trainerStatus) {
    this.trainerStatus = trainerStatus;
    return this;
  }

  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof UpdateTrainJobStatusRequest that
        && Objects.equals(trainerStatus, that.trainerStatus);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(trainerStatus);
  }

  @Override
  public String toString() {
    return "UpdateTrainJobStatusRequest{trainerStatus=" + trainerStatus + "}";
  }
}
