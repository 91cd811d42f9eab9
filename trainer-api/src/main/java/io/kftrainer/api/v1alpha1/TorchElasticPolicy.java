package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * PyTorch elastic training policy (upstream v2.1 API).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"maxRestarts", "minNodes", "maxNodes", "metrics"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "metrics": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class TorchElasticPolicy {

  @JsonProperty("maxRestarts")
  @JsonPropertyDescription("Value of torchrun --max-restarts and the JobSet failurePolicy.maxRestarts.")
  private Integer maxRestarts;

  @JsonProperty("minNodes")
  @JsonPropertyDescription("Lower bound of the number of nodes.")
  private Integer minNodes;

  @JsonProperty("maxNodes")
  @JsonPropertyDescription("Upper bound of the number of nodes.")
  private Integer maxNodes;

  @JsonProperty("metrics")
  @JsonPropertyDescription("Metrics used to compute the desired number of nodes.")
  private List<MetricSpec> metrics;

  public Integer getMaxRestarts() {
    return maxRestarts;
  }

  public void setMaxRestarts(Integer maxRestarts) {
    this.maxRestarts = maxRestarts;
  }

  public TorchElasticPolicy withMaxRestarts(Integer maxRestarts) {
    this.maxRestarts = maxRestarts;
    return this;
  }

  public Integer getMinNodes() {
    return minNodes;
  }

  public void setMinNodes(Integer minNodes) {
    this.minNodes = minNodes;
  }

  public TorchElasticPolicy withMinNodes(Integer minNodes) {
    this.minNodes = minNodes;
    return this;
  }

  public Integer getMaxNodes() {
    return maxNodes;
  }

  public void setMaxNodes(Integer maxNodes) {
    this.maxNodes = maxNodes;
  }

  public TorchElasticPolicy withMaxNodes(Integer maxNodes) {
    this.maxNodes = maxNodes;
    return this;
  }

  public List<MetricSpec> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<MetricSpec> metrics) {
    this.metrics = metrics;
  }

  public TorchElasticPolicy withMetrics(List<MetricSpec> metrics) {
    this.metrics = metrics;
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
    TorchElasticPolicy that = (TorchElasticPolicy) o;
    return Objects.equals(maxRestarts, that.maxRestarts)
        && Objects.equals(minNodes, that.minNodes)
        && Objects.equals(maxNodes, that.maxNodes)
        && Objects.equals(metrics, that.metrics);
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxRestarts, minNodes, maxNodes, metrics);
  }

  @Override
  public String toString() {
    return "TorchElasticPolicy{maxRestarts=" + maxRestarts
        + ", minNodes=" + minNodes
        + ", maxNodes=" + maxNodes
        + ", metrics=" + metrics
        + "}";
  }
}
