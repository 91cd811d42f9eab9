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
 * An action to take when a child Job fails with a matching reason and message.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "action", "onJobFailureReasons", "onJobFailureMessagePatterns", "targetReplicatedJobs"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "action": {
              "enum": [
                "FailJobSet",
                "RestartJobSet",
                "RestartJobSetAndIgnoreMaxRestarts",
                "RestartJob",
                "RestartJobAndIgnoreMaxRestarts"
              ]
            },
            "targetReplicatedJobs": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class FailurePolicyRule {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the rule.")
  @Required
  private String name;

  @JsonProperty("action")
  @JsonPropertyDescription("Action taken when the rule matches.")
  @Required
  private String action;

  @JsonProperty("onJobFailureReasons")
  @JsonPropertyDescription("Job failure reasons that match; empty matches any reason.")
  private List<String> onJobFailureReasons;

  @JsonProperty("onJobFailureMessagePatterns")
  @JsonPropertyDescription("RE2 patterns of Job failure messages that match; empty matches any message.")
  private List<String> onJobFailureMessagePatterns;

  @JsonProperty("targetReplicatedJobs")
  @JsonPropertyDescription("Replicated jobs the rule applies to; empty means all.")
  private List<String> targetReplicatedJobs;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public FailurePolicyRule withName(String name) {
    this.name = name;
    return this;
  }

  public String getAction() {
    return action;
  }

  public void setAction(String action) {
    this.action = action;
  }

  public FailurePolicyRule withAction(String action) {
    this.action = action;
    return this;
  }

  public List<String> getOnJobFailureReasons() {
    return onJobFailureReasons;
  }

  public void setOnJobFailureReasons(List<String> onJobFailureReasons) {
    this.onJobFailureReasons = onJobFailureReasons;
  }

  public FailurePolicyRule withOnJobFailureReasons(List<String> onJobFailureReasons) {
    this.onJobFailureReasons = onJobFailureReasons;
    return this;
  }

  public List<String> getOnJobFailureMessagePatterns() {
    return onJobFailureMessagePatterns;
  }

  public void setOnJobFailureMessagePatterns(List<String> onJobFailureMessagePatterns) {
    this.onJobFailureMessagePatterns = onJobFailureMessagePatterns;
  }

  public FailurePolicyRule withOnJobFailureMessagePatterns(List<String> onJobFailureMessagePatterns) {
    this.onJobFailureMessagePatterns = onJobFailureMessagePatterns;
    return this;
  }

  public List<String> getTargetReplicatedJobs() {
    return targetReplicatedJobs;
  }

  public void setTargetReplicatedJobs(List<String> targetReplicatedJobs) {
    this.targetReplicatedJobs = targetReplicatedJobs;
  }

  public FailurePolicyRule withTargetReplicatedJobs(List<String> targetReplicatedJobs) {
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
    FailurePolicyRule that = (FailurePolicyRule) o;
    return Objects.equals(name, that.name)
        && Objects.equals(action, that.action)
        && Objects.equals(onJobFailureReasons, that.onJobFailureReasons)
        && Objects.equals(onJobFailureMessagePatterns, that.onJobFailureMessagePatterns)
        && Objects.equals(targetReplicatedJobs, that.targetReplicatedJobs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, action, onJobFailureReasons, onJobFailureMessagePatterns, targetReplicatedJobs);
  }

  @Override
  public String toString() {
    return "FailurePolicyRule{name=" + name
        + ", action=" + action
        + ", onJobFailureReasons=" + onJobFailureReasons
        + ", onJobFailureMessagePatterns=" + onJobFailureMessagePatterns
        + ", targetReplicatedJobs=" + targetReplicatedJobs
        + "}";
  }
}
