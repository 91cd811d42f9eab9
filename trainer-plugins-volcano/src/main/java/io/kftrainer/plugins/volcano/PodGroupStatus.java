package io.kftrainer.plugins.volcano;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/** {@code status} of a Volcano {@link PodGroup}, written by the Volcano scheduler. The operator never writes it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"phase", "conditions", "running", "succeeded", "failed"})
public class PodGroupStatus {

  private String phase;
  private List<PodGroupCondition> conditions;
  private Integer running;
  private Integer succeeded;
  private Integer failed;

  /** {@code Pending}, {@code Inqueue}, {@code Running}, {@code Unknown} or {@code Completed}. */
  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public PodGroupStatus withPhase(String phase) {
    this.phase = phase;
    return this;
  }

  public List<PodGroupCondition> getConditions() {
    return conditions;
  }

  public void setConditions(List<PodGroupCondition> conditions) {
    this.conditions = conditions;
  }

  public PodGroupStatus withConditions(List<PodGroupCondition> conditions) {
    this.conditions = conditions;
    return this;
  }

  public Integer getRunning() {
    return running;
  }

  public void setRunning(Integer running) {
    this.running = running;
  }

  public PodGroupStatus withRunning(Integer running) {
    this.running = running;
    return this;
  }

  public Integer getSucceeded() {
    return succeeded;
  }

  public void setSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
  }

  public PodGroupStatus withSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
    return this;
  }

  public Integer getFailed() {
    return failed;
  }

  public void setFailed(Integer failed) {
    this.failed = failed;
  }

  public PodGroupStatus withFailed(Integer failed) {
    this.failed = failed;
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
    PodGroupStatus that = (PodGroupStatus) o;
    return Objects.equals(phase, that.phase)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(running, that.running)
        && Objects.equals(succeeded, that.succeeded)
        && Objects.equals(failed, that.failed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(phase, conditions, running, succeeded, failed);
  }

  @Override
  public String toString() {
    return "PodGroupStatus{phase=" + phase + ", conditions=" + conditions + ", running=" + running
        + ", succeeded=" + succeeded + ", failed=" + failed + "}";
  }
}
