package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.ParameterAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Random search: each parameter of trial i drawn independently from its distribution ({@link SearchDimension}).
 *
 * <p>Reproducible and stateless: trial i's numbers come from a {@link java.util.Random} seeded with
 * {@link TrialSeeds#of}(seed, i), one number per parameter in the order of {@code spec.parameters}. The same seed
 * gives the same values to the same trial, in any process, at any time: {@code java.util.Random}'s algorithm is
 * fixed by its specification, so the sequence does not change with the JVM.
 */
public final class RandomSearch implements SuggestionAlgorithm {

  private final List<SearchDimension> dimensions;
  private final long seed;

  RandomSearch(List<SearchDimension> dimensions, long seed) {
    this.dimensions = List.copyOf(dimensions);
    this.seed = seed;
  }

  @Override
  public Optional<List<ParameterAssignment>> suggest(int trialIndex) {
    Random random = new Random(TrialSeeds.of(seed, trialIndex));
    List<ParameterAssignment> values = new ArrayList<>(dimensions.size());
    for (SearchDimension dimension : dimensions) {
      values.add(new ParameterAssignment().withName(dimension.name()).withValue(dimension.valueAt(random.nextDouble())));
    }
    return Optional.of(values);
  }

  public long seed() {
    return seed;
  }
}
