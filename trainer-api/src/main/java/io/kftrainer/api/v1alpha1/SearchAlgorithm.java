package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * The search algorithm of an {@link OptimizationJob}: exactly one of random and grid.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"random", "grid"})
@ValidationRule(value = "[has(self.random),has(self.grid)].filter(x,x==true).size() == 1",
    message = "exactly one of the fields in [random grid] must be set")
public class SearchAlgorithm {

  @JsonProperty("random")
  @JsonPropertyDescription("Random search: each trial's values drawn independently from the parameters' "
      + "distributions.")
  private RandomAlgorithm random;

  @JsonProperty("grid")
  @JsonPropertyDescription("Grid search: each combination of the parameters' grid points at most once.")
  private GridAlgorithm grid;

  public RandomAlgorithm getRandom() {
    return random;
  }

  public void setRandom(RandomAlgorithm random) {
    this.random = random;
  }

  public SearchAlgorithm withRandom(RandomAlgorithm random) {
    this.random = random;
    return this;
  }

  public GridAlgorithm getGrid() {
    return grid;
  }

  public void setGrid(GridAlgorithm grid) {
    this.grid = grid;
  }

  public SearchAlgorithm withGrid(GridAlgorithm grid) {
    this.grid = grid;
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
    SearchAlgorithm that = (SearchAlgorithm) o;
    return Objects.equals(random, that.random)
        && Objects.equals(grid, that.grid);
  }

  @Override
  public int hashCode() {
    return Objects.hash(random, grid);
  }

  @Override
  public String toString() {
    return "SearchAlgorithm{random=" + random
        + ", grid=" + grid
        + "}";
  }
}
