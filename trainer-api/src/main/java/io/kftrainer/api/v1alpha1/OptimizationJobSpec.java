package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Desired state of an {@link OptimizationJob}: the objective, the search algorithm and space, the trial budget and
 * the TrainJob each trial runs. Immutable once created, as upstream's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"objectives", "searchAlgorithm", "parameters", "numTrials", "parallelTrials", "trainJobTemplate"})
@ValidationRule(value = "self == oldSelf",
    message = "OptimizationJobSpec is immutable and cannot be updated after creation")
@ValidationRule(value = "self.parallelTrials <= self.numTrials", message = "parallelTrials cannot exceed numTrials")
// ours: two names that differ only in case would set the same environment variable KUBEFLOW_TRAINER_OPT_<NAME>
@ValidationRule(value = "self.parameters.all(p, self.parameters.exists_one(q, "
    + "q.name.upperAscii() == p.name.upperAscii()))",
    message = "parameter names must differ in more than case: each becomes the environment variable "
        + "KUBEFLOW_TRAINER_OPT_<NAME> in upper case", fieldPath = ".parameters")
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "objectives": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["metric"]
            },
            "parameters": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "searchAlgorithm": {
              "default": {"random": {}}
            }
          }
        }""")
public class OptimizationJobSpec {

  @JsonProperty("objectives")
  @JsonPropertyDescription("The objective to optimize: exactly one metric and its direction.")
  @Required
  @Size(min = 1, max = 1)
  private List<Objective> objectives;

  @JsonProperty("searchAlgorithm")
  @JsonPropertyDescription("How the parameter values of each trial are chosen. Defaults to random search.")
  private SearchAlgorithm searchAlgorithm;

  @JsonProperty("parameters")
  @JsonPropertyDescription("The hyperparameters to search, keyed by name.")
  @Required
  @Size(min = 1, max = 100)
  private List<Parameter> parameters;

  @JsonProperty("numTrials")
  @JsonPropertyDescription("Trials to run in all. Defaults to 1.")
  @Default("1")
  @Min(1)
  @Max(100)
  private Integer numTrials;

  @JsonProperty("parallelTrials")
  @JsonPropertyDescription("Trials running at once at most. Defaults to 1.")
  @Default("1")
  @Min(1)
  @Max(100)
  private Integer parallelTrials;

  @JsonProperty("trainJobTemplate")
  @JsonPropertyDescription("The TrainJob each trial runs, with the trial's parameter values added as environment "
      + "variables KUBEFLOW_TRAINER_OPT_<NAME>.")
  @Required
  private TrainJobTemplateSpec trainJobTemplate;

  public List<Objective> getObjectives() {
    return objectives;
  }

  public void setObjectives(List<Objective> objectives) {
    this.objectives = objectives;
  }

  public OptimizationJobSpec withObjectives(List<Objective> objectives) {
    this.objectives = objectives;
    return this;
  }

  public SearchAlgorithm getSearchAlgorithm() {
    return searchAlgorithm;
  }

  public void setSearchAlgorithm(SearchAlgorithm searchAlgorithm) {
    this.searchAlgorithm = searchAlgorithm;
  }

  public OptimizationJobSpec withSearchAlgorithm(SearchAlgorithm searchAlgorithm) {
    this.searchAlgorithm = searchAlgorithm;
    return this;
  }

  public List<Parameter> getParameters() {
    return parameters;
  }

  public void setParameters(List<Parameter> parameters) {
    this.parameters = parameters;
  }

  public OptimizationJobSpec withParameters(List<Parameter> parameters) {
    this.parameters = parameters;
    return this;
  }

  public Integer getNumTrials() {
    return numTrials;
  }

  public void setNumTrials(Integer numTrials) {
    this.numTrials = numTrials;
  }

  public OptimizationJobSpec withNumTrials(Integer numTrials) {
    this.numTrials = numTrials;
    return this;
  }

  public Integer getParallelTrials() {
    return parallelTrials;
  }

  public void setParallelTrials(Integer parallelTrials) {
    this.parallelTrials = parallelTrials;
  }

  public OptimizationJobSpec withParallelTrials(Integer parallelTrials) {
    this.parallelTrials = parallelTrials;
    return this;
  }

  public TrainJobTemplateSpec getTrainJobTemplate() {
    return trainJobTemplate;
  }

  public void setTrainJobTemplate(TrainJobTemplateSpec trainJobTemplate) {
    this.trainJobTemplate = trainJobTemplate;
  }

  public OptimizationJobSpec withTrainJobTemplate(TrainJobTemplateSpec trainJobTemplate) {
    this.trainJobTemplate = trainJobTemplate;
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
    OptimizationJobSpec that = (OptimizationJobSpec) o;
    return Objects.equals(objectives, that.objectives)
        && Objects.equals(searchAlgorithm, that.searchAlgorithm)
        && Objects.equals(parameters, that.parameters)
        && Objects.equals(numTrials, that.numTrials)
        && Objects.equals(parallelTrials, that.parallelTrials)
        && Objects.equals(trainJobTemplate, that.trainJobTemplate);
  }

  @Override
  public int hashCode() {
    return Objects.hash(objectives, searchAlgorithm, parameters, numTrials, parallelTrials, trainJobTemplate);
  }

  @Override
  public String toString() {
    return "OptimizationJobSpec{objectives=" + objectives
        + ", searchAlgorithm=" + searchAlgorithm
        + ", parameters=" + parameters
        + ", numTrials=" + numTrials
        + ", parallelTrials=" + parallelTrials
        + ", trainJobTemplate=" + trainJobTemplate
        + "}";
  }
}
