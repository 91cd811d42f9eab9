package io.kftrainer.plugins.coscheduling;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Objects;

/** {@code spec} of a scheduler-plugins {@link PodGroup}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"minMember", "minResources", "scheduleTimeoutSeconds"})
public class PodGroupSpec {

  private Integer minMember;
  private Map<String, Quantity> minResources;
  private Integer scheduleTimeoutSeconds;

  /** The number of pods that must be schedulable together before any of them is bound. */
  public Integer getMinMember() {
    return minMember;
  }

  public void setMinMember(Integer minMember) {
    this.minMember = minMember;
  }

  public PodGroupSpec withMinMember(Integer minMember) {
    this.minMember = minMember;
    return this;
  }

  /** The resources the {@code minMember} pods request together. */
  public Map<String, Quantity> getMinResources() {
    return minResources;
  }

  public void setMinResources(Map<String, Quantity> minResources) {
    this.minResources = minResources;
  }

  public PodGroupSpec withMinResources(Map<String, Quantity> minResources) {
    this.minResources = minResources;
    return this;
  }

  /** How long the scheduler waits for the whole group before it gives up on the pods it holds. */
  public Integer getScheduleTimeoutSeconds() {
    return scheduleTimeoutSeconds;
  }

  public void setScheduleTimeoutSeconds(Integer scheduleTimeoutSeconds) {
    this.scheduleTimeoutSeconds = scheduleTimeoutSeconds;
  }

  public PodGroupSpec withScheduleTimeoutSeconds(Integer scheduleTimeoutSeconds) {
    this.scheduleTimeoutSeconds = scheduleTimeoutSeconds;
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
    PodGroupSpec that = (PodGroupSpec) o;
    return Objects.equals(minMember, that.minMember)
        && Objects.equals(minResources, that.minResources)
        && Objects.equals(scheduleTimeoutSeconds, that.scheduleTimeoutSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(minMember, minResources, scheduleTimeoutSeconds);
  }

  @Override
  public String toString() {
    return "PodGroupSpec{minMember=" + minMember + ", minResources=" + minResources
        + ", scheduleTimeoutSeconds=" + scheduleTimeoutSeconds + "}";
  }
}
