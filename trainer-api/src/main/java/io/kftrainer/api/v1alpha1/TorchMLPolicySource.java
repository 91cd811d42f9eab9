package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.Objects;

/**
 * PyTorch runtime configuration.
 *
 * <p>{@code numProcPerNode} and {@code elasticPolicy} come from upstream v2.1 and older (removed upstream in
 * v2.2); they are kept so that documents written for those versions still parse.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"numProcPerNode", "elasticPolicy", "envInjection"})
public class TorchMLPolicySource {

  @JsonProperty("numProcPerNode")
  @JsonPropertyDescription("Value of torchrun --nproc-per-node: auto, cpu, gpu or an int (v2.1 API).")
  @ValidationRule(value = "self > 0 || self in ['auto', 'cpu', 'gpu']",
      message = "NumProcPerNode must be equal to auto, cpu, gpu, or int value")
  private IntOrString numProcPerNode;

  @JsonProperty("elasticPolicy")
  @JsonPropertyDescription("Elastic training policy (v2.1 API, never implemented upstream).")
  private TorchElasticPolicy elasticPolicy;

  @JsonProperty("envInjection")
  @JsonPropertyDescription("Extra containers that also receive the PET_* environment variables.")
  private TorchEnvInjection envInjection;

  public IntOrString getNumProcPerNode() {
    return numProcPerNode;
  }

  public void setNumProcPerNode(IntOrString numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
  }

  public TorchMLPolicySource withNumProcPerNode(IntOrString numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
    return this;
  }

  public TorchElasticPolicy getElasticPolicy() {
    return elasticPolicy;
  }

  public void setElasticPolicy(TorchElasticPolicy elasticPolicy) {
    this.elasticPolicy = elasticPolicy;
  }

  public TorchMLPolicySource withElasticPolicy(TorchElasticPolicy elasticPolicy) {
    this.elasticPolicy = elasticPolicy;
    return this;
  }

  public TorchEnvInjection getEnvInjection() {
    return envInjection;
  }

  public void setEnvInjection(TorchEnvInjection envInjection) {
    this.envInjection = envInjection;
  }

  public TorchMLPolicySource withEnvInjection(TorchEnvInjection envInjection) {
    this.envInjection = envInjection;
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
    TorchMLPolicySource that = (TorchMLPolicySource) o;
    return Objects.equals(numProcPerNode, that.numProcPerNode)
        && Objects.equals(elasticPolicy, that.elasticPolicy)
        && Objects.equals(envInjection, that.envInjection);
  }

  @Override
  public int hashCode() {
    return Objects.hash(numProcPerNode, elasticPolicy, envInjection);
  }

  @Override
  public String toString() {
    return "TorchMLPolicySource{numProcPerNode=" + numProcPerNode
        + ", elasticPolicy=" + elasticPolicy
        + ", envInjection=" + envInjection
        + "}";
  }
}
