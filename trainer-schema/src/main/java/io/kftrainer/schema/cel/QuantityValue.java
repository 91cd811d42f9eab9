package io.kftrainer.schema.cel;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * A {@code resource.Quantity} as a CEL value: its exact amount, compared and added numerically, so that
 * {@code quantity('1') == quantity('1000m')} as in kube. The grammar is kube's ({@code 1.5Gi}, {@code 500m},
 * {@code 1e3}, {@code +2}); fabric8's {@link Quantity} computes the amount.
 */
final class QuantityValue implements Comparable<QuantityValue> {

  /** kube's serialization format: a signed decimal number, then a binary or decimal SI suffix or an exponent. */
  private static final Pattern FORMAT = Pattern.compile(
      "[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?");
  static final String FORMAT_ERROR =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

  private final BigDecimal amount;

  private QuantityValue(BigDecimal amount) {
    this.amount = amount;
  }

  /** The quantity {@code text} denotes; {@link IllegalArgumentException} with kube's message when it is not one. */
  static QuantityValue parse(String text) {
    if (!FORMAT.matcher(text).matches()) {
      throw new IllegalArgumentException(FORMAT_ERROR);
    }
    return new QuantityValue(Quantity.getAmountInBytes(new Quantity(text)));
  }

  static QuantityValue of(long value) {
    return new QuantityValue(BigDecimal.valueOf(value));
  }

  BigDecimal amount() {
    return amount;
  }

  QuantityValue add(QuantityValue other) {
    return new QuantityValue(amount.add(other.amount));
  }

  QuantityValue subtract(QuantityValue other) {
    return new QuantityValue(amount.subtract(other.amount));
  }

  /** Whether the amount is a whole number that fits an int64 (kube's {@code AsInt64} succeeds). */
  boolean isInteger() {
    try {
      amount.longValueExact();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  @Override
  public int compareTo(QuantityValue other) {
    return amount.compareTo(other.amount);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof QuantityValue q && compareTo(q) == 0;
  }

  @Override
  public int hashCode() {
    return amount.stripTrailingZeros().hashCode();
  }

  @Override
  public String toString() {
    return amount.toPlainString();
  }
}
