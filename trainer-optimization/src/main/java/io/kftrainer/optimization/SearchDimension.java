package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.CategoricalSpace;
import io.kftrainer.api.v1alpha1.LogUniformSpace;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import io.kftrainer.api.v1alpha1.Parameter;
import io.kftrainer.api.v1alpha1.SearchSpace;
import io.kftrainer.api.v1alpha1.UniformSpace;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One hyperparameter of the search space, read once from its {@link Parameter}: a categorical set of choices, or a
 * uniform or log-uniform distribution over [min, max] of floats or integers. It turns a number drawn uniformly
 * from [0, 1) into a value ({@link #valueAt}, random search) and gives its grid points ({@link #gridPoints}).
 *
 * <p>Values are the strings the trial receives, formatted by {@link ParameterValues}.
 *
 * <p>{@code Int} spaces run over the integers from {@code ceil(min)} to {@code floor(max)} (the API requires whole
 * bounds; a CRD without that rule could hold others). Uniform: every integer equally likely. Log-uniform: a value
 * drawn log-uniformly from [lo - 0.5, hi + 0.5] and rounded to the nearest integer, so that integer k is drawn with
 * a probability proportional to log((k + 0.5) / (k - 0.5)), about 1/k, as Optuna's integer log sampling does.
 */
public record SearchDimension(String name, Distribution distribution, boolean integer, BigDecimal min, BigDecimal max,
    List<String> choices) {

  /** The shape of a search space. */
  public enum Distribution { UNIFORM, LOG_UNIFORM, CATEGORICAL }

  public SearchDimension {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(distribution, "distribution");
    choices = choices == null ? List.of() : List.copyOf(choices);
  }

  /**
   * Reads {@code parameter}, the {@code index}-th of {@code spec.parameters}.
   *
   * @throws InvalidSearchSpaceException naming the field when the API server's rules were not applied to it
   */
  public static SearchDimension of(Parameter parameter, int index) {
    String path = "spec.parameters[" + index + "]";
    if (parameter == null || parameter.getName() == null || parameter.getName().isEmpty()) {
      throw new InvalidSearchSpaceException(path + ".name: Required value");
    }
    SearchSpace space = parameter.getSearchSpace();
    String spacePath = path + ".searchSpace";
    int kinds = space == null ? 0 : (space.getUniform() != null ? 1 : 0) + (space.getLogUniform() != null ? 1 : 0)
        + (space.getCategorical() != null ? 1 : 0);
    if (kinds != 1) {
      throw new InvalidSearchSpaceException(spacePath
          + ": Invalid value: exactly one of the fields in [uniform logUniform categorical] must be set");
    }
    if (space.getCategorical() != null) {
      CategoricalSpace categorical = space.getCategorical();
      List<String> choices = categorical.getChoices() == null ? List.of()
          : new ArrayList<>(new LinkedHashSet<>(categorical.getChoices()));
      if (choices.isEmpty()) {
        throw new InvalidSearchSpaceException(spacePath + ".categorical.choices: Required value");
      }
      return new SearchDimension(parameter.getName(), Distribution.CATEGORICAL, false, null, null, choices);
    }
    boolean log = space.getLogUniform() != null;
    UniformSpace uniform = space.getUniform();
    LogUniformSpace logUniform = space.getLogUniform();
    String boundsPath = spacePath + (log ? ".logUniform" : ".uniform");
    BigDecimal min = decimal(log ? logUniform.getMin() : uniform.getMin(), boundsPath + ".min");
    BigDecimal max = decimal(log ? logUniform.getMax() : uniform.getMax(), boundsPath + ".max");
    boolean integer = OptimizationConstants.TYPE_INT.equals(log ? logUniform.getType() : uniform.getType());
    if (min.compareTo(max) >= 0) {
      throw new InvalidSearchSpaceException(boundsPath + ": Invalid value: min must be strictly less than max");
    }
    if (log && min.signum() <= 0) {
      throw new InvalidSearchSpaceException(boundsPath + ".min: Invalid value: min must be strictly greater than 0");
    }
    if (integer && min.setScale(0, RoundingMode.CEILING).compareTo(max.setScale(0, RoundingMode.FLOOR)) > 0) {
      throw new InvalidSearchSpaceException(boundsPath + ": Invalid value: no integer lies between min and max");
    }
    return new SearchDimension(parameter.getName(), log ? Distribution.LOG_UNIFORM : Distribution.UNIFORM, integer,
        min, max, List.of());
  }

  private static BigDecimal decimal(String text, String path) {
    if (text == null) {
      throw new InvalidSearchSpaceException(path + ": Required value");
    }
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new InvalidSearchSpaceException(path + ": Invalid value: \"" + text + "\": not a decimal number");
    }
  }

  /** The smallest integer of an {@code Int} space. */
  long lowest() {
    return min.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  /** The largest integer of an {@code Int} space. */
  long highest() {
    return max.setScale(0, RoundingMode.FLOOR).longValueExact();
  }

  /** How many values an {@code Int} space or a categorical one holds. */
  long cardinality() {
    if (distribution == Distribution.CATEGORICAL) {
      return choices.size();
    }
    return integer ? highest() - lowest() + 1 : Long.MAX_VALUE;
  }

  /** The value at {@code u}, a number in [0, 1): the inverse of the distribution's cumulative function. */
  public String valueAt(double u) {
    switch (distribution) {
      case CATEGORICAL:
        return choices.get(Math.min(choices.size() - 1, (int) Math.floor(u * choices.size())));
      case UNIFORM:
        if (integer) {
          long lo = lowest();
          long hi = highest();
          long k = lo + (long) Math.floor(u * ((double) hi - lo + 1));
          return ParameterValues.integer(Math.min(hi, k));
        }
        return ParameterValues.decimal(min.doubleValue() + u * (max.doubleValue() - min.doubleValue()), min, max);
      case LOG_UNIFORM:
      default:
        if (integer) {
          long lo = lowest();
          long hi = highest();
          double x = logInterpolate(lo - 0.5, hi + 0.5, u);
          return ParameterValues.integer(Math.max(lo, Math.min(hi, Math.round(x))));
        }
        return ParameterValues.decimal(logInterpolate(min.doubleValue(), max.doubleValue(), u), min, max);
    }
  }

  /** Every value of a categorical or {@code Int} space, in order: its choices, or its integers. */
  public List<String> allValues() {
    if (distribution == Distribution.CATEGORICAL) {
      return choices;
    }
    if (!integer) {
      throw new IllegalStateException(name + " is a float space: it has no list of values");
    }
    List<String> all = new ArrayList<>();
    for (long k = lowest(); k <= highest(); k++) {
      all.add(ParameterValues.integer(k));
    }
    return all;
  }

  /**
   * The {@code points} values a grid search tries of a uniform or log-uniform space, in order: min and max included,
   * evenly spaced (uniform) or evenly spaced in logarithm (log-uniform). An {@code Int} space rounds those points
   * and drops repeats, or gives all its integers when it holds no more than {@code points}.
   */
  public List<String> gridPoints(int points) {
    if (distribution == Distribution.CATEGORICAL || integer && cardinality() <= points) {
      return allValues();
    }
    List<Double> reals = new ArrayList<>();
    for (int j = 0; j < points; j++) {
      double t = points == 1 ? 0 : (double) j / (points - 1);
      reals.add(distribution == Distribution.LOG_UNIFORM ? logInterpolate(min.doubleValue(), max.doubleValue(), t)
          : min.doubleValue() + t * (max.doubleValue() - min.doubleValue()));
    }
    if (integer) {
      Set<String> values = new LinkedHashSet<>();
      reals.forEach(x -> values.add(ParameterValues.integer(Math.max(lowest(), Math.min(highest(), Math.round(x))))));
      return List.copyOf(values);
    }
    if (distribution == Distribution.UNIFORM) {
      return ParameterValues.evenlySpaced(min, max, points);
    }
    return ParameterValues.distinct(reals, min, max);
  }

  private static double logInterpolate(double from, double to, double t) {
    return Math.exp(Math.log(from) + t * (Math.log(to) - Math.log(from)));
  }
}
