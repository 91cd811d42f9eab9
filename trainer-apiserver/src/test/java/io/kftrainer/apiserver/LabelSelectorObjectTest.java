package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Selector objects (matchLabels, matchExpressions) as the API server evaluates them for webhooks. */
class LabelSelectorObjectTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no selector selects everything", null, Map.of(), true),
        Arguments.of("an empty selector selects everything", new LabelSelector(), Map.of("a", "1"), true),
        Arguments.of("matchLabels needs every label with its value",
            new LabelSelectorBuilder().withMatchLabels(Map.of("a", "1", "b", "2")).build(), Map.of("a", "1"), false),
        Arguments.of("matchLabels is satisfied by a superset",
            new LabelSelectorBuilder().withMatchLabels(Map.of("a", "1")).build(), Map.of("a", "1", "c", "3"), true),
        Arguments.of("In needs the label with one of the values", expression("a", "In", "1", "2"), Map.of("a", "2"),
            true),
        Arguments.of("In is not satisfied without the label", expression("a", "In", "1"), Map.of(), false),
        Arguments.of("NotIn is satisfied without the label", expression("a", "NotIn", "1"), Map.of(), true),
        Arguments.of("NotIn excludes the listed values", expression("a", "NotIn", "1"), Map.of("a", "1"), false),
        Arguments.of("Exists needs the label", expression("a", "Exists"), Map.of("b", "1"), false),
        Arguments.of("DoesNotExist needs its absence", expression("a", "DoesNotExist"), Map.of("b", "1"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(String name, LabelSelector selector, Map<String, String> labels, boolean expected) {
    assertThat(io.kftrainer.apiserver.LabelSelector.of(selector).matches(labels)).isEqualTo(expected);
  }

  private static LabelSelector expression(String key, String operator, String... values) {
    return new LabelSelectorBuilder().addNewMatchExpression().withKey(key).withOperator(operator).withValues(values)
        .endMatchExpression().build();
  }
}
