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
 * Patch of a Pod template.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"metadata", "spec"})
public class PodTemplatePatch {

  @JsonProperty("metadata")
  @JsonPropertyDescription("Pod template metadata patch; only labels and annotations are allowed.")
  @SchemaFrom(type = EmbeddedObjectMeta.class)
  private ObjectMeta metadata;

  @JsonProperty("spec")
  @JsonPropertyDescription("Restricted Pod spec patch.")
  private PodSpecPatch spec;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public PodTemplatePatch withMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
    return this;
  }

  public PodSpecPatch getSpec() {
    return spec;
  }

  public void setSpec(PodSpecPatch spec) {
    this.spec = spec;
  }

  public PodTemplatePatch withSpec(PodSpecPatch spec) {
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
    PodTemplatePatch that = (PodTemplatePatch) o;
    return Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec);
  }

  @Override
  public String toString() {
    return "PodTemplatePatch{metadata=" + metadata + ", spec=" + spec + "}";
  }
}
