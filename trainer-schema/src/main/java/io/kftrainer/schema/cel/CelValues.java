package io.kftrainer.schema.cel;

import com.google.common.primitives.UnsignedLong;

import java.math.BigDecimal;
import java.util.Objects;

/** Comparison and equality of CEL runtime values as cel-go's, numbers compared across int, uint and double. */
final class CelValues {

  private CelValues() {
  }

  static boolean equal(Object a, Object b) {
    if (isNumber(a) && isNumber(b)) {
      return compareNumbers(a, b) == 0;
    }
    return Objects.equals(a, b);
  }

  /** Orders two values of comparable CEL types (numbers, strings, bools, bytes, timestamps, durations...). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (isNumber(a) && isNumber(b)) {
      return compareNumbers(a, b);
    }
    if (a instanceof Comparable && a.getClass().isInstance(b)) {
      return ((Comparable) a).compareTo(b);
    }
    throw new IllegalArgumentException("no such overload");
  }

  static boolean isNumber(Object value) {
    return value instanceof Long || value instanceof Double || value instanceof UnsignedLong;
  }

  private static int compareNumbers(Object a, Object b) {
    if ((a instanceof Double x && !Double.isFinite(x)) || (b instanceof Double y && !Double.isFinite(y))) {
      return Double.compare(((Number) toNumber(a)).doubleValue(), ((Number) toNumber(b)).doubleValue());
    }
    return decimal(a).compareTo(decimal(b));
  }

  private static Object toNumber(Object number) {
    return number instanceof UnsignedLong u ? u.doubleValue() : number;
  }

  private static BigDecimal decimal(Object number) {
    if (number instanceof Double d) {
      return BigDecimal.valueOf(d);
    }
    if (number instanceof UnsignedLong u) {
      return new BigDecimal(u.bigIntegerValue());
    }
    return BigDecimal.valueOf((Long) number);
  }
}
