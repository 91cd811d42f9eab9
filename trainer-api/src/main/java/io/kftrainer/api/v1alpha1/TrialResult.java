package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * One trial of an {@link OptimizationJob} (KEP-3744's record): written with state Running before its TrainJob is
 * created, and once more when the trial ends. It is the history the search reads, so a deleted trial TrainJob loses
 * nothing.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"trainJobName", "parameters", "metrics", "state", "reason", "creationTime", "completionTime", "earlyStoppingObservation"})
@ValidationRule(value = "self.state != 'Succeeded' || (has(self.metrics) && self.metrics.size() > 0)",
    message = "a Succeeded trial must record at least one metric")
@ValidationRule(value = "self.state == 'Running' || has(self.completionTime)",
    message = "completionTime is required for terminal trials")
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "parameters": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "metrics": {
              "x-kubernetes-list-type": "atomic"
            },
            "state": {
              "enum": ["Running", "Succeeded", "Failed", "EarlyStopped"]
            },
            "creationTime": {
              "format": "date-time"
            },
            "completionTime": {
              "format": "date-time"
            }
          }
        }""")
public class TrialResult {

  @JsonProperty("trainJobName")
  @JsonPropertyDescription("Name of the trial TrainJob.")
  @Required
  @Size(min = 1, max = 253)
  private String trainJobName;

  @JsonProperty("parameters")
  @JsonPropertyDescription("The hyperparameter values the trial ran with.")
  @Required
  @Size(min = 1, max = 100)
  private List<ParameterAssignment> parameters;

  @JsonProperty("metrics")
  @JsonPropertyDescription("The objective value the trial reported when it ended (TrainJob "
      + "status.trainerStatus.metrics).")
  @Size(max = 8)
  private List<Metric> metrics;

  @JsonProperty("state")
  @JsonPropertyDescription("Running, Succeeded, Failed or EarlyStopped.")
  @Required
  private String state;

  @JsonProperty("reason")
  @JsonPropertyDescription("Why the trial failed or was stopped, e.g. TrainJobFailed, TrainJobDeleted, "
      + "MetricsUnavailable.")
  @Size(max = 128)
  private String reason;

  @JsonProperty("creationTime")
  @JsonPropertyDescription("When the trial was recorded, just before its TrainJob was created (RFC 3339).")
  @Required
  private String creationTime;

  @JsonProperty("completionTime")
  @JsonPropertyDescription("When the trial ended (RFC 3339): its TrainJob's terminal condition's "
      + "lastTransitionTime.")
  private String completionTime;

  @JsonProperty("earlyStoppingObservation")
  @JsonPropertyDescription("The objective value the median-stopping rule compared (ours, not upstream's; only "
      + "with early stopping on).")
  private TrialObservation earlyStoppingObservation;

  public String getTrainJobName() {
    return trainJobName;
  }

  public void setTrainJobName(String trainJobName) {
    this.trainJobName = trainJobName;
  }

  public TrialResult withTrainJobName(String trainJobName) {
    this.trainJobName = trainJobName;
    return this;
  }

  public List<ParameterAssignment> getParameters() {
    return parameters;
  }

  public void setParameters(List<ParameterAssignment> parameters) {
    this.parameters = parameters;
  }

  public TrialResult withParameters(List<ParameterAssignment> parameters) {
    this.parameters = parameters;
    return this;
  }

  public List<Metric> getMetrics() {
    return metrics;
  }

  public void setMetrics(List<Metric> metrics) {
    this.metrics = metrics;
  }

  public TrialResult withMetrics(List<Metric> metrics) {
    this.metrics = metrics;
    return this;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public TrialResult withState(String state) {
    this.state = state;
    return this;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public TrialResult withReason(String reason) {
    this.reason = reason;
    return this;
  }

  public String getCreationTime() {
    return creationTime;
  }

  public void setCreationTime(String creationTime) {
    this.creationTime = creationTime;
  }

  public TrialResult withCreationTime(String creationTime) {
    this.creationTime = creationTime;
    return this;
  }

  public String getCompletionTime() {
    return completionTime;
  }

  public void setCompletionTime(String completionTime) {
    this.completionTime = completionTime;
  }

  public TrialResult withCompletionTime(String completionTime) {
    this.completionTime = completionTime;
    return this;
  }

  public TrialObservation getEarlyStoppingObservation() {
    return earlyStoppingObservation;
  }

  public void setEarlyStoppingObservation(TrialObservation earlyStoppingObservation) {
    this.earlyStoppingObservation = earlyStoppingObservation;
  }

  public TrialResult withEarlyStoppingObservation(TrialObservation earlyStoppingObservation) {
    this.earlyStoppingObservation = earlyStoppingObservation;
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
    TrialResult that = (TrialResult) o;
    return Objects.equals(trainJobName, that.trainJobName)
        && Objects.equals(parameters, that.parameters)
        && Objects.equals(metrics, that.metrics)
        && Objects.equals(state, that.state)
        && Objects.equals(reason, that.reason)
        && Objects.equals(creationTime, that.creationTime)
        && Objects.equals(completionTime, that.completionTime)
        && Objects.equals(earlyStoppingObservation, that.earlyStoppingObservation);
  }

  @Override
  public int hashCode() {
    return Objects.hash(trainJobName, parameters, metrics, state, reason, creationTime, completionTime, earlyStoppingObservation);
  }

  @Override
  public String toString() {
    return "TrialResult{trainJobName=" + trainJobName
        + ", parameters=" + parameters
        + ", metrics=" + metrics
        + ", state=" + state
        + ", reason=" + reason
        + ", creationTime=" + creationTime
        + ", completionTime=" + completionTime
        + ", earlyStoppingObservation=" + earlyStoppingObservation
        + "}";
  }
}
