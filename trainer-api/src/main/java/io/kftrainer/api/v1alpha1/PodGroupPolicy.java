package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * PodGroup configuration for gang-scheduling; set one of its plugins.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"coscheduling", "volcano"})
public class PodGroupPolicy {

  @JsonProperty("coscheduling")
  @JsonPropertyDescription("Coscheduling plugin of the Kubernetes scheduler-plugins.")
  private CoschedulingPodGroupPolicySource coscheduling;

  @JsonProperty("volcano")
  @JsonPropertyDescription("Volcano gang-scheduler.")
  private VolcanoPodGroupPolicySource volcano;

  public CoschedulingPodGroupPolicySource getCoscheduling() {
    return coscheduling;
  }

  public void setCoscheduling(CoschedulingPodGroupPolicySource coscheduling) {
    this.coscheduling = coscheduling;
  }

  public PodGroupPolicy withCoscheduling(CoschedulingPodGroupPolicySource coscheduling) {
    this.coscheduling = coscheduling;
    return this;
  }

  public VolcanoPodGroupPolicySource getVolcano() {
    return volcano;
  }

  public void setVolcano(VolcanoPodGroupPolicySource volcano) {
    this.volcano = volcano;
  }

  public PodGroupPolicy withVolcano(VolcanoPodGroupPolicySource volcano) {
    this.volcano = volcano;
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
    PodGroupPolicy that = (PodGroupPolicy) o;
    return Objects.equals(coscheduling, that.coscheduling)
        && Objects.equals(volcano, that.volcano);
  }

  @Override
  public int hashCode() {
    return Objects.hash(coscheduling, volcano);
  }

  @Override
  public String toString() {
    return "PodGroupPolicy{coscheduling=" + coscheduling + ", volcano=" + volcano + "}";
  }
}
