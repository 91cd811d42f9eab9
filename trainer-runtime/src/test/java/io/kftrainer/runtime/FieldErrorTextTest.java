package io.kftrainer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FieldErrorTextTest {

  static Stream<Arguments> errors() {
    FieldPath numNodes = FieldPath.of("spec", "trainer", "numNodes");
    return Stream.of(
        Arguments.of("a number is written as is", FieldError.invalid(numNodes, 0, "must be >= 1"),
            "spec.trainer.numNodes: Invalid value: 0: must be >= 1"),
        Arguments.of("a string is quoted", FieldError.notSupported(FieldPath.of("spec", "managedBy"), "me",
            "supported values: x"), "spec.managedBy: Unsupported value: \"me\": supported values: x"),
        Arguments.of("an object is compact JSON", FieldError.invalid(FieldPath.of("spec", "trainer", "env"),
            List.of(new EnvVar("PET_NNODES", "3", null)), "reserved"),
            "spec.trainer.env: Invalid value: [{\"name\":\"PET_NNODES\",\"value\":\"3\"}]: reserved"),
        Arguments.of("no value is left out", FieldError.required(FieldPath.of("spec", "runtimeRef"), "required"),
            "spec.runtimeRef: Required value: required"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void describe(String name, FieldError error, String text) {
    assertThat(FieldErrorText.describe(error)).isEqualTo(text);
  }
}
