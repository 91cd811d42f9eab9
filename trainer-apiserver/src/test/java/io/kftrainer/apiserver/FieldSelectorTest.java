package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldSelectorTest {

  private static final JsonNode EVENT = Json.MAPPER.valueToTree(Json.KUBERNETES.unmarshal("{\"metadata\":{\"name\":\"e\","
      + "\"namespace\":\"ns\"},\"involvedObject\":{\"kind\":\"TrainJob\",\"name\":\"a,b=c\",\"uid\":\"u1\"},"
      + "\"count\":3,\"series\":{\"lastObservedTime\":null}}", java.util.Map.class));

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("an empty selector matches", "", true),
        Arguments.of("equality on a nested field", "involvedObject.kind=TrainJob", true),
        Arguments.of("double equals is equality", "involvedObject.kind==TrainJob", true),
        Arguments.of("a different value does not match", "involvedObject.kind=Pod", false),
        Arguments.of("not-equals on a different value matches", "involvedObject.kind!=Pod", true),
        Arguments.of("not-equals on the same value does not match", "involvedObject.kind!=TrainJob", false),
        Arguments.of("all terms must hold", "metadata.namespace=ns,involvedObject.uid=u2", false),
        Arguments.of("several terms that hold match", "metadata.name=e,metadata.namespace=ns,involvedObject.uid=u1",
            true),
        Arguments.of("escaped commas and equals signs are part of the value", "involvedObject.name=a\\,b\\=c", true),
        Arguments.of("a number compares as text", "count=3", true),
        Arguments.of("an absent field reads as empty", "involvedObject.fieldPath=", true),
        Arguments.of("an absent field differs from a value", "involvedObject.fieldPath!=spec", true),
        Arguments.of("a null field reads as empty", "series.lastObservedTime=", true),
        Arguments.of("an object reads as empty", "involvedObject=", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(String description, String selector, boolean expected) {
    assertThat(FieldSelector.parse(selector).matches(EVENT)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"involvedObject.name", "=x", "a=b,c"})
  void aTermWithoutOperatorOrFieldIsRejected(String selector) {
    assertThatThrownBy(() -> FieldSelector.parse(selector)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid selector: '");
  }
}
