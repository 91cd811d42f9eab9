package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.Objective;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The objective of an OptimizationJob ({@code spec.objectives[0]}): which reported metric counts and which way is
 * better. Metric values are strings (upstream's {@code Metric}); a value that is not a number does not count, and
 * NaN is worse than any number, so a diverged trial is never the best.
 */
public record ObjectiveMetric(String metric, boolean maximize) {

  /** The objective of {@code spec}; Minimize unless the direction says Maximize. */
  public static ObjectiveMetric of(OptimizationJobSpec spec) {
    List<Objective> objectives = spec.getObjectives();
    if (objectives == null || objectives.isEmpty() || objectives.get(0).getMetric() == null) {
      throw new InvalidSearchSpaceException("spec.objectives: Required value");
    }
    Objective objective = objectives.get(0);
    return new ObjectiveMetric(objective.getMetric(),
        OptimizationConstants.DIRECTION_MAXIMIZE.equals(objective.getDirection()));
  }

  /** The objective metric among {@code metrics}, when reported with a numeric value. */
  public Optional<Metric> find(List<Metric> metrics) {
    if (metrics == null) {
      return Optional.empty();
    }
    return metrics.stream()
        .filter(m -> metric.equals(m.getName()) && parse(m.getValue()).isPresent())
        .findFirst();
  }

  /** The number of a metric value, in Java's or Python's spelling ({@code 0.5}, {@code 1e-3}, {@code nan}, {@code inf}). */
  public static OptionalDouble parse(String value) {
    if (value == null) {
      return OptionalDouble.empty();
    }
    String text = value.trim().toLowerCase(Locale.ROOT);
    switch (text) {
      case "nan":
        return OptionalDouble.of(Double.NaN);
      case "inf", "+inf", "infinity", "+infinity":
        return OptionalDouble.of(Double.POSITIVE_INFINITY);
      case "-inf", "-infinity":
        return OptionalDouble.of(Double.NEGATIVE_INFINITY);
      default:
        try {
          return OptionalDouble.of(Double.parseDouble(text));
        } catch (NumberFormatException e) {
          return OptionalDouble.empty();
        }
    }
  }

  /** Whether {@code candidate} is strictly better than {@code incumbent}. */
  public boolean isBetter(double candidate, double incumbent) {
    if (Double.isNaN(candidate)) {
      return false;
    }
    if (Double.isNaN(incumbent)) {
      return true;
    }
    return maximize ? candidate > incumbent : candidate < incumbent;
  }

  /** "lowest" or "highest": how a person says which value wins. */
  public String bestWord() {
    return maximize ? "highest" : "lowest";
  }
}
