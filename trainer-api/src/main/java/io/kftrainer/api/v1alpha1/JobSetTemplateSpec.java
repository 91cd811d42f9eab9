package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.crd.EmbeddedObjectMeta;
import java.util.Objects;

/**
 * Template of the JobSet created for a TrainJob; its name and namespace are the TrainJob's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"metadata", "spec"})
public class JobSetTemplateSpec {

  @JsonProperty("metadata")
  @JsonPropertyDescription("Labels and annotations of the JobSet.")
  @SchemaFrom(type = EmbeddedObjectMeta.class)
  private ObjectMeta metadata;

  @JsonProperty("spec")
  @JsonPropertyDescription("Spec of the JobSet.")
  private JobSetSpec spec;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public JobSetTemplateSpec withMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
    return this;
  }

  public JobSetSpec getSpec() {
    return spec;
  }

  public void setSpec(JobSetSpec spec) {
    this.spec = spec;
  }

  public JobSetTemplateSpec withSpec(JobSetSpec spec) {
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
    JobSetTemplateSpec that = (JobSetTemplateSpec) o;
    return Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec);
  }

  @Override
  public String toString() {
    return "JobSetTemplateSpec{metadata=" + metadata + ", spec=" + spec + "}";
  }
}
