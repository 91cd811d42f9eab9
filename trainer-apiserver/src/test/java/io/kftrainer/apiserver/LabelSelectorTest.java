package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LabelSelectorTest {

  private static final JsonNode POD = Json.MAPPER.valueToTree(Map.of("metadata", Map.of("labels", Map.of(
      "jobset.sigs.k8s.io/jobset-name", "mnist", "jobset.sigs.k8s.io/replicatedjob-name", "node", "app", "x"))));

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("", true),
        Arguments.of("app=x", true),
        Arguments.of("app==x", true),
        Arguments.of("app=y", false),
        Arguments.of("app!=y", true),
        Arguments.of("missing!=y", true),
        Arguments.of("app in (x, y)", true),
        Arguments.of("app in (y,z)", false),
        Arguments.of("app notin (y, z)", true),
        Arguments.of("app notin (x)", false),
        Arguments.of("missing notin (x)", true),
        Arguments.of("missing in (x)", false),
        Arguments.of("app", true),
        Arguments.of("missing", false),
        Arguments.of("!missing", true),
        Arguments.of("!app", false),
        Arguments.of("! app", false),
        Arguments.of("jobset.sigs.k8s.io/jobset-name=mnist,jobset.sigs.k8s.io/replicatedjob-name in "
            + "(dataset-initializer, model-initializer, launcher, node)", true),
        Arguments.of("jobset.sigs.k8s.io/jobset-name=mnist,jobset.sigs.k8s.io/replicatedjob-name in "
            + "(dataset-initializer,model-initializer,launcher)", false),
        Arguments.of("jobset.sigs.k8s.io/jobset-name = mnist , app in(x)", true),
        Arguments.of("app=x,!missing,app notin (a),jobset.sigs.k8s.io/jobset-name", true),
        Arguments.of("app=x,missing", false),
        Arguments.of("app=", false));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("cases")
  void matches(String selector, boolean expected) {
    assertThat(LabelSelector.parse(selector).matches(POD)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"app in x", "app in (x", "app ~ x", "a b", "app=x,", "Bad Key=1", "app=x y", "app=-x"})
  void invalidSelectorsAreRejectedWithTheReason(String selector) {
    assertThatThrownBy(() -> LabelSelector.parse(selector)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unable to parse requirement: ");
  }
}
