package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Default;
import java.util.Objects;

/**
 * Coscheduling plugin configuration; the PodGroup minMember is the number of Pods.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"scheduleTimeoutSeconds"})
public class CoschedulingPodGroupPolicySource {

  @JsonProperty("scheduleTimeoutSeconds")
  @JsonPropertyDescription("Maximum time to schedule the PodGroup. Defaults to 60.")
  @Default("60")
  private Integer scheduleTimeoutSeconds;

  public Integer getScheduleTimeoutSeconds() {
    return scheduleTimeoutSeconds;
  }

  public void setScheduleTimeoutSeconds(Integer scheduleTimeoutSeconds) {
    this.scheduleTimeoutSeconds = scheduleTimeoutSeconds;
  }

  public CoschedulingPodGroupPolicySource withScheduleTimeoutSeconds(Integer scheduleTimeoutSeconds) {
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
    CoschedulingPodGroupPolicySource that = (CoschedulingPodGroupPolicySource) o;
    return Objects.equals(scheduleTimeoutSeconds, that.scheduleTimeoutSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheduleTimeoutSeconds);
  }

  @Override
  public String toString() {
    return "CoschedulingPodGroupPolicySource{scheduleTimeoutSeconds=" + scheduleTimeoutSeconds + "}";
  }
}
