package io.kftrainer.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles and evaluates {@code x-kubernetes-validations} rules with Google's CEL for Java. {@code self} and
 * {@code oldSelf} are dynamically typed and bound to the JSON value converted to CEL's values (maps, lists, int,
 * double, string, bool), so field selection, {@code has()}, the macros and {@code matches()} behave as in Kubernetes
 * for the standard CEL our CRDs use. Kubernetes' CEL libraries (quantity, URL, IP, format...) are not declared: a rule
 * that uses them fails to compile and is reported as an error of the rule. Programs are compiled once per rule text.
 */
final class CelRules {

  /** The outcome of one rule: passed, failed, or could not be evaluated (with the reason). */
  record Outcome(boolean passed, String error) {
  }

  private static final Cel CEL = CelFactory.standardCelBuilder()
      .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
      .addVar("self", SimpleType.DYN)
      .addVar("oldSelf", SimpleType.DYN)
      .build();

  private final Map<String, Object> programs = new ConcurrentHashMap<>();

  Outcome evaluate(String rule, JsonNode self, JsonNode oldSelf) {
    Object compiled = programs.computeIfAbsent(rule, CelRules::compile);
    if (compiled instanceof String) {
      return new Outcome(false, (String) compiled);
    }
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("self", toCel(self));
    if (oldSelf != null) {
      variables.put("oldSelf", toCel(oldSelf));
    }
    try {
      Object result = ((CelRuntime.Program) compiled).eval(variables);
      if (result instanceof Boolean) {
        return new Outcome((Boolean) result, null);
      }
      return new Outcome(false, "rule did not evaluate to a bool: " + result);
    } catch (CelEvaluationException e) {
      return new Outcome(false, e.getMessage());
    }
  }

  private static Object compile(String rule) {
    try {
      return CEL.createProgram(CEL.compile(rule).getAst());
    } catch (CelValidationException | CelEvaluationException e) {
      return "compilation failed: " + e.getMessage();
    }
  }

  static boolean referencesOldSelf(String rule) {
    return rule.matches("(?s).*\\boldSelf\\b.*");
  }

  /** JSON to CEL values; JSON nulls are left out of maps, as absent fields. */
  static Object toCel(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return com.google.protobuf.NullValue.NULL_VALUE;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> {
        if (!e.getValue().isNull()) {
          map.put(e.getKey(), toCel(e.getValue()));
        }
      });
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(toCel(item)));
      return list;
    }
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.asText();
  }
}
