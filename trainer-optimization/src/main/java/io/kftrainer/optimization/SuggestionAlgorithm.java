package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.Parameter;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import io.kftrainer.api.v1alpha1.SearchAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the parameter values of a trial from its index alone. Being a function of (spec, trial index), a
 * suggestion needs no state beyond the OptimizationJob's {@code status.nextTrialIndex}: after an operator restart,
 * trial i gets the values it would have got.
 */
public sealed interface SuggestionAlgorithm permits RandomSearch, GridSearch {

  /** The values of trial {@code trialIndex}, in the order of {@code spec.parameters}; empty once the space is used up. */
  Optional<List<ParameterAssignment>> suggest(int trialIndex);

  /**
   * The algorithm of {@code spec}: grid, or random (the default) seeded with {@code searchAlgorithm.random.seed},
   * else with {@code defaultSeed}.
   *
   * @throws InvalidSearchSpaceException when a parameter cannot be used
   */
  static SuggestionAlgorithm of(OptimizationJobSpec spec, long defaultSeed) {
    List<SearchDimension> dimensions = dimensions(spec);
    SearchAlgorithm algorithm = spec.getSearchAlgorithm();
    if (algorithm != null && algorithm.getGrid() != null && algorithm.getRandom() == null) {
      return new GridSearch(dimensions, spec.getNumTrials() == null ? 1 : spec.getNumTrials());
    }
    Long seed = algorithm == null || algorithm.getRandom() == null ? null : algorithm.getRandom().getSeed();
    return new RandomSearch(dimensions, seed != null ? seed : defaultSeed);
  }

  private static List<SearchDimension> dimensions(OptimizationJobSpec spec) {
    List<Parameter> parameters = spec.getParameters() == null ? List.of() : spec.getParameters();
    if (parameters.isEmpty()) {
      throw new InvalidSearchSpaceException("spec.parameters: Required value");
    }
    List<SearchDimension> dimensions = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      dimensions.add(SearchDimension.of(parameters.get(i), i));
    }
    return dimensions;
  }
}
