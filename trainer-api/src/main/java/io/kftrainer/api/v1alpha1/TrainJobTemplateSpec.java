package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.api.crd.EmbeddedObjectMeta;
import java.util.Objects;

/**
 * The TrainJob each trial of an {@link OptimizationJob} runs. Its name is the trial's, its namespace the
 * OptimizationJob's: neither may be set here.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"metadata", "spec"})
public class TrainJobTemplateSpec {

  @JsonProperty("metadata")
  @JsonPropertyDescription("Labels and annotations of the trial TrainJobs.")
  @SchemaFrom(type = EmbeddedObjectMeta.class)
  @ValidationRule(value = "!has(self.name) && !has(self.namespace)",
      message = "name and namespace cannot be set in a template.")
  private ObjectMeta metadata;

  @JsonProperty("spec")
  @JsonPropertyDescription("Spec of the trial TrainJobs.")
  @Required
  private TrainJobSpec spec;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public TrainJobTemplateSpec withMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
    return this;
  }

  public TrainJobSpec getSpec() {
    return spec;
  }

  public void setSpec(TrainJobSpec spec) {
    this.spec = spec;
  }

  public TrainJobTemplateSpec withSpec(TrainJobSpec spec) {
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
    TrainJobTemplateSpec that = (TrainJobTemplateSpec) o;
    return Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec);
  }

  @Override
  public String toString() {
    return "TrainJobTemplateSpec{metadata=" + metadata
        + ", spec=" + spec
        + "}";
  }
}
