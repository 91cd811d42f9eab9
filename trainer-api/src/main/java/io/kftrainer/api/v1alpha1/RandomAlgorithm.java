package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * Random search. With {@code seed} the same OptimizationJob spec gives the same values to the same trials.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"seed"})
public class RandomAlgorithm {

  @JsonProperty("seed")
  @JsonPropertyDescription("Seed of the random search; without it the values depend on the OptimizationJob's "
      + "uid.")
  private Long seed;

  public Long getSeed() {
    return seed;
  }

  public void setSeed(Long seed) {
    this.seed = seed;
  }

  public RandomAlgorithm withSeed(Long seed) {
    this.seed = seed;
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
    RandomAlgorithm that = (RandomAlgorithm) o;
    return Objects.equals(seed, that.seed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(seed);
  }

  @Override
  public String toString() {
    return "RandomAlgorithm{seed=" + seed
        + "}";
  }
}
