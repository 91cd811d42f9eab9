package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * When a JobSet is declared failed or restarted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"maxRestarts", "restartStrategy", "rules"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "restartStrategy": {
              "enum": ["Recreate", "BlockingRecreate", "InPlaceRestart"]
            }
          }
        }""")
public class FailurePolicy {

  @JsonProperty("maxRestarts")
  @JsonPropertyDescription("Limit on the number of JobSet restarts.")
  private Integer maxRestarts;

  @JsonProperty("restartStrategy")
  @JsonPropertyDescription("How the JobSet restarts: Recreate, BlockingRecreate or InPlaceRestart. Defaults to "
      + "Recreate.")
  @Default("Recreate")
  private String restartStrategy;

  @JsonProperty("rules")
  @JsonPropertyDescription("Rules evaluated in order for a Job failure; the first match wins.")
  private List<FailurePolicyRule> rules;

  public Integer getMaxRestarts() {
    return maxRestarts;
  }

  public void setMaxRestarts(Integer maxRestarts) {
    this.maxRestarts = maxRestarts;
  }

  public FailurePolicy withMaxRestarts(Integer maxRestarts) {
    this.maxRestarts = maxRestarts;
    return this;
  }

  public String getRestartStrategy() {
    return restartStrategy;
  }

  public void setRestartStrategy(String restartStrategy) {
    this.restartStrategy = restartStrategy;
  }

  public FailurePolicy withRestartStrategy(String restartStrategy) {
    this.restartStrategy = restartStrategy;
    return this;
  }

  public List<FailurePolicyRule> getRules() {
    return rules;
  }

  public void setRules(List<FailurePolicyRule> rules) {
    this.rules = rules;
  }

  public FailurePolicy withRules(List<FailurePolicyRule> rules) {
    this.rules = rules;
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
    FailurePolicy that = (FailurePolicy) o;
    return Objects.equals(maxRestarts, that.maxRestarts)
        && Objects.equals(restartStrategy, that.restartStrategy)
        && Objects.equals(rules, that.rules);
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxRestarts, restartStrategy, rules);
  }

  @Override
  public String toString() {
    return "FailurePolicy{maxRestarts=" + maxRestarts
        + ", restartStrategy=" + restartStrategy
        + ", rules=" + rules
        + "}";
  }
}
