package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * Specification of a training runtime, shared by {@link TrainingRuntime} and
 * {@link ClusterTrainingRuntime}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"mlPolicy", "podGroupPolicy", "template", "runPolicy"})
// KEP-2899 (kubeflow/trainer PR #3824, issue #4052): cleanup and deadlines belong to the TrainJob controller. A JobSet
// deleted by its own TTL under an unfinished-looking TrainJob was recreated with its restarts reset (#3779); a Job's
// own deadline fails it on a clock the TrainJob does not know.
@ValidationRule(value = "!has(self.template) || !has(self.template.spec)"
    + " || !has(self.template.spec.ttlSecondsAfterFinished)",
    message = "ttlSecondsAfterFinished must not be set in the JobSet template: the TrainJob controller deletes "
        + "finished TrainJobs with their JobSet; set spec.runPolicy.ttlSecondsAfterFinished, or the TrainJob's "
        + "spec.ttlSecondsAfterFinished, instead",
    fieldPath = ".template.spec.ttlSecondsAfterFinished")
@ValidationRule(value = "!has(self.template) || !has(self.template.spec) || !has(self.template.spec.replicatedJobs)"
    + " || self.template.spec.replicatedJobs.all(rj, !has(rj.template) || !has(rj.template.spec)"
    + " || !has(rj.template.spec.ttlSecondsAfterFinished))",
    message = "ttlSecondsAfterFinished must not be set in the Job template of a replicated job: the TrainJob "
        + "controller deletes finished TrainJobs with their Jobs; set spec.runPolicy.ttlSecondsAfterFinished, or the "
        + "TrainJob's spec.ttlSecondsAfterFinished, instead",
    fieldPath = ".template.spec.replicatedJobs")
@ValidationRule(value = "!has(self.template) || !has(self.template.spec) || !has(self.template.spec.replicatedJobs)"
    + " || self.template.spec.replicatedJobs.all(rj, !has(rj.template) || !has(rj.template.spec)"
    + " || !has(rj.template.spec.activeDeadlineSeconds))",
    message = "activeDeadlineSeconds must not be set in the Job template of a replicated job: the TrainJob "
        + "controller enforces the deadline; set spec.runPolicy.activeDeadlineSeconds, or the TrainJob's "
        + "spec.activeDeadlineSeconds, instead",
    fieldPath = ".template.spec.replicatedJobs")
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "template": {
              "minProperties": 1
            }
          }
        }""")
public class TrainingRuntimeSpec {

  @JsonProperty("mlPolicy")
  @JsonPropertyDescription("ML framework specific parameters.")
  private MLPolicy mlPolicy;

  @JsonProperty("podGroupPolicy")
  @JsonPropertyDescription("PodGroup configuration for gang-scheduling.")
  private PodGroupPolicy podGroupPolicy;

  @JsonProperty("template")
  @JsonPropertyDescription("Template of the JobSet created for each TrainJob.")
  private JobSetTemplateSpec template;

  @JsonProperty("runPolicy")
  @JsonPropertyDescription("Lifecycle defaults of the TrainJobs that reference this runtime; each TrainJob can "
      + "override them with its own fields.")
  private RunPolicy runPolicy;

  public MLPolicy getMlPolicy() {
    return mlPolicy;
  }

  public void setMlPolicy(MLPolicy mlPolicy) {
    this.mlPolicy = mlPolicy;
  }

  public TrainingRuntimeSpec withMlPolicy(MLPolicy mlPolicy) {
    this.mlPolicy = mlPolicy;
    return this;
  }

  public PodGroupPolicy getPodGroupPolicy() {
    return podGroupPolicy;
  }

  public void setPodGroupPolicy(PodGroupPolicy podGroupPolicy) {
    this.podGroupPolicy = podGroupPolicy;
  }

  public TrainingRuntimeSpec withPodGroupPolicy(PodGroupPolicy podGroupPolicy) {
    this.podGroupPolicy = podGroupPolicy;
    return this;
  }

  public JobSetTemplateSpec getTemplate() {
    return template;
  }

  public void setTemplate(JobSetTemplateSpec template) {
    this.template = template;
  }

  public TrainingRuntimeSpec withTemplate(JobSetTemplateSpec template) {
    this.template = template;
    return this;
  }

  public RunPolicy getRunPolicy() {
    return runPolicy;
  }

  public void setRunPolicy(RunPolicy runPolicy) {
    this.runPolicy = runPolicy;
  }

  public TrainingRuntimeSpec withRunPolicy(RunPolicy runPolicy) {
    this.runPolicy = runPolicy;
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
    TrainingRuntimeSpec that = (TrainingRuntimeSpec) o;
    return Objects.equals(mlPolicy, that.mlPolicy)
        && Objects.equals(podGroupPolicy, that.podGroupPolicy)
        && Objects.equals(template, that.template)
        && Objects.equals(runPolicy, that.runPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mlPolicy, podGroupPolicy, template, runPolicy);
  }

  @Override
  public String toString() {
    return "TrainingRuntimeSpec{mlPolicy=" + mlPolicy
        + ", podGroupPolicy=" + podGroupPolicy
        + ", template=" + template
        + ", runPolicy=" + runPolicy
        + "}";
  }
}
