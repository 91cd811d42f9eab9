package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The parts of a {@link TrainingRuntimeSpec} a manager may patch.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"template"})
public class TrainingRuntimeSpecPatch {

  @JsonProperty("template")
  @JsonPropertyDescription("Patch of the JobSet template.")
  private JobSetTemplatePatch template;

  public JobSetTemplatePatch getTemplate() {
    return template;
  }

  public void setTemplate(JobSetTemplatePatch template) {
    this.template = template;
  }

  public TrainingRuntimeSpecPatch withTemplate(JobSetTemplatePatch template) {
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
    TrainingRuntimeSpecPatch that = (TrainingRuntimeSpecPatch) o;
    return Objects.equals(template, that.template);
  }

  @Override
  public int hashCode() {
    return Objects.hash(template);
  }

  @Override
  public String toString() {
    return "TrainingRuntimeSpecPatch{template=" + template + "}";
  }
}
