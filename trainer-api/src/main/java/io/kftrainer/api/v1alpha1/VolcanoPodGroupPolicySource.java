package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * Volcano gang-scheduler configuration.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"networkTopology"})
public class VolcanoPodGroupPolicySource {

  @JsonProperty("networkTopology")
  @JsonPropertyDescription("Network topology constraint, used with Volcano's HyperNode feature.")
  private NetworkTopology networkTopology;

  public NetworkTopology getNetworkTopology() {
    return networkTopology;
  }

  public void setNetworkTopology(NetworkTopology networkTopology) {
    this.networkTopology = networkTopology;
  }

  public VolcanoPodGroupPolicySource withNetworkTopology(NetworkTopology networkTopology) {
    this.networkTopology = networkTopology;
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
    VolcanoPodGroupPolicySource that = (VolcanoPodGroupPolicySource) o;
    return Objects.equals(networkTopology, that.networkTopology);
  }

  @Override
  public int hashCode() {
    return Objects.hash(networkTopology);
  }

  @Override
  public String toString() {
    return "VolcanoPodGroupPolicySource{networkTopology=" + networkTopology + "}";
  }
}
