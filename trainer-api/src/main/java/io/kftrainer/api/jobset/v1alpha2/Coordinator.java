package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/**
 * The Pod acting as coordinator of the JobSet.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"replicatedJob", "jobIndex", "podIndex"})
public class Coordinator {

  @JsonProperty("replicatedJob")
  @JsonPropertyDescription("Replicated job that contains the coordinator Pod.")
  @Required
  private String replicatedJob;

  @JsonProperty("jobIndex")
  @JsonPropertyDescription("Index of the Job that contains the coordinator Pod.")
  private Integer jobIndex;

  @JsonProperty("podIndex")
  @JsonPropertyDescription("Completion index of the coordinator Pod.")
  private Integer podIndex;

  public String getReplicatedJob() {
    return replicatedJob;
  }

  public void setReplicatedJob(String replicatedJob) {
    this.replicatedJob = replicatedJob;
  }

  public Coordinator withReplicatedJob(String replicatedJob) {
    this.replicatedJob = replicatedJob;
    return this;
  }

  public Integer getJobIndex() {
    return jobIndex;
  }

  public void setJobIndex(Integer jobIndex) {
    this.jobIndex = jobIndex;
  }

  public Coordinator withJobIndex(Integer jobIndex) {
    this.jobIndex = jobIndex;
    return this;
  }

  public Integer getPodIndex() {
    return podIndex;
  }

  public void setPodIndex(Integer podIndex) {
    this.podIndex = podIndex;
  }

  public Coordinator withPodIndex(Integer podIndex) {
    this.podIndex = podIndex;
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
    Coordinator that = (Coordinator) o;
    return Objects.equals(replicatedJob, that.replicatedJob)
        && Objects.equals(jobIndex, that.jobIndex)
        && Objects.equals(podIndex, that.podIndex);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicatedJob, jobIndex, podIndex);
  }

  @Override
  public String toString() {
    return "Coordinator{replicatedJob=" + replicatedJob + ", jobIndex=" + jobIndex + ", podIndex=" + podIndex + "}";
  }
}
