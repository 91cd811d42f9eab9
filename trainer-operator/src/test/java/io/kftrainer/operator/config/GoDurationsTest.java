package io.kftrainer.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Go's {@code time.ParseDuration} syntax, as {@code metav1.Duration} values are written. */
class GoDurationsTest {

  @ParameterizedTest(name = "{0} is {1} ms")
  @CsvSource({"15s, 15000", "1m30s, 90000", "1.5h, 5400000", "300ms, 300", "2h45m, 9900000", "0, 0", "-2s, -2000",
      "1h0m0s, 3600000", ".5s, 500", "1000us, 1", "1000µs, 1", "1000000ns, 1"})
  void parses(String text, long millis) {
    assertThat(GoDurations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest(name = "{0} is refused")
  @ValueSource(strings = {"15", "", "s", "1d", "15 s", "PT15S", "1.2.3s"})
  void refuses(String text) {
    assertThatThrownBy(() -> GoDurations.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid duration \"" + text + "\"");
  }
}
