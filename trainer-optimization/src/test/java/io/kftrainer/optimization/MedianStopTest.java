package io.kftrainer.optimization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MedianStopTest {

  private static final String KEY = "kftrainer.io/early-stopping";
  private static final ObjectiveMetric MINIMIZE = new ObjectiveMetric("loss", false);
  private static final ObjectiveMetric MAXIMIZE = new ObjectiveMetric("accuracy", true);

  @Test
  void theAnnotationTurnsItOnWithKatibsDefaults() {
    assertThat(MedianStop.fromAnnotations(Map.of())).isEmpty();
    assertThat(MedianStop.fromAnnotations(Map.of(KEY, "{\"medianStop\": {}}")))
        .contains(new MedianStop(3, 50));
    assertThat(MedianStop.fromAnnotations(Map.of(KEY, "{\"medianStop\": {\"minTrialsRequired\": 2, "
        + "\"startProgress\": 40}}"))).contains(new MedianStop(2, 40));
  }

  @Test
  void aBadAnnotationIsReportedWithItsFieldAndSetting() {
    assertThatThrownBy(() -> MedianStop.fromAnnotations(Map.of(KEY, "{\"medianStop\": {\"minTrialsRequired\": 0}}")))
        .hasMessage("metadata.annotations[kftrainer.io/early-stopping]: Invalid value: "
            + "\"{\\\"medianStop\\\": {\\\"minTrialsRequired\\\": 0}}\": medianStop.minTrialsRequired must be an "
            + "integer from 1 to 1000, not 0");
    assertThatThrownBy(() -> MedianStop.fromAnnotations(Map.of(KEY, "{\"hyperband\": {}}")))
        .hasMessageEndingWith(": hyperband: unknown field, expected one of [medianStop]");
    assertThatThrownBy(() -> MedianStop.fromAnnotations(Map.of(KEY, "{\"medianStop\": {\"startStep\": 4}}")))
        .hasMessageEndingWith(": medianStop.startStep: unknown field, expected one of "
            + "[minTrialsRequired, startProgress]");
    assertThatThrownBy(() -> MedianStop.fromAnnotations(Map.of(KEY, "medianstop")))
        .hasMessageStartingWith("metadata.annotations[kftrainer.io/early-stopping]: Invalid value: \"medianstop\": "
            + "not JSON");
    assertThatThrownBy(() -> MedianStop.fromAnnotations(Map.of(KEY, "{\"medianStop\": {\"startProgress\": 101}}")))
        .hasMessageEndingWith("medianStop.startProgress must be an integer from 1 to 100, not 101");
  }

  @Test
  void theMedianNeedsMinTrialsRequiredValues() {
    MedianStop rule = new MedianStop(3, 50);

    assertThat(rule.median(List.of(1.0, 2.0))).isEmpty();
    assertThat(rule.median(List.of(3.0, 1.0, 2.0))).hasValue(2.0);
    assertThat(rule.median(List.of(4.0, 1.0, 3.0, 2.0))).hasValue(2.5);
  }

  @Test
  void aTrialStrictlyWorseThanTheMedianStopsInTheObjectivesDirection() {
    MedianStop rule = new MedianStop(3, 50);
    List<Double> losses = List.of(0.2, 0.3, 0.4);

    assertThat(rule.shouldStop(0.31, losses, MINIMIZE)).isTrue();
    assertThat(rule.shouldStop(0.3, losses, MINIMIZE)).as("equal to the median").isFalse();
    assertThat(rule.shouldStop(0.1, losses, MINIMIZE)).isFalse();
    assertThat(rule.shouldStop(Double.NaN, losses, MINIMIZE)).as("a diverged trial").isTrue();
    assertThat(rule.shouldStop(0.29, List.of(0.2, 0.3, 0.4), MAXIMIZE)).isTrue();
    assertThat(rule.shouldStop(0.9, List.of(0.2, 0.3), MINIMIZE)).as("too few succeeded trials").isFalse();
  }
}
