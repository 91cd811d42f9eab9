package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * Flux HPC runtime configuration.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"numProcPerNode"})
public class FluxMLPolicySource {

  @JsonProperty("numProcPerNode")
  @JsonPropertyDescription("Processes per node. Defaults to 1.")
  @Default("1")
  @ValidationRule(value = "self >= 1", message = "NumProcPerNode in fluxPolicy must be >= 1")
  private Integer numProcPerNode;

  public Integer getNumProcPerNode() {
    return numProcPerNode;
  }

  public void setNumProcPerNode(Integer numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
  }

  public FluxMLPolicySource withNumProcPerNode(Integer numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
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
    FluxMLPolicySource that = (FluxMLPolicySource) o;
    return Objects.equals(numProcPerNode, that.numProcPerNode);
  }

  @Override
  public int hashCode() {
    return Objects.hash(numProcPerNode);
  }

  @Override
  public String toString() {
    return "FluxMLPolicySource{numProcPerNode=" + numProcPerNode + "}";
  }
}
