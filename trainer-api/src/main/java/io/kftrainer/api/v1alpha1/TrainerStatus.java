package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Latest runtime status of the trainer step: progress, remaining time and metrics.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"progressPercentage", "estimatedRemainingSeconds", "metrics", "lastUpdatedTime"})
@ValidationRule(value = "has(self.lastUpdatedTime)",
    message = "lastUpdatedTime is required when trainerStatus is present")
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "metrics": {
              "x-kubernetes-list-type": "atomic"
            },
            "lastUpdatedTime": {
              "format": "date-time"
            }
          }
        }""")
public class TrainerStatus {

  @JsonProperty("progressPercentage")
  @JsonPropertyDescription("Estimated completion, 0 to 100; absent when unknown.")
  @Min(0)
  @Max(100)
  private Integer progressPercentage;

  @JsonProperty("estimatedRemainingSeconds")
  @JsonPropertyDescription("Estimated remaining training time in seconds; absent when unknown.")
  @Min(0)
  private Integer estimatedRemainingSeconds;

  @JsonProperty("metrics")
  @JsonPropertyDescription("Current model metrics.")
  @Size(max = 256)
  private List<Metric> metrics;

  @JsonProperty("lastUpdatedTime")
  @JsonPropertyDescription("When this status was observed (RFC 3339).")
  private String lastUpdatedTime;

  public Integer getProgressPercentage() {
    return progressPercentage;
  }

  public void setProgressPercentage(Integer progressPercentage) {
    this.progressPercentage = progressPercentage;
  }

  public TrainerStatus withProgressPercentage(Integer progressPercentage) {
    this.progressPercentage = progressPercentage;
    return this;
  }

  public Integer getEstimatedRemainingSeconds() {
    return estimatedRemainingSeconds;
  }

  public void setEstimatedRemainingSeconds(Integer estimatedRemainingSeconds) {
    this.estimatedRemainingSeconds = estimatedRemainingSeconds;
  }

  public TrainerStatus withEstimatedRemainingSeconds(Integer estimatedRemainingSeconds) {
    this.estimatedRemainingSeconds = estimatedRemainingSeconds;
    return this;
  }

  public List<Metric> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<Metric> metrics) {
    this.metrics = metrics;
  }

  public TrainerStatus withMetrics(List<Metric> metrics) {
    this.metrics = metrics;
    return this;
  }

  public String getLastUpdatedTime() {
    return lastUpdatedTime;
  }

  public void setLastUpdatedTime(String lastUpdatedTime) {
    this.lastUpdatedTime = lastUpdatedTime;
  }

  public TrainerStatus withLastUpdatedTime(String lastUpdatedTime) {
    this.lastUpdatedTime = lastUpdatedTime;
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
    TrainerStatus that = (TrainerStatus) o;
    return Objects.equals(progressPercentage, that.progressPercentage)
        && Objects.equals(estimatedRemainingSeconds, that.estimatedRemainingSeconds)
        && Objects.equals(metrics, that.metrics)
        && Objects.equals(lastUpdatedTime, that.lastUpdatedTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(progressPercentage, estimatedRemainingSeconds, metrics, lastUpdatedTime);
  }

  @Override
  public String toString() {
    return "TrainerStatus{progressPercentage=" + progressPercentage
        + ", estimatedRemainingSeconds=" + estimatedRemainingSeconds
        + ", metrics=" + metrics
        + ", lastUpdatedTime=" + lastUpdatedTime
        + "}";
  }
}
