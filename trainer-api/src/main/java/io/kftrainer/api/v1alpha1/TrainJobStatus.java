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
@JsonPropertyOrder({"conditions", "jobsStatus", "trainerStatus", "startTime", "completionTime"})
@SchemaCustomizer(value = SchemaPatch.class, input = SchemaPatch.CONDITIONS)
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "jobsStatus": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "startTime": {
              "format": "date-time"
            },
            "completionTime": {
              "format": "date-time"
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

  @JsonProperty("startTime")
  @JsonPropertyDescription("When the TrainJob became active, as a JobSet's and a Job's status.startTime: set when it "
      + "runs unsuspended, cleared when it is suspended, set again when it is resumed. The active deadline counts "
      + "from it.")
  private String startTime;

  @JsonProperty("completionTime")
  @JsonPropertyDescription("When the TrainJob completed, as a Job's status.completionTime: set with the Complete "
      + "condition, and only then.")
  private String completionTime;

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

  public String getStartTime() {
    return startTime;
  }

  public void setStartTime(String startTime) {
    this.startTime = startTime;
  }

  public TrainJobStatus withStartTime(String startTime) {
    this.startTime = startTime;
    return this;
  }

  public String getCompletionTime() {
    return completionTime;
  }

  public void setCompletionTime(String completionTime) {
    this.completionTime = completionTime;
  }

  public TrainJobStatus withCompletionTime(String completionTime) {
    this.completionTime = completionTime;
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
        && Objects.equals(trainerStatus, that.trainerStatus)
        && Objects.equals(startTime, that.startTime)
        && Objects.equals(completionTime, that.completionTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(conditions, jobsStatus, trainerStatus, startTime, completionTime);
  }

  @Override
  public String toString() {
    return "TrainJobStatus{conditions=" + conditions
        + ", jobsStatus=" + jobsStatus
        + ", trainerStatus=" + trainerStatus
        + ", startTime=" + startTime
        + ", completionTime=" + completionTime
        + "}";
  }
}
