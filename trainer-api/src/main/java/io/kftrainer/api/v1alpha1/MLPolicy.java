package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * ML framework parameters. At most one of torch, mpi, flux, jax and xgboost may be set;
 * none set means a plain ML runtime.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"numNodes", "torch", "mpi", "flux", "jax", "xgboost"})
@ValidationRule(value = "[has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)]"
    + ".filter(x, x).size() <= 1",
    message = "Only one of the policy can be configured")
public class MLPolicy {

  @JsonProperty("numNodes")
  @JsonPropertyDescription("Number of training nodes; defaults to 1 when unset.")
  private Integer numNodes;

  @JsonProperty("torch")
  @JsonPropertyDescription("PyTorch runtime configuration.")
  private TorchMLPolicySource torch;

  @JsonProperty("mpi")
  @JsonPropertyDescription("MPI runtime configuration.")
  private MPIMLPolicySource mpi;

  @JsonProperty("flux")
  @JsonPropertyDescription("Flux runtime configuration.")
  private FluxMLPolicySource flux;

  @JsonProperty("jax")
  @JsonPropertyDescription("JAX runtime configuration.")
  private JAXMLPolicySource jax;

  @JsonProperty("xgboost")
  @JsonPropertyDescription("XGBoost runtime configuration.")
  private XGBoostMLPolicySource xgboost;

  public Integer getNumNodes() {
    return numNodes;
  }

  public void setNumNodes(Integer numNodes) {
    this.numNodes = numNodes;
  }

  public MLPolicy withNumNodes(Integer numNodes) {
    this.numNodes = numNodes;
    return this;
  }

  public TorchMLPolicySource getTorch() {
    return torch;
  }

  public void setTorch(TorchMLPolicySource torch) {
    this.torch = torch;
  }

  public MLPolicy withTorch(TorchMLPolicySource torch) {
    this.torch = torch;
    return this;
  }

  public MPIMLPolicySource getMpi() {
    return mpi;
  }

  public void setMpi(MPIMLPolicySource mpi) {
    this.mpi = mpi;
  }

  public MLPolicy withMpi(MPIMLPolicySource mpi) {
    this.mpi = mpi;
    return this;
  }

  public FluxMLPolicySource getFlux() {
    return flux;
  }

  public void setFlux(FluxMLPolicySource flux) {
    this.flux = flux;
  }

  public MLPolicy withFlux(FluxMLPolicySource flux) {
    this.flux = flux;
    return this;
  }

  public JAXMLPolicySource getJax() {
    return jax;
  }

  public void setJax(JAXMLPolicySource jax) {
    this.jax = jax;
  }

  public MLPolicy withJax(JAXMLPolicySource jax) {
    this.jax = jax;
    return this;
  }

  public XGBoostMLPolicySource getXgboost() {
    return xgboost;
  }

  public void setXgboost(XGBoostMLPolicySource xgboost) {
    this.xgboost = xgboost;
  }

  public MLPolicy withXgboost(XGBoostMLPolicySource xgboost) {
    this.xgboost = xgboost;
    return this;
  }

  /** True when no framework policy is set, i.e. the runtime is a plain ML runtime. */
  @JsonIgnore
  public boolean isPlainML() {
    return torch == null && mpi == null && flux == null && jax == null && xgboost == null;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    MLPolicy that = (MLPolicy) o;
    return Objects.equals(numNodes, that.numNodes)
        && Objects.equals(torch, that.torch)
        && Objects.equals(mpi, that.mpi)
        && Objects.equals(flux, that.flux)
        && Objects.equals(jax, that.jax)
        && Objects.equals(xgboost, that.xgboost);
  }

  @Override
  public int hashCode() {
    return Objects.hash(numNodes, torch, mpi, flux, jax, xgboost);
  }

  @Override
  public String toString() {
    return "MLPolicy{numNodes=" + numNodes
        + ", torch=" + torch
        + ", mpi=" + mpi
        + ", flux=" + flux
        + ", jax=" + jax
        + ", xgboost=" + xgboost
        + "}";
  }
}
