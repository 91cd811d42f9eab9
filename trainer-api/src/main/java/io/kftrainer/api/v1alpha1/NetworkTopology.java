package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * Volcano network topology constraint (volcano scheduling.volcano.sh/v1beta1 NetworkTopologySpec).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"mode", "highestTierAllowed"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "mode": {
              "enum": ["hard", "soft"]
            }
          }
        }""")
public class NetworkTopology {

  @JsonProperty("mode")
  @JsonPropertyDescription("Mode of the constraint: hard or soft. Defaults to hard.")
  @Default("hard")
  private String mode;

  @JsonProperty("highestTierAllowed")
  @JsonPropertyDescription("Highest tier a job may cross when it is scheduled. Defaults to 1.")
  @Default("1")
  private Integer highestTierAllowed;

  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
  }

  public NetworkTopology withMode(String mode) {
    this.mode = mode;
    return this;
  }

  public Integer getHighestTierAllowed() {
    return highestTierAllowed;
  }

  public void setHighestTierAllowed(Integer highestTierAllowed) {
    this.highestTierAllowed = highestTierAllowed;
  }

  public NetworkTopology withHighestTierAllowed(Integer highestTierAllowed) {
    this.highestTierAllowed = highestTierAllowed;
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
    NetworkTopology that = (NetworkTopology) o;
    return Objects.equals(mode, that.mode)
        && Objects.equals(highestTierAllowed, that.highestTierAllowed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, highestTierAllowed);
  }

  @Override
  public String toString() {
    return "NetworkTopology{mode=" + mode + ", highestTierAllowed=" + highestTierAllowed + "}";
  }
}
