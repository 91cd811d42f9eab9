package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * When a JobSet is declared succeeded.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"operator", "targetReplicatedJobs"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "operator": {
              "enum": ["All", "Any"]
            },
            "targetReplicatedJobs": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class SuccessPolicy {

  @JsonProperty("operator")
  @JsonPropertyDescription("Whether All or Any of the selected Jobs must succeed.")
  @Required
  private String operator;

  @JsonProperty("targetReplicatedJobs")
  @JsonPropertyDescription("Replicated jobs the operator applies to; empty means all.")
  private List<String> targetReplicatedJobs;

  public String getOperator() {
    return operator;
  }

  public void setOperator(String operator) {
    this.operator = operator;
  }

  public SuccessPolicy withOperator(String operator) {
    this.operator = operator;
    return this;
  }

  public List<String> getTargetReplicatedJobs() {
    return targetReplicatedJobs;
  }

  public void setTargetReplicatedJobs(List<String> targetReplicatedJobs) {
    this.targetReplicatedJobs = targetReplicatedJobs;
  }

  public SuccessPolicy withTargetReplicatedJobs(List<String> targetReplicatedJobs) {
    this.targetReplicatedJobs = targetReplicatedJobs;
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
    SuccessPolicy that = (SuccessPolicy) o;
    return Objects.equals(operator, that.operator)
        && Objects.equals(targetReplicatedJobs, that.targetReplicatedJobs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(operator, targetReplicatedJobs);
  }

  @Override
  public String toString() {
    return "SuccessPolicy{operator=" + operator + ", targetReplicatedJobs=" + targetReplicatedJobs + "}";
  }
}
