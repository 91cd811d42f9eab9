package io.kftrainer.optimization;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class GridSearchTest {

  private static List<List<String>> run(OptimizationJobSpec spec) {
    SuggestionAlgorithm algorithm = SuggestionAlgorithm.of(spec, 0);
    List<List<String>> combinations = new ArrayList<>();
    for (int i = 0; ; i++) {
      var values = algorithm.suggest(i);
      if (values.isEmpty()) {
        return combinations;
      }
      combinations.add(values.get().stream().map(ParameterAssignment::getValue).toList());
    }
  }

  @Test
  void categoricalParametersGiveEveryCombinationOnceLastParameterFastest() {
    List<List<String>> combinations = run(Specs.grid(100, 1,
        Specs.categorical("optimizer", "sgd", "adam"), Specs.categorical("batch", "16", "32", "64")));

    assertThat(combinations).containsExactly(
        List.of("sgd", "16"), List.of("sgd", "32"), List.of("sgd", "64"),
        List.of("adam", "16"), List.of("adam", "32"), List.of("adam", "64"));
  }

  @Test
  void aFloatParameterIsCutIntoNumTrialsEvenlySpacedPointsBoundsIncluded() {
    assertThat(run(Specs.grid(6, 1, Specs.uniform("lr", "0.01", "0.06"))))
        .extracting(c -> c.get(0)).containsExactly("0.01", "0.02", "0.03", "0.04", "0.05", "0.06");
    assertThat(run(Specs.grid(4, 1, Specs.logUniform("lr", "0.0001", "0.1"))))
        .extracting(c -> c.get(0)).containsExactly("0.0001", "0.001", "0.01", "0.1");
  }

  @Test
  void continuousParametersShareTheBudgetLeftByTheDiscreteOnes() {
    // 2 choices x n^1 >= 6 -> n = 3
    List<List<String>> combinations = run(Specs.grid(6, 1,
        Specs.categorical("optimizer", "sgd", "adam"), Specs.uniform("momentum", "0", "1")));
    assertThat(combinations).containsExactly(
        List.of("sgd", "0"), List.of("sgd", "0.5"), List.of("sgd", "1"),
        List.of("adam", "0"), List.of("adam", "0.5"), List.of("adam", "1"));

    // two floats, 10 trials: n = 4 (3 x 3 = 9 < 10), 16 combinations of which the first 10 run
    assertThat(GridSearch.pointsPerContinuousDimension(List.of(
        SearchDimension.of(Specs.uniform("a", "0", "1"), 0), SearchDimension.of(Specs.uniform("b", "0", "1"), 1)), 10))
        .isEqualTo(4);
  }

  @Test
  void integerSpacesGiveAllTheirIntegersOrRoundedPointsWithoutRepeats() {
    assertThat(run(Specs.grid(10, 1, Specs.uniformInt("layers", "1", "4"))))
        .extracting(c -> c.get(0)).containsExactly("1", "2", "3", "4");
    // 5 points over [1, 1000] in log space: 1, 5.6, 31.6, 177.8, 1000
    assertThat(run(Specs.grid(5, 1, Specs.logUniformInt("batch", "1", "1000"))))
        .extracting(c -> c.get(0)).containsExactly("1", "6", "32", "178", "1000");
  }

  @Test
  void pointsCloserThanSixDigitsGetMoreDigitsToStayDistinct() {
    List<List<String>> combinations = run(Specs.grid(5, 1, Specs.uniform("x", "1.0000001", "1.0000002")));

    assertThat(combinations).extracting(c -> c.get(0))
        .containsExactly("1.0000001", "1.00000012", "1.00000015", "1.00000018", "1.0000002");
  }

  @Test
  void everyCombinationRunsAtMostOnceAndAllOfThemRunWhenTheBudgetAllows() {
    OptimizationJobSpec spec = Specs.grid(100, 1, Specs.categorical("a", "x", "y", "z"),
        Specs.uniformInt("b", "0", "3"), Specs.logUniform("c", "0.001", "1"));
    List<List<String>> combinations = run(spec);

    assertThat(new HashSet<>(combinations)).hasSameSizeAs(combinations);
    GridSearch grid = (GridSearch) SuggestionAlgorithm.of(spec, 0);
    assertThat(grid.size()).isEqualTo(combinations.size()).isGreaterThanOrEqualTo(100);
    List<List<String>> product = new ArrayList<>();
    for (String a : grid.points().get(0)) {
      for (String b : grid.points().get(1)) {
        for (String c : grid.points().get(2)) {
          product.add(List.of(a, b, c));
        }
      }
    }
    assertThat(combinations).isEqualTo(product);
  }

  @Test
  void aGridSmallerThanNumTrialsIsUsedUp() {
    SuggestionAlgorithm grid = SuggestionAlgorithm.of(Specs.grid(10, 1, Specs.categorical("a", "x", "y")), 0);

    assertThat(grid.suggest(1)).isPresent();
    assertThat(grid.suggest(2)).isEmpty();
  }
}
