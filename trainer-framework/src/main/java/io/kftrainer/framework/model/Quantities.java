package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Resource quantities as numbers and back, in Kubernetes' canonical form: whole numbers plainly or with the
 * largest binary suffix that keeps them whole ({@code 2560Mi}), fractions in milli-units ({@code 1250m}).
 */
public final class Quantities {

  private static final BigInteger KI = BigInteger.valueOf(1024);
  private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  private Quantities() {
  }

  public static BigDecimal amount(Quantity quantity) {
    return quantity == null ? BigDecimal.ZERO : quantity.getNumericalAmount();
  }

  public static Quantity of(BigDecimal amount) {
    BigDecimal stripped = amount.stripTrailingZeros();
    if (stripped.scale() > 0) {
      BigDecimal milli = stripped.movePointRight(3).setScale(0, RoundingMode.CEILING);
      return new Quantity(milli.toPlainString(), "m");
    }
    BigInteger whole = stripped.toBigIntegerExact();
    if (whole.signum() == 0 || whole.compareTo(KI) < 0) {
      return new Quantity(whole.toString());
    }
    String suffix = "";
    for (String next : BINARY_SUFFIXES) {
      if (!whole.mod(KI).equals(BigInteger.ZERO)) {
        break;
      }
      whole = whole.divide(KI);
      suffix = next;
    }
    return new Quantity(whole.toString(), suffix.isEmpty() ? null : suffix);
  }

  /** {@code Quantity.Value()} of Kubernetes: the amount rounded up to a whole number. */
  public static long roundedUp(Quantity quantity) {
    return amount(quantity).setScale(0, RoundingMode.CEILING).longValueExact();
  }
}
