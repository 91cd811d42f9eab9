package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.api.crd.EmbeddedObjectMeta;
import java.util.Objects;

/**
 * Patch of a Job template.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"metadata", "spec"})
public class JobTemplatePatch {

  @JsonProperty("metadata")
  @JsonPropertyDescription("Job template metadata patch; only labels and annotations are allowed.")
  @SchemaFrom(type = EmbeddedObjectMeta.class)
  private ObjectMeta metadata;

  @JsonProperty("spec")
  @JsonPropertyDescription("Restricted Job spec patch.")
  private JobSpecPatch spec;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public JobTemplatePatch withMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
    return this;
  }

  public JobSpecPatch getSpec() {
    return spec;
  }

  public void setSpec(JobSpecPatch spec) {
    this.spec = spec;
  }

  public JobTemplatePatch withSpec(JobSpecPatch spec) {
    this.spec = spec;
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
    JobTemplatePatch that = (JobTemplatePatch) o;
    return Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec);
  }

  @Override
  public String toString() {
    return "JobTemplatePatch{metadata=" + metadata + ", spec=" + spec + "}";
  }
}
