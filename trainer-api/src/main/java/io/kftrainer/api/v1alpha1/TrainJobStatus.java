package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Observed state of a {@link TrainJob}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"conditions", "jobsStatus", "trainerStatus"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "conditions": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["type"],
              "items": {
                "required": [
                  "lastTransitionTime",
                  "message",
                  "reason",
                  "status",
                  "type"
                ],
                "properties": {
                  "lastTransitionTime": {
                    "format": "date-time"
                  },
                  "message": {
                    "maxLength": 32768
                  },
                  "observedGeneration": {
                    "minimum": 0
                  },
                  "reason": {
                    "minLength": 1,
                    "maxLength": 1024
                  },
                  "status": {
                    "enum": ["True", "False", "Unknown"]
                  },
                  "type": {
                    "maxLength": 316
                  }
                }
              }
            },
            "jobsStatus": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            }
          }
        }""")
public class TrainJobStatus {

  @JsonProperty("conditions")
  @JsonPropertyDescription("Conditions of the TrainJob, keyed by type.")
  @Size(max = 8)
  private List<Condition> conditions;

  @JsonProperty("jobsStatus")
  @JsonPropertyDescription("Status of the child replicated jobs, keyed by name.")
  @Size(max = 100)
  private List<JobStatus> jobsStatus;

  @JsonProperty("trainerStatus")
  @JsonPropertyDescription("Latest runtime status reported by the trainer step (alpha, TrainJobStatus feature gate).")
  private TrainerStatus trainerStatus;

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public TrainJobStatus withConditions(List<Condition> conditions) {
    this.conditions = conditions;
    return this;
  }

  public List<JobStatus> getJobsStatus() {
    return jobsStatus;
  }

  public void setJobsStatus(List<JobStatus> jobsStatus) {
    this.jobsStatus = jobsStatus;
  }

  public TrainJobStatus withJobsStatus(List<JobStatus> jobsStatus) {
    this.jobsStatus = jobsStatus;
    return this;
  }

  public TrainerStatus getTrainerStatus() {
    return trainerStatus;
  }

  public void setTrainerStatus(TrainerStatus trainerStatus) {
    this.trainerStatus = trainerStatus;
  }

  public TrainJobStatus withTrainerStatus(TrainerStatus trainerStatus) {
    this.trainerStatus = trainerStatus;
    return this;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TrainJobStatus that = (TrainJobStatus) o;
    return Objects.equals(conditions, that.conditions)
        && Objects.equals(jobsStatus, that.jobsStatus)
        && Objects.equals(trainerStatus, that.trainerStatus);
  }

  @Override
  public int hashCode() {
    return Objects.hash(conditions, jobsStatus, trainerStatus);
  }

  @Override
  public String toString() {
    return "TrainJobStatus{conditions=" + conditions
        + ", jobsStatus=" + jobsStatus
        + ", trainerStatus=" + trainerStatus
        + "}";
  }
}
