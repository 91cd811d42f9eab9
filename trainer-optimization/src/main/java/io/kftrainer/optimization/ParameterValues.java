package io.kftrainer.optimization;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * How a parameter value is written for the trial: the string of its environment variable, annotation and history
 * record (at most 64 characters, the API's limit). Integers in decimal; floats with {@value #SIGNIFICANT_DIGITS}
 * significant digits ({@code 0.00123457}), never outside the space's bounds (a value rounded past a bound is that
 * bound), in plain notation unless that is longer than {@value #PLAIN_MAX} characters ({@code 1.5E-30}),
 * which Python's {@code float()} reads too. Grid points get as many more digits as keep them distinct.
 */
public final class ParameterValues {

  public static final int SIGNIFICANT_DIGITS = 6;
  private static final int PLAIN_MAX = 24;
  private static final int MAX_DIGITS = 34;

  private ParameterValues() {
  }

  public static String integer(long value) {
    return Long.toString(value);
  }

  /** A float value drawn from [min, max], rounded to {@value #SIGNIFICANT_DIGITS} significant digits. */
  public static String decimal(double value, BigDecimal min, BigDecimal max) {
    BigDecimal rounded = new BigDecimal(value).round(new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN));
    if (rounded.compareTo(min) <= 0) {
      return format(min);
    }
    if (rounded.compareTo(max) >= 0) {
      return format(max);
    }
    return format(rounded);
  }

  /** {@code points} values evenly spaced from min to max, both included, computed in decimal. */
  static List<String> evenlySpaced(BigDecimal min, BigDecimal max, int points) {
    List<BigDecimal> values = new ArrayList<>();
    BigDecimal span = max.subtract(min);
    for (int j = 0; j < points; j++) {
      values.add(j == 0 ? min : j == points - 1 ? max
          : min.add(span.multiply(BigDecimal.valueOf(j)).divide(BigDecimal.valueOf(points - 1L), MathContext.DECIMAL128)));
    }
    return distinct(values);
  }

  /** The float grid points {@code reals}, the first and last written as the bounds min and max. */
  static List<String> distinct(List<Double> reals, BigDecimal min, BigDecimal max) {
    List<BigDecimal> values = new ArrayList<>();
    for (int j = 0; j < reals.size(); j++) {
      values.add(j == 0 ? min : j == reals.size() - 1 ? max : new BigDecimal(reals.get(j)));
    }
    return distinct(values);
  }

  /**
   * The values with the fewest significant digits, at least {@value #SIGNIFICANT_DIGITS}, that keep them distinct.
   * The bounds (first and last) keep all their digits.
   */
  private static List<String> distinct(List<BigDecimal> values) {
    for (int digits = SIGNIFICANT_DIGITS; ; digits++) {
      List<String> written = new ArrayList<>();
      for (int j = 0; j < values.size(); j++) {
        boolean bound = j == 0 || j == values.size() - 1;
        written.add(format(bound ? values.get(j) : values.get(j).round(new MathContext(digits, RoundingMode.HALF_EVEN))));
      }
      if (new HashSet<>(written).size() == written.size() || digits >= MAX_DIGITS) {
        return written;
      }
    }
  }

  private static String format(BigDecimal value) {
    BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    String plain = stripped.toPlainString();
    return plain.length() <= PLAIN_MAX ? plain : stripped.toString();
  }
}
