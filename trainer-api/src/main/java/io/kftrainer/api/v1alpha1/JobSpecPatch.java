package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * Restricted patch of a Job spec.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"template"})
public class JobSpecPatch {

  @JsonProperty("template")
  @JsonPropertyDescription("Patch of the Pod template of the Job.")
  private PodTemplatePatch template;

  public PodTemplatePatch getTemplate() {
    return template;
  }

  public void setTemplate(PodTemplatePatch template) {
    this.template = template;
  }

  public JobSpecPatch withTemplate(PodTemplatePatch template) {
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
    JobSpecPatch that = (JobSpecPatch) o;
    return Objects.equals(template, that.template);
  }

  @Override
  public int hashCode() {
    return Objects.hash(template);
  }

  @Override
  public String toString() {
    return "JobSpecPatch{template=" + template + "}";
  }
}
