package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * Start-up order of the replicated jobs.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"startupPolicyOrder"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "startupPolicyOrder": {
              "enum": ["AnyOrder", "InOrder"]
            }
          }
        }""")
public class StartupPolicy {

  @JsonProperty("startupPolicyOrder")
  @JsonPropertyDescription("AnyOrder, or InOrder to start each replicated job once the previous one is ready.")
  @Required
  private String startupPolicyOrder;

  public String getStartupPolicyOrder() {
    return startupPolicyOrder;
  }

  public void setStartupPolicyOrder(String startupPolicyOrder) {
    this.startupPolicyOrder = startupPolicyOrder;
  }

  public StartupPolicy withStartupPolicyOrder(String startupPolicyOrder) {
    this.startupPolicyOrder = startupPolicyOrder;
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
    StartupPolicy that = (StartupPolicy) o;
    return Objects.equals(startupPolicyOrder, that.startupPolicyOrder);
  }

  @Override
  public int hashCode() {
    return Objects.hash(startupPolicyOrder);
  }

  @Override
  public String toString() {
    return "StartupPolicy{startupPolicyOrder=" + startupPolicyOrder + "}";
  }
}
