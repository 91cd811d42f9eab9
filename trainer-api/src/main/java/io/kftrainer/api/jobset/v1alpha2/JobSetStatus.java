package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Observed state of a {@link JobSet}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"conditions", "restarts", "restartsCountTowardsMax", "terminalState", "replicatedJobsStatus",
    "previousInPlaceRestartAttempt", "currentInPlaceRestartAttempt"})
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
                  "status": {
                    "enum": ["True", "False", "Unknown"]
                  }
                }
              }
            },
            "replicatedJobsStatus": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            }
          }
        }""")
public class JobSetStatus {

  @JsonProperty("conditions")
  @JsonPropertyDescription("Conditions of the JobSet, keyed by type.")
  private List<Condition> conditions;

  @JsonProperty("restarts")
  @JsonPropertyDescription("Number of global restarts (recreation of all Jobs).")
  private Integer restarts;

  @JsonProperty("restartsCountTowardsMax")
  @JsonPropertyDescription("Number of global restarts that count towards failurePolicy.maxRestarts.")
  private Integer restartsCountTowardsMax;

  @JsonProperty("terminalState")
  @JsonPropertyDescription("Completed or Failed once the JobSet has finished; empty before.")
  private String terminalState;

  @JsonProperty("replicatedJobsStatus")
  @JsonPropertyDescription("Status of each replicated job, keyed by name.")
  private List<ReplicatedJobStatus> replicatedJobsStatus;

  @JsonProperty("previousInPlaceRestartAttempt")
  @JsonPropertyDescription("Previous in-place restart attempt (InPlaceRestart feature gate).")
  @Min(0)
  private Integer previousInPlaceRestartAttempt;

  @JsonProperty("currentInPlaceRestartAttempt")
  @JsonPropertyDescription("Current in-place restart attempt (InPlaceRestart feature gate).")
  @Min(0)
  private Integer currentInPlaceRestartAttempt;

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public JobSetStatus withConditions(List<Condition> conditions) {
    this.conditions = conditions;
    return this;
  }

  public Integer getRestarts() {
    return restarts;
  }

  public void setRestarts(Integer restarts) {
    this.restarts = restarts;
  }

  public JobSetStatus withRestarts(Integer restarts) {
    this.restarts = restarts;
    return this;
  }

  public Integer getRestartsCountTowardsMax() {
    return restartsCountTowardsMax;
  }

  public void setRestartsCountTowardsMax(Integer restartsCountTowardsMax) {
    this.restartsCountTowardsMax = restartsCountTowardsMax;
  }

  public JobSetStatus withRestartsCountTowardsMax(Integer restartsCountTowardsMax) {
    this.restartsCountTowardsMax = restartsCountTowardsMax;
    return this;
  }

  public String getTerminalState() {
    return terminalState;
  }

  public void setTerminalState(String terminalState) {
    this.terminalState = terminalState;
  }

  public JobSetStatus withTerminalState(String terminalState) {
    this.terminalState = terminalState;
    return this;
  }

  public List<ReplicatedJobStatus> getReplicatedJobsStatus() {
    return replicatedJobsStatus;
  }

  public void setReplicatedJobsStatus(List<ReplicatedJobStatus> replicatedJobsStatus) {
    this.replicatedJobsStatus = replicatedJobsStatus;
  }

  public JobSetStatus withReplicatedJobsStatus(List<ReplicatedJobStatus> replicatedJobsStatus) {
    this.replicatedJobsStatus = replicatedJobsStatus;
    return this;
  }

  public Integer getPreviousInPlaceRestartAttempt() {
    return previousInPlaceRestartAttempt;
  }

  public void setPreviousInPlaceRestartAttempt(Integer previousInPlaceRestartAttempt) {
    this.previousInPlaceRestartAttempt = previousInPlaceRestartAttempt;
  }

  public JobSetStatus withPreviousInPlaceRestartAttempt(Integer previousInPlaceRestartAttempt) {
    this.previousInPlaceRestartAttempt = previousInPlaceRestartAttempt;
    return this;
  }

  public Integer getCurrentInPlaceRestartAttempt() {
    return currentInPlaceRestartAttempt;
  }

  public void setCurrentInPlaceRestartAttempt(Integer currentInPlaceRestartAttempt) {
    this.currentInPlaceRestartAttempt = currentInPlaceRestartAttempt;
  }

  public JobSetStatus withCurrentInPlaceRestartAttempt(Integer currentInPlaceRestartAttempt) {
    this.currentInPlaceRestartAttempt = currentInPlaceRestartAttempt;
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
    JobSetStatus that = (JobSetStatus) o;
    return Objects.equals(conditions, that.conditions)
        && Objects.equals(restarts, that.restarts)
        && Objects.equals(restartsCountTowardsMax, that.restartsCountTowardsMax)
        && Objects.equals(terminalState, that.terminalState)
        && Objects.equals(replicatedJobsStatus, that.replicatedJobsStatus)
        && Objects.equals(previousInPlaceRestartAttempt, that.previousInPlaceRestartAttempt)
        && Objects.equals(currentInPlaceRestartAttempt, that.currentInPlaceRestartAttempt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(conditions, restarts, restartsCountTowardsMax, terminalState, replicatedJobsStatus,
        previousInPlaceRestartAttempt, currentInPlaceRestartAttempt);
  }

  @Override
  public String toString() {
    return "JobSetStatus{conditions=" + conditions
        + ", restarts=" + restarts
        + ", restartsCountTowardsMax=" + restartsCountTowardsMax
        + ", terminalState=" + terminalState
        + ", replicatedJobsStatus=" + replicatedJobsStatus
        + ", previousInPlaceRestartAttempt=" + previousInPlaceRestartAttempt
        + ", currentInPlaceRestartAttempt=" + currentInPlaceRestartAttempt
        + "}";
  }
}
