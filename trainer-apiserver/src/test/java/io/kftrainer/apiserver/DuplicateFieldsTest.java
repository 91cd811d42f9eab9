package io.kftrainer.apiserver;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Repeated keys, worded as sigs.k8s.io/json (JSON bodies) and go-yaml (YAML bodies, apply) word them. */
class DuplicateFieldsTest {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aJsonBodysRepeatedKeysAreNamedByTheirPathWhereTheyAreRead() {
    assertThat(DuplicateFields.jsonProblems(bytes("{\"data\":{\"a\":\"1\",\"a\":\"2\"},"
        + "\"spec\":{\"list\":[{\"x\":1},{\"x\":1,\"x\":2}]},\"data\":{}}")))
        .containsExactly("duplicate field \"data.a\"", "duplicate field \"spec.list[1].x\"",
            "duplicate field \"data\"");
    assertThat(DuplicateFields.jsonProblems(bytes("{\"a\":1,\"b\":{\"a\":1}}"))).isEmpty();
  }

  @Test
  void aYamlBodysRepeatedKeysAreGoYamlsLinesOfTheirValuesAfterTheValues() {
    String yaml = "a: 1\n"
        + "a:\n"
        + "  x: 1\n"
        + "  x: 2\n"
        + "b: [1, 2]\n";
    assertThat(DuplicateFields.yamlError(bytes(yaml))).isEqualTo("yaml: unmarshal errors:\n"
        + "  line 4: key \"x\" already set in map\n"
        + "  line 3: key \"a\" already set in map");
  }

  @Test
  void jsonTextReadAsYamlIsOneLine() {
    assertThat(DuplicateFields.yamlError(bytes("{\"data\": {\"a\": \"1\", \"a\": \"2\"}}")))
        .isEqualTo("yaml: unmarshal errors:\n  line 1: key \"a\" already set in map");
  }

  @Test
  void nothingIsReportedWithoutRepeatedKeysOrForABodyThatDoesNotParse() {
    assertThat(DuplicateFields.yamlError(bytes("a: 1\nb: {a: 1}\n"))).isNull();
    assertThat(DuplicateFields.jsonProblems(bytes("{\"a\":"))).isEmpty();
  }

  @Test
  void warningsSplitGoYamlsErrorIntoItsLines() {
    String error = DuplicateFields.yamlError(bytes("a: 1\na: 2\nb: 1\nb: 2\n"));
    assertThat(FieldValidation.warnings(java.util.List.of(error))).containsExactly(
        "line 2: key \"a\" already set in map", "line 4: key \"b\" already set in map");
    assertThat(FieldValidation.warnings(java.util.List.of("error converting YAML to JSON: " + error))).hasSize(2);
    assertThat(FieldValidation.warnings(java.util.List.of("unknown field \"spec\""))).containsExactly(
        "unknown field \"spec\"");
  }
}
