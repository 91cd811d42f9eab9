package io.kftrainer.plugins.volcano;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * {@code spec.networkTopology} of a Volcano {@link PodGroup}: how far apart in the network (HyperNode tiers) the
 * group's pods may be placed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"mode", "highestTierAllowed"})
public class NetworkTopologySpec {

  private String mode;
  private Integer highestTierAllowed;

  /** {@code hard} (the pods must stay within the tier) or {@code soft} (best effort). */
  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
  }

  public NetworkTopologySpec withMode(String mode) {
    this.mode = mode;
    return this;
  }

  /** The highest HyperNode tier the group may span. */
  public Integer getHighestTierAllowed() {
    return highestTierAllowed;
  }

  public void setHighestTierAllowed(Integer highestTierAllowed) {
    this.highestTierAllowed = highestTierAllowed;
  }

  public NetworkTopologySpec withHighestTierAllowed(Integer highestTierAllowed) {
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
    NetworkTopologySpec that = (NetworkTopologySpec) o;
    return Objects.equals(mode, that.mode) && Objects.equals(highestTierAllowed, that.highestTierAllowed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, highestTierAllowed);
  }

  @Override
  public String toString() {
    return "NetworkTopologySpec{mode=" + mode + ", highestTierAllowed=" + highestTierAllowed + "}";
  }
}
