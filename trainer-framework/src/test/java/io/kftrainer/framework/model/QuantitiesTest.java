package io.kftrainer.framework.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantitiesTest {

  @ParameterizedTest(name = "{0} is written {1}")
  @CsvSource({
      "1.25, 1250m",
      "0.7, 700m",
      "2, 2",
      "0, 0",
      "1000, 1000",
      "2684354560, 2560Mi",
      "1073741824, 1Gi",
      "1500000000, 1500000000"})
  void amountsAreWrittenInCanonicalForm(String amount, String expected) {
    assertThat(Quantities.of(new BigDecimal(amount)).toString()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} rounds up to {1}")
  @CsvSource({"2.5, 3", "700m, 1", "4, 4", "3.7, 4"})
  void roundedUpIsKubernetesValue(String quantity, long expected) {
    assertThat(Quantities.roundedUp(new Quantity(quantity))).isEqualTo(expected);
  }
}
