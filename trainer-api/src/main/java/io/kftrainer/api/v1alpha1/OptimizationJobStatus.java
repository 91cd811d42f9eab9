package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Observed state of an {@link OptimizationJob}: its conditions, the best trial ({@code result}), and KEP-3744's
 * trial history ({@code trials}, {@code nextTrialIndex}). {@code progress} is ours, for {@code kubectl get}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"conditions", "result", "trials", "nextTrialIndex", "progress"})
@SchemaCustomizer(value = SchemaPatch.class, input = SchemaPatch.CONDITIONS)
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "trials": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["trainJobName"]
            }
          }
        }""")
public class OptimizationJobStatus {

  @JsonProperty("conditions")
  @JsonPropertyDescription("Conditions of the OptimizationJob, keyed by type: Running, Complete, Failed.")
  @Size(max = 100)
  private List<Condition> conditions;

  @JsonProperty("result")
  @JsonPropertyDescription("The best succeeded trial so far.")
  private OptimizationResult result;

  @JsonProperty("trials")
  @JsonPropertyDescription("Every trial started, in order, with its parameters, state and objective value "
      + "(KEP-3744).")
  @Size(max = 1000)
  private List<TrialResult> trials;

  @JsonProperty("nextTrialIndex")
  @JsonPropertyDescription("Index of the next trial: its TrainJob is <name>-trial-<index> (KEP-3744).")
  @Min(0)
  private Integer nextTrialIndex;

  @JsonProperty("progress")
  @JsonPropertyDescription("Trials that ended / numTrials, e.g. 3/6 (ours, for kubectl get).")
  private String progress;

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public OptimizationJobStatus withConditions(List<Condition> conditions) {
    this.conditions = conditions;
    return this;
  }

  public OptimizationResult getResult() {
    return result;
  }

  public void setResult(OptimizationResult result) {
    this.result = result;
  }

  public OptimizationJobStatus withResult(OptimizationResult result) {
    this.result = result;
    return this;
  }

  public List<TrialResult> getTrials() {
    return trials;
  }

  public void setTrials(List<TrialResult> trials) {
    this.trials = trials;
  }

  public OptimizationJobStatus withTrials(List<TrialResult> trials) {
    this.trials = trials;
    return this;
  }

  public Integer getNextTrialIndex() {
    return nextTrialIndex;
  }

  public void setNextTrialIndex(Integer nextTrialIndex) {
    this.nextTrialIndex = nextTrialIndex;
  }

  public OptimizationJobStatus withNextTrialIndex(Integer nextTrialIndex) {
    this.nextTrialIndex = nextTrialIndex;
    return this;
  }

  public String getProgress() {
    return progress;
  }

  public void setProgress(String progress) {
    this.progress = progress;
  }

  public OptimizationJobStatus withProgress(String progress) {
    this.progress = progress;
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
    OptimizationJobStatus that = (OptimizationJobStatus) o;
    return Objects.equals(conditions, that.conditions)
        && Objects.equals(result, that.result)
        && Objects.equals(trials, that.trials)
        && Objects.equals(nextTrialIndex, that.nextTrialIndex)
        && Objects.equals(progress, that.progress);
  }

  @Override
  public int hashCode() {
    return Objects.hash(conditions, result, trials, nextTrialIndex, progress);
  }

  @Override
  public String toString() {
    return "OptimizationJobStatus{conditions=" + conditions
        + ", result=" + result
        + ", trials=" + trials
        + ", nextTrialIndex=" + nextTrialIndex
        + ", progress=" + progress
        + "}";
  }
}
