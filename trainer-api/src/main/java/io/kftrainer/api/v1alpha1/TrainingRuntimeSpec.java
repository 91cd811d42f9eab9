package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * Specification of a training runtime, shared by {@link TrainingRuntime} and
 * {@link ClusterTrainingRuntime}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"mlPolicy", "podGroupPolicy", "template"})
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
        && Objects.equals(template, that.template);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mlPolicy, podGroupPolicy, template);
  }

  @Override
  public String toString() {
    return "TrainingRuntimeSpec{mlPolicy=" + mlPolicy
        + ", podGroupPolicy=" + podGroupPolicy
        + ", template=" + template
        + "}";
  }
}
