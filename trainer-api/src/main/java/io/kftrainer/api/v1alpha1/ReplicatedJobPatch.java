package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/**
 * Patch of one replicated job of the JobSet.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "template"})
public class ReplicatedJobPatch {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the replicated job to patch.")
  @Required
  @Size(min = 1, max = 253)
  private String name;

  @JsonProperty("template")
  @JsonPropertyDescription("Patch of the Job template of this replicated job.")
  private JobTemplatePatch template;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public ReplicatedJobPatch withName(String name) {
    this.name = name;
    return this;
  }

  public JobTemplatePatch getTemplate() {
    return template;
  }

  public void setTemplate(JobTemplatePatch template) {
    this.template = template;
  }

  public ReplicatedJobPatch withTemplate(JobTemplatePatch template) {
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
    ReplicatedJobPatch that = (ReplicatedJobPatch) o;
    return Objects.equals(name, that.name)
        && Objects.equals(template, that.template);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, template);
  }

  @Override
  public String toString() {
    return "ReplicatedJobPatch{name=" + name + ", template=" + template + "}";
  }
}
