package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/**
 * Counters of the child Jobs of one replicated job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "ready", "succeeded", "failed", "active", "suspended"})
public class JobStatus {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the replicated job.")
  @Required
  @Size(min = 1, max = 253)
  private String name;

  @JsonProperty("ready")
  @JsonPropertyDescription("Child Jobs whose ready plus completed Pods reach the expected Pod count.")
  @Required
  @Min(0)
  private Integer ready;

  @JsonProperty("succeeded")
  @JsonPropertyDescription("Child Jobs that completed successfully.")
  @Required
  @Min(0)
  private Integer succeeded;

  @JsonProperty("failed")
  @JsonPropertyDescription("Child Jobs that failed.")
  @Required
  @Min(0)
  private Integer failed;

  @JsonProperty("active")
  @JsonPropertyDescription("Child Jobs with at least one running or pending Pod not marked for deletion.")
  @Required
  @Min(0)
  private Integer active;

  @JsonProperty("suspended")
  @JsonPropertyDescription("Child Jobs that are suspended.")
  @Required
  @Min(0)
  private Integer suspended;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public JobStatus withName(String name) {
    this.name = name;
    return this;
  }

  public Integer getReady() {
    return ready;
  }

  public void setReady(Integer ready) {
    this.ready = ready;
  }

  public JobStatus withReady(Integer ready) {
    this.ready = ready;
    return this;
  }

  public Integer getSucceeded() {
    return succeeded;
  }

  public void setSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
  }

  public JobStatus withSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
    return this;
  }

  public Integer getFailed() {
    return failed;
  }

  public void setFailed(Integer failed) {
    this.failed = failed;
  }

  public JobStatus withFailed(Integer failed) {
    this.failed = failed;
    return this;
  }

  public Integer getActive() {
    return active;
  }

  public void setActive(Integer active) {
    this.active = active;
  }

  public JobStatus withActive(Integer active) {
    this.active = active;
    return this;
  }

  public Integer getSuspended() {
    return suspended;
  }

  public void setSuspended(Integer suspended) {
    this.suspended = suspended;
  }

  public JobStatus withSuspended(Integer suspended) {
    this.suspended = suspended;
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
    JobStatus that = (JobStatus) o;
    return Objects.equals(name, that.name)
        && Objects.equals(ready, that.ready)
        && Objects.equals(succeeded, that.succeeded)
        && Objects.equals(failed, that.failed)
        && Objects.equals(active, that.active)
        && Objects.equals(suspended, that.suspended);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, ready, succeeded, failed, active, suspended);
  }

  @Override
  public String toString() {
    return "JobStatus{name=" + name
        + ", ready=" + ready
        + ", succeeded=" + succeeded
        + ", failed=" + failed
        + ", active=" + active
        + ", suspended=" + suspended
        + "}";
  }
}
