package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/**
 * Lifecycle defaults a runtime gives the TrainJobs that use it (KEP-2899's {@code RunPolicy}, kubeflow/trainer PR
 * #3824 and issue #4052): each applies unless the TrainJob sets its own field of the same name.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"activeDeadlineSeconds", "ttlSecondsAfterFinished"})
public class RunPolicy {

  @JsonProperty("activeDeadlineSeconds")
  @JsonPropertyDescription("Default maximum active duration in seconds of the TrainJobs that reference this runtime. "
      + "A TrainJob's own spec.activeDeadlineSeconds takes precedence.")
  @Min(1)
  private Long activeDeadlineSeconds;

  @JsonProperty("ttlSecondsAfterFinished")
  @JsonPropertyDescription("Default retention in seconds after a TrainJob that uses this runtime finished (Complete "
      + "or Failed), after which it is deleted with its child objects. A TrainJob's own "
      + "spec.ttlSecondsAfterFinished takes precedence.")
  @Min(0)
  private Integer ttlSecondsAfterFinished;

  public Long getActiveDeadlineSeconds() {
    return activeDeadlineSeconds;
  }

  public void setActiveDeadlineSeconds(Long activeDeadlineSeconds) {
    this.activeDeadlineSeconds = activeDeadlineSeconds;
  }

  public RunPolicy withActiveDeadlineSeconds(Long activeDeadlineSeconds) {
    this.activeDeadlineSeconds = activeDeadlineSeconds;
    return this;
  }

  public Integer getTtlSecondsAfterFinished() {
    return ttlSecondsAfterFinished;
  }

  public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
  }

  public RunPolicy withTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
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
    RunPolicy that = (RunPolicy) o;
    return Objects.equals(activeDeadlineSeconds, that.activeDeadlineSeconds)
        && Objects.equals(ttlSecondsAfterFinished, that.ttlSecondsAfterFinished);
  }

  @Override
  public int hashCode() {
    return Objects.hash(activeDeadlineSeconds, ttlSecondsAfterFinished);
  }

  @Override
  public String toString() {
    return "RunPolicy{activeDeadlineSeconds=" + activeDeadlineSeconds
        + ", ttlSecondsAfterFinished=" + ttlSecondsAfterFinished
        + "}";
  }
}
