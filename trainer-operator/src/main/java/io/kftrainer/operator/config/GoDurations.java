package io.kftrainer.operator.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations written as Go writes them ({@code 15s}, {@code 1m30s}, {@code 1.5h}, {@code 300ms}): the text of a
 * {@code metav1.Duration} in upstream's Configuration file, which Go reads with {@code time.ParseDuration}.
 * {@code java.time.Duration} reads only ISO-8601 ({@code PT15S}) and no Java library on our class path reads Go's
 * syntax, hence this small parser: a sequence of decimal numbers, each with a unit ({@code ns}, {@code us},
 * {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}), optionally signed, or a lone {@code 0}.
 */
public final class GoDurations {

  private static final Pattern WHOLE = Pattern.compile("[-+]?((\\d+\\.?\\d*|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+");
  private static final Pattern PART = Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
  private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
      "ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L,
      "m", 60_000_000_000L, "h", 3_600_000_000_000L);

  private GoDurations() {
  }

  /**
   * The duration {@code text} denotes.
   *
   * @throws IllegalArgumentException naming the text if it is not a Go duration
   */
  public static Duration parse(String text) {
    if ("0".equals(text) || "+0".equals(text) || "-0".equals(text)) {
      return Duration.ZERO;
    }
    if (text == null || !WHOLE.matcher(text).matches()) {
      throw new IllegalArgumentException("invalid duration \"" + text + "\": expected a number with a unit "
          + "(ns, us, ms, s, m, h), e.g. 15s or 1m30s");
    }
    BigDecimal nanos = BigDecimal.ZERO;
    Matcher part = PART.matcher(text);
    while (part.find()) {
      nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(part.group(2)))));
    }
    Duration duration = Duration.ofNanos(nanos.longValue());
    return text.startsWith("-") ? duration.negated() : duration;
  }
}
