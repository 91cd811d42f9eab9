package io.kftrainer.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a failed {@code x-kubernetes-validations} rule is reported, as kube-apiserver reports it: {@code message},
 * {@code messageExpression} (with kube's fallbacks to the message), {@code reason}, {@code fieldPath}, and the cost
 * limits that stop evaluation.
 */
class CelRuleErrorsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String SCHEMA = """
      {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "limits": {"type": "object",
          "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}},
          "x-kubernetes-validations": [{"rule": "self.min <= self.max",
            "messageExpression": "'min ' + string(self.min) + ' exceeds max ' + string(self.max)",
            "fieldPath": ".min", "reason": "FieldValueForbidden"}]},
        "memory": {"type": "string", "x-kubernetes-validations": [
          {"rule": "quantity(self).isLessThan(quantity('1Gi'))", "message": "memory must be below 1Gi",
           "messageExpression": "'  '"},
          {"rule": "!self.endsWith('m')", "message": "no millibytes", "messageExpression": "self.noSuchField"},
          {"rule": "!self.startsWith('0')", "message": "no leading zero", "messageExpression": "42"}]},
        "endpoint": {"type": "string", "x-kubernetes-validations": [{"rule": "isURL(self)"}]},
        "owner": {"type": "object", "properties": {"name": {"type": "string"}},
          "x-kubernetes-validations": [{"rule": "has(self.name)", "message": "an owner needs a name",
            "reason": "FieldValueRequired", "fieldPath": "['name']"}]},
        "pair": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
          "x-kubernetes-validations": [{"rule": "self.a != self.b", "reason": "FieldValueDuplicate",
            "fieldPath": ".b"}]},
        "items": {"type": "array", "items": {"type": "integer"}, "x-kubernetes-validations": [
          {"rule": "self.all(a, self.all(b, self.all(c, a + b + c >= 0)))", "message": "sums are not negative"}]},
        "tag": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'bad'", "message": "bad tag"}]}
      }}}}""";

  private static List<String> errors(StructuralSchema schema, String spec) throws Exception {
    return schema.validate(JSON.readTree("{\"spec\": " + spec + "}"), null).stream().map(SchemaFieldError::toString)
        .toList();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("messageExpression is the message, at fieldPath, with the reason's type",
            "{\"limits\": {\"min\": 5, \"max\": 1}}", List.of("spec.limits.min: Forbidden: min 5 exceeds max 1")),
        Arguments.of("a blank messageExpression falls back to the message", "{\"memory\": \"2Gi\"}",
            List.of("spec.memory: Invalid value: \"string\": memory must be below 1Gi")),
        Arguments.of("a messageExpression that fails falls back to the message", "{\"memory\": \"500m\"}",
            List.of("spec.memory: Invalid value: \"string\": no millibytes")),
        Arguments.of("a messageExpression that is not a string falls back to the message", "{\"memory\": \"0\"}",
            List.of("spec.memory: Invalid value: \"string\": no leading zero")),
        Arguments.of("a rule without message reads 'failed rule'", "{\"endpoint\": \"relative/path\"}",
            List.of("spec.endpoint: Invalid value: \"string\": failed rule: isURL(self)")),
        Arguments.of("reason FieldValueRequired, fieldPath in brackets", "{\"owner\": {}}",
            List.of("spec.owner.name: Required value: an owner needs a name")),
        Arguments.of("reason FieldValueDuplicate prints the type, no message", "{\"pair\": {\"a\": \"x\", \"b\": \"x\"}}",
            List.of("spec.pair.b: Duplicate value: \"object\"")),
        Arguments.of("an evaluation error names the rule", "{\"memory\": \"lots\"}",
            List.of("spec.memory: Invalid value: \"string\": quantities must match the regular expression "
                + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' evaluating rule: memory must be below 1Gi")),
        Arguments.of("rules that hold report nothing", "{\"limits\": {\"min\": 1, \"max\": 5}, \"memory\": \"1Mi\", "
            + "\"endpoint\": \"https://example.com/\", \"owner\": {\"name\": \"o\"}, \"items\": [1, 2]}", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsAsKubeApiserver(String name, String spec, List<String> expected) throws Exception {
    assertThat(errors(StructuralSchema.of(JSON.readTree(SCHEMA)), spec)).containsExactlyElementsOf(expected);
  }

  @Test
  void aRuleBeyondThePerCallCostLimitIsCancelledAndNoFurtherRuleRuns() throws Exception {
    // 100^3 iterations: about 5 million of cel-go's cost units, five times kube's per-call limit
    StringBuilder items = new StringBuilder("[0");
    for (int i = 1; i < 100; i++) {
      items.append(", ").append(i);
    }
    items.append("]");
    List<String> errors = errors(StructuralSchema.of(JSON.readTree(SCHEMA)),
        "{\"items\": " + items + ", \"tag\": \"bad\"}");
    assertThat(errors).containsExactly("spec.items: Invalid value: \"array\": 'operation cancelled: actual cost limit "
        + "exceeded': no further validation rules will be run due to call cost exceeds limit for rule: sums are not "
        + "negative");
  }

  @Test
  void rulesBeyondTheObjectsCostBudgetAreNotRun() throws Exception {
    StructuralSchema schema = StructuralSchema.withCostLimits(JSON.readTree(SCHEMA), 1_000, 30);
    List<String> errors = errors(schema, "{\"items\": [1, 2, 3, 4], \"tag\": \"bad\"}");
    assertThat(errors).containsExactly("spec.items: Invalid value: \"array\": validation failed due to running out of "
        + "cost budget, no further validation rules will be run");
  }

  @Test
  void theFieldPathOfARuleIsRelativeToItsNode() {
    assertThat(StructuralSchema.normalizedFieldPath(".spec.replicas")).isEqualTo("spec.replicas");
    assertThat(StructuralSchema.normalizedFieldPath(".labels['app.kubernetes.io/name']"))
        .isEqualTo("labels.app.kubernetes.io/name");
  }
}
