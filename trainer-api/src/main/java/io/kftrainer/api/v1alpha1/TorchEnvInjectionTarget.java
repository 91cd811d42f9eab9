package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * A replicated job and the containers in it that receive the PET_* environment variables.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"jobName", "containerNames"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "containerNames": {
              "x-kubernetes-list-type": "set",
              "items": {
                "maxLength": 63
              }
            }
          }
        }""")
public class TorchEnvInjectionTarget {

  @JsonProperty("jobName")
  @JsonPropertyDescription("Name of the replicated job, e.g. node.")
  @Required
  @Size(min = 1, max = 253)
  private String jobName;

  @JsonProperty("containerNames")
  @JsonPropertyDescription("Containers of that job; the node container always receives them.")
  @Required
  @Size(min = 1, max = 8)
  @ValidationRule(value = "!self.exists(c, c == 'node')",
      message = "containerNames must not include the main node container"
          + " because PET_* envs are always injected into it")
  private List<String> containerNames;

  public String getJobName() {
    return jobName;
  }

  public void setJobName(String jobName) {
    this.jobName = jobName;
  }

  public TorchEnvInjectionTarget withJobName(String jobName) {
    this.jobName = jobName;
    return this;
  }

  public List<String> getContainerNames() {
    return containerNames;
  }

  public void setContainerNames(List<String> containerNames) {
    this.containerNames = containerNames;
  }

  public TorchEnvInjectionTarget withContainerNames(List<String> containerNames) {
    this.containerNames = containerNames;
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
    TorchEnvInjectionTarget that = (TorchEnvInjectionTarget) o;
    return Objects.equals(jobName, that.jobName)
        && Objects.equals(containerNames, that.containerNames);
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobName, containerNames);
  }

  @Override
  public String toString() {
    return "TorchEnvInjectionTarget{jobName=" + jobName + ", containerNames=" + containerNames + "}";
  }
}
