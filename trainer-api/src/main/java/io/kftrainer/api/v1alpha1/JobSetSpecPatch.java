package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Restricted patch of a JobSet spec.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"replicatedJobs"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "replicatedJobs": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            }
          }
        }""")
public class JobSetSpecPatch {

  @JsonProperty("replicatedJobs")
  @JsonPropertyDescription("Per replicated job patches, keyed by job name.")
  @Size(max = 100)
  private List<ReplicatedJobPatch> replicatedJobs;

  public List<ReplicatedJobPatch> getReplicatedJobs() {
    return replicatedJobs;
  }

  public void setReplicatedJobs(List<ReplicatedJobPatch> replicatedJobs) {
    this.replicatedJobs = replicatedJobs;
  }

  public JobSetSpecPatch withReplicatedJobs(List<ReplicatedJobPatch> replicatedJobs) {
    this.replicatedJobs = replicatedJobs;
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
    JobSetSpecPatch that = (JobSetSpecPatch) o;
    return Objects.equals(replicatedJobs, that.replicatedJobs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicatedJobs);
  }

  @Override
  public String toString() {
    return "JobSetSpecPatch{replicatedJobs=" + replicatedJobs + "}";
  }
}
