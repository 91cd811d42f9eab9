package io.kftrainer.optimization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.api.v1alpha1.Parameter;
import io.kftrainer.api.v1alpha1.SearchSpace;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The documented mapping of a uniform number u in [0, 1) to a value, integers and rounding included. */
class SearchDimensionTest {

  private static SearchDimension dimension(Parameter parameter) {
    return SearchDimension.of(parameter, 0);
  }

  @Test
  void uniformIntegersSplitTheUnitIntervalEvenly() {
    SearchDimension layers = dimension(Specs.uniformInt("layers", "1", "3"));

    assertThat(layers.valueAt(0.0)).isEqualTo("1");
    assertThat(layers.valueAt(0.3333)).isEqualTo("1");
    assertThat(layers.valueAt(0.3334)).isEqualTo("2");
    assertThat(layers.valueAt(0.9999)).isEqualTo("3");
  }

  @Test
  void logUniformIntegersAreRoundedLogUniformDrawsOverHalfAUnitBeyondTheBounds() {
    SearchDimension batch = dimension(Specs.logUniformInt("batch", "1", "4"));
    Map<String, Integer> counts = new HashMap<>();
    int draws = 100_000;
    for (int i = 0; i < draws; i++) {
      counts.merge(batch.valueAt((i + 0.5) / draws), 1, Integer::sum);
    }
    // P(k) = log((k + 0.5) / (k - 0.5)) / log(4.5 / 0.5)
    double total = Math.log(4.5 / 0.5);
    for (int k = 1; k <= 4; k++) {
      double expected = Math.log((k + 0.5) / (k - 0.5)) / total;
      assertThat(counts.get(Integer.toString(k)) / (double) draws).as("P(%d)", k).isCloseTo(expected,
          org.assertj.core.data.Offset.offset(0.001));
    }
  }

  @Test
  void floatValuesHaveSixSignificantDigitsAndNeverLeaveTheBounds() {
    SearchDimension lr = dimension(Specs.logUniform("lr", "0.0001", "0.1"));
    SearchDimension momentum = dimension(Specs.uniform("momentum", "0.1234564", "0.99"));

    assertThat(lr.valueAt(0.5)).isEqualTo("0.00316228");
    assertThat(momentum.valueAt(0.0)).as("0.123456 is below min").isEqualTo("0.1234564");
    assertThat(momentum.valueAt(0.5)).isEqualTo("0.556728");
    assertThat(momentum.valueAt(0.9999999999)).isEqualTo("0.99");
  }

  @Test
  void aCategoricalSpaceMapsEqualSharesToItsChoices() {
    SearchDimension optimizer = dimension(Specs.categorical("optimizer", "sgd", "adam"));

    assertThat(optimizer.valueAt(0.49)).isEqualTo("sgd");
    assertThat(optimizer.valueAt(0.5)).isEqualTo("adam");
  }

  @Test
  void aSpaceTheApiServerWouldRefuseIsReportedWithItsFieldPath() {
    assertThatThrownBy(() -> dimension(new Parameter().withName("x").withSearchSpace(new SearchSpace())))
        .hasMessage("spec.parameters[0].searchSpace: Invalid value: exactly one of the fields in "
            + "[uniform logUniform categorical] must be set");
    assertThatThrownBy(() -> dimension(Specs.uniformInt("k", "0.2", "0.8")))
        .hasMessage("spec.parameters[0].searchSpace.uniform: Invalid value: no integer lies between min and max");
    assertThatThrownBy(() -> dimension(Specs.logUniform("lr", "0", "1")))
        .hasMessage("spec.parameters[0].searchSpace.logUniform.min: Invalid value: min must be strictly greater than 0");
  }
}
