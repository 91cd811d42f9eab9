package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * What the median-stopping rule saw of a trial (ours, not upstream's): the trial's objective value at its first
 * report at or past the rule's start progress. Kept in the history so that the rule compares running trials with
 * completed ones at the same progress after an operator restart or once completed trial TrainJobs are deleted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"progressPercentage", "metrics"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "metrics": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class TrialObservation {

  @JsonProperty("progressPercentage")
  @JsonPropertyDescription("The trial's reported progress when observed.")
  @Required
  @Min(0)
  @Max(100)
  private Integer progressPercentage;

  @JsonProperty("metrics")
  @JsonPropertyDescription("The objective value then.")
  @Required
  @Size(min = 1, max = 8)
  private List<Metric> metrics;

  public Integer getProgressPercentage() {
    return progressPercentage;
  }

  public void setProgressPercentage(Integer progressPercentage) {
    this.progressPercentage = progressPercentage;
  }

  public TrialObservation withProgressPercentage(Integer progressPercentage) {
    this.progressPercentage = progressPercentage;
    return this;
  }

  public List<Metric> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<Metric> metrics) {
    this.metrics = metrics;
  }

  public TrialObservation withMetrics(List<Metric> metrics) {
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
    TrialObservation that = (TrialObservation) o;
    return Objects.equals(progressPercentage, that.progressPercentage)
        && Objects.equals(metrics, that.metrics);
  }

  @Override
  public int hashCode() {
    return Objects.hash(progressPercentage, metrics);
  }

  @Override
  public String toString() {
    return "TrialObservation{progressPercentage=" + progressPercentage
        + ", metrics=" + metrics
        + "}";
  }
}
