package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Counters of the child Jobs of one replicated job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "ready", "succeeded", "failed", "active", "suspended", "jobRestarts",
    "jobRestartsCountTowardsMax"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "jobRestarts": {
              "x-kubernetes-list-type": "atomic"
            },
            "jobRestartsCountTowardsMax": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class ReplicatedJobStatus {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the replicated job.")
  @Required
  private String name;

  @JsonProperty("ready")
  @JsonPropertyDescription("Jobs whose ready plus completed Pods reach the expected Pod count.")
  @Required
  private Integer ready;

  @JsonProperty("succeeded")
  @JsonPropertyDescription("Jobs that completed successfully.")
  @Required
  private Integer succeeded;

  @JsonProperty("failed")
  @JsonPropertyDescription("Jobs that failed.")
  @Required
  private Integer failed;

  @JsonProperty("active")
  @JsonPropertyDescription("Jobs with at least one running or pending Pod not marked for deletion.")
  @Required
  private Integer active;

  @JsonProperty("suspended")
  @JsonPropertyDescription("Jobs that are suspended.")
  @Required
  private Integer suspended;

  @JsonProperty("jobRestarts")
  @JsonPropertyDescription("Per Job index, the number of individual restarts.")
  @Size(max = 1024)
  private List<Integer> jobRestarts;

  @JsonProperty("jobRestartsCountTowardsMax")
  @JsonPropertyDescription("Per Job index, the individual restarts that count towards maxRestarts.")
  @Size(max = 1024)
  private List<Integer> jobRestartsCountTowardsMax;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public ReplicatedJobStatus withName(String name) {
    this.name = name;
    return this;
  }

  public Integer getReady() {
    return ready;
  }

  public void setReady(Integer ready) {
    this.ready = ready;
  }

  public ReplicatedJobStatus withReady(Integer ready) {
    this.ready = ready;
    return this;
  }

  public Integer getSucceeded() {
    return succeeded;
  }

  public void setSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
  }

  public ReplicatedJobStatus withSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
    return this;
  }

  public Integer getFailed() {
    return failed;
  }

  public void setFailed(Integer failed) {
    this.failed = failed;
  }

  public ReplicatedJobStatus withFailed(Integer failed) {
    this.failed = failed;
    return this;
  }

  public Integer getActive() {
    return active;
  }

  public void setActive(Integer active) {
    this.active = active;
  }

  public ReplicatedJobStatus withActive(Integer active) {
    this.active = active;
    return this;
  }

  public Integer getSuspended() {
    return suspended;
  }

  public void setSuspended(Integer suspended) {
    this.suspended = suspended;
  }

  public ReplicatedJobStatus withSuspended(Integer suspended) {
    this.suspended = suspended;
    return this;
  }

  public List<Integer> getJobRestarts() {
    return jobRestarts;
  }

  public void setJobRestarts(List<Integer> jobRestarts) {
    this.jobRestarts = jobRestarts;
  }

  public ReplicatedJobStatus withJobRestarts(List<Integer> jobRestarts) {
    this.jobRestarts = jobRestarts;
    return this;
  }

  public List<Integer> getJobRestartsCountTowardsMax() {
    return jobRestartsCountTowardsMax;
  }

  public void setJobRestartsCountTowardsMax(List<Integer> jobRestartsCountTowardsMax) {
    this.jobRestartsCountTowardsMax = jobRestartsCountTowardsMax;
  }

  public ReplicatedJobStatus withJobRestartsCountTowardsMax(List<Integer> jobRestartsCountTowardsMax) {
    this.jobRestartsCountTowardsMax = jobRestartsCountTowardsMax;
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
    ReplicatedJobStatus that = (ReplicatedJobStatus) o;
    return Objects.equals(name, that.name)
        && Objects.equals(ready, that.ready)
        && Objects.equals(succeeded, that.succeeded)
        && Objects.equals(failed, that.failed)
        && Objects.equals(active, that.active)
        && Objects.equals(suspended, that.suspended)
        && Objects.equals(jobRestarts, that.jobRestarts)
        && Objects.equals(jobRestartsCountTowardsMax, that.jobRestartsCountTowardsMax);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, ready, succeeded, failed, active, suspended, jobRestarts, jobRestartsCountTowardsMax);
  }

  @Override
  public String toString() {
    return "ReplicatedJobStatus{name=" + name
        + ", ready=" + ready
        + ", succeeded=" + succeeded
        + ", failed=" + failed
        + ", active=" + active
        + ", suspended=" + suspended
        + ", jobRestarts=" + jobRestarts
        + ", jobRestartsCountTowardsMax=" + jobRestartsCountTowardsMax
        + "}";
  }
}
