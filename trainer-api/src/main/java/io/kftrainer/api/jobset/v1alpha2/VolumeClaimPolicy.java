package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.kftrainer.api.crd.EmbeddedObjectMeta;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Shared persistent volume claims created by the JobSet controller.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"templates", "retentionPolicy"})
@SchemaSwap(originalType = PersistentVolumeClaim.class, fieldName = "metadata",
    targetType = EmbeddedObjectMeta.class)
@ValidationRule(value = "self.templates.all(t, !has(t.metadata.namespace) || size(t.metadata.namespace) == 0)",
    message = "namespace cannot be set for VolumeClaimPolicies templates")
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "templates": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class VolumeClaimPolicy {

  @JsonProperty("templates")
  @JsonPropertyDescription("Claims the replicated jobs may mount; named <claim>-<jobset>.")
  @Size(max = 50)
  private List<PersistentVolumeClaim> templates;

  @JsonProperty("retentionPolicy")
  @JsonPropertyDescription("Lifecycle of the created claims.")
  private VolumeRetentionPolicy retentionPolicy;

  public List<PersistentVolumeClaim> getTemplates() {
    return templates;
  }

  public void setTemplates(List<PersistentVolumeClaim> templates) {
    this.templates = templates;
  }

  public VolumeClaimPolicy withTemplates(List<PersistentVolumeClaim> templates) {
    this.templates = templates;
    return this;
  }

  public VolumeRetentionPolicy getRetentionPolicy() {
    return retentionPolicy;
  }

  public void setRetentionPolicy(VolumeRetentionPolicy retentionPolicy) {
    this.retentionPolicy = retentionPolicy;
  }

  public VolumeClaimPolicy withRetentionPolicy(VolumeRetentionPolicy retentionPolicy) {
    this.retentionPolicy = retentionPolicy;
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
    VolumeClaimPolicy that = (VolumeClaimPolicy) o;
    return Objects.equals(templates, that.templates)
        && Objects.equals(retentionPolicy, that.retentionPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(templates, retentionPolicy);
  }

  @Override
  public String toString() {
    return "VolumeClaimPolicy{templates=" + templates + ", retentionPolicy=" + retentionPolicy + "}";
  }
}
