package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.ParameterAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grid search: every combination of the parameters' grid points, each at most once, in the order of
 * {@code itertools.product} (the last parameter varies fastest); trial i runs combination i.
 *
 * <p>Grid points ({@link SearchDimension#gridPoints}). A categorical parameter contributes its choices and an
 * {@code Int} parameter with no more integers than {@code numTrials} all of them: these are the discrete
 * parameters, C combinations together. Each other parameter (floats, wider integer ranges) is cut into n points,
 * min and max included, evenly spaced (log-evenly for log-uniform), with n the smallest number from 2 up such that
 * C × n^d reaches {@code numTrials}, d being the number of such parameters; wide {@code Int} ranges round the
 * points to integers. So a grid over one float parameter with {@code numTrials: 6} tries 6 evenly spaced values.
 *
 * <p>A grid smaller than {@code numTrials} (only discrete parameters, or rounding that merged integer points) is
 * used up before: {@link #suggest} is then empty and the OptimizationJob completes with every combination tried.
 * Upstream's CRD admits grid search over categorical parameters only; this discretization is ours.
 */
public final class GridSearch implements SuggestionAlgorithm {

  private final List<SearchDimension> dimensions;
  private final List<List<String>> points;
  private final long size;

  GridSearch(List<SearchDimension> dimensions, int numTrials) {
    this.dimensions = List.copyOf(dimensions);
    int perContinuous = pointsPerContinuousDimension(dimensions, numTrials);
    List<List<String>> grid = new ArrayList<>();
    long combinations = 1;
    for (SearchDimension dimension : dimensions) {
      List<String> values = isDiscrete(dimension, numTrials) ? dimension.allValues()
          : dimension.gridPoints(perContinuous);
      grid.add(values);
      combinations = saturatedProduct(combinations, values.size());
    }
    this.points = List.copyOf(grid);
    this.size = combinations;
  }

  private static boolean isDiscrete(SearchDimension dimension, int numTrials) {
    return dimension.distribution() == SearchDimension.Distribution.CATEGORICAL
        || dimension.integer() && dimension.cardinality() <= numTrials;
  }

  /** n: the smallest number of points, from 2 up, with which the grid reaches {@code numTrials} combinations. */
  static int pointsPerContinuousDimension(List<SearchDimension> dimensions, int numTrials) {
    long discrete = 1;
    int continuous = 0;
    for (SearchDimension dimension : dimensions) {
      if (isDiscrete(dimension, numTrials)) {
        discrete = saturatedProduct(discrete, dimension.cardinality());
      } else {
        continuous++;
      }
    }
    if (continuous == 0) {
      return 2;
    }
    for (int n = 2; ; n++) {
      long combinations = discrete;
      for (int i = 0; i < continuous; i++) {
        combinations = saturatedProduct(combinations, n);
      }
      if (combinations >= numTrials) {
        return n;
      }
    }
  }

  private static long saturatedProduct(long a, long b) {
    return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  @Override
  public Optional<List<ParameterAssignment>> suggest(int trialIndex) {
    if (trialIndex < 0 || trialIndex >= size) {
      return Optional.empty();
    }
    ParameterAssignment[] values = new ParameterAssignment[dimensions.size()];
    long rest = trialIndex;
    for (int i = dimensions.size() - 1; i >= 0; i--) {
      List<String> axis = points.get(i);
      values[i] = new ParameterAssignment().withName(dimensions.get(i).name())
          .withValue(axis.get((int) (rest % axis.size())));
      rest /= axis.size();
    }
    return Optional.of(List.of(values));
  }

  /** The number of combinations ({@code Long.MAX_VALUE} when larger). */
  public long size() {
    return size;
  }

  /** The grid points of each parameter, in the order of {@code spec.parameters}. */
  public List<List<String>> points() {
    return points;
  }
}
