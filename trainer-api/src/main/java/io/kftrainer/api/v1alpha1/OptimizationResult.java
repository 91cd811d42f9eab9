package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * The best trial so far (upstream's {@code Result}): the succeeded trial with the best objective value. {@code
 * metrics} is ours, an addition upstream clients ignore: the objective value, for {@code kubectl get}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"trainJobName", "parameters", "metrics"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "parameters": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "metrics": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class OptimizationResult {

  @JsonProperty("trainJobName")
  @JsonPropertyDescription("Name of the trial TrainJob that achieved this result.")
  @Required
  @Size(min = 1, max = 63)
  private String trainJobName;

  @JsonProperty("parameters")
  @JsonPropertyDescription("The trial's hyperparameter values.")
  @Size(max = 100)
  private List<ParameterAssignment> parameters;

  @JsonProperty("metrics")
  @JsonPropertyDescription("The trial's objective value (ours, not upstream's).")
  @Size(max = 8)
  private List<Metric> metrics;

  public String getTrainJobName() {
    return trainJobName;
  }

  public void setTrainJobName(String trainJobName) {
    this.trainJobName = trainJobName;
  }

  public OptimizationResult withTrainJobName(String trainJobName) {
    this.trainJobName = trainJobName;
    return this;
  }

  public List<ParameterAssignment> getParameters() {
    return parameters;
  }

  public void setParameters(List<ParameterAssignment> parameters) {
    this.parameters = parameters;
  }

  public OptimizationResult withParameters(List<ParameterAssignment> parameters) {
    this.parameters = parameters;
    return this;
  }

  public List<Metric> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<Metric> metrics) {
    this.metrics = metrics;
  }

  public OptimizationResult withMetrics(List<Metric> metrics) {
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
    OptimizationResult that = (OptimizationResult) o;
    return Objects.equals(trainJobName, that.trainJobName)
        && Objects.equals(parameters, that.parameters)
        && Objects.equals(metrics, that.metrics);
  }

  @Override
  public int hashCode() {
    return Objects.hash(trainJobName, parameters, metrics);
  }

  @Override
  public String toString() {
    return "OptimizationResult{trainJobName=" + trainJobName
        + ", parameters=" + parameters
        + ", metrics=" + metrics
        + "}";
  }
}
