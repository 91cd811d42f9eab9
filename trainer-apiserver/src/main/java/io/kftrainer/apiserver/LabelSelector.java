package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A parsed {@code labelSelector} with the grammar of Kubernetes' {@code labels.Parse}: comma-separated requirements
 * {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)}, {@code k} (exists) and
 * {@code !k} (does not exist), with or without spaces around operators, commas and parentheses. All requirements
 * must hold. {@code k!=v} and {@code notin} also match objects without the label, as in Kubernetes.
 */
final class LabelSelector {

  private static final Pattern KEY = Pattern.compile(
      "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  private static final Pattern VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

  private enum Operator {
    IN, NOT_IN, EXISTS, DOES_NOT_EXIST
  }

  private record Requirement(String key, Operator operator, Set<String> values) {
    /** Whether the label's value ({@code null} when the object has no such label) satisfies this requirement. */
    boolean matches(String value) {
      boolean present = value != null;
      switch (operator) {
        case EXISTS:
          return present;
        case DOES_NOT_EXIST:
          return !present;
        case IN:
          return present && values.contains(value);
        default:
          return !present || !values.contains(value);
      }
    }
  }

  static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  /**
   * Parses {@code selector}; null or blank matches everything.
   *
   * @throws IllegalArgumentException with a message in the style of kube-apiserver's when the selector is invalid
   */
  static LabelSelector parse(String selector) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    return new LabelSelector(new Parser(selector).requirements());
  }

  /**
   * A selector object, as webhooks' {@code objectSelector} and {@code namespaceSelector}: every {@code matchLabels}
   * entry is an equality requirement, every {@code matchExpressions} entry one of In, NotIn, Exists, DoesNotExist;
   * null or empty matches everything.
   *
   * @throws IllegalArgumentException for an unknown operator, which the API server would have refused
   */
  static LabelSelector of(io.fabric8.kubernetes.api.model.LabelSelector selector) {
    if (selector == null) {
      return EVERYTHING;
    }
    List<Requirement> requirements = new ArrayList<>();
    if (selector.getMatchLabels() != null) {
      selector.getMatchLabels().forEach((key, value) -> requirements.add(new Requirement(key, Operator.IN, Set.of(value))));
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement expression : selector.getMatchExpressions()) {
        Set<String> values = expression.getValues() == null ? Set.of() : Set.copyOf(expression.getValues());
        requirements.add(new Requirement(expression.getKey(), operator(expression.getOperator()), values));
      }
    }
    return new LabelSelector(requirements);
  }

  private static Operator operator(String name) {
    switch (name == null ? "" : name) {
      case "In":
        return Operator.IN;
      case "NotIn":
        return Operator.NOT_IN;
      case "Exists":
        return Operator.EXISTS;
      case "DoesNotExist":
        return Operator.DOES_NOT_EXIST;
      default:
        throw new IllegalArgumentException("unknown label selector operator \"" + name + "\"");
    }
  }

  /** Whether the labels of {@code object} (a JSON object with {@code metadata.labels}) satisfy this selector. */
  boolean matches(JsonNode object) {
    JsonNode labels = object.path("metadata").path("labels");
    return requirements.stream().allMatch(requirement -> {
      JsonNode value = labels.get(requirement.key());
      return requirement.matches(value == null || value.isNull() ? null : value.asText());
    });
  }

  /** Whether {@code labels} (null for none) satisfy this selector. */
  boolean matches(Map<String, String> labels) {
    Map<String, String> actual = labels == null ? Map.of() : labels;
    return requirements.stream().allMatch(requirement -> requirement.matches(actual.get(requirement.key())));
  }

  /** A hand-written scanner: the grammar is small, and a regex cannot report where an invalid selector fails. */
  private static final class Parser {
    private final String input;
    private int pos;

    Parser(String input) {
      this.input = input;
    }

    List<Requirement> requirements() {
      List<Requirement> result = new ArrayList<>();
      while (true) {
        skipSpaces();
        result.add(requirement());
        skipSpaces();
        if (pos == input.length()) {
          return result;
        }
        expect(',');
      }
    }

    private Requirement requirement() {
      if (peek() == '!') {
        pos++;
        skipSpaces();
        return new Requirement(key(), Operator.DOES_NOT_EXIST, Set.of());
      }
      String key = key();
      skipSpaces();
      if (pos == input.length() || peek() == ',') {
        return new Requirement(key, Operator.EXISTS, Set.of());
      }
      if (input.startsWith("==", pos)) {
        pos += 2;
        return new Requirement(key, Operator.IN, Set.of(value()));
      }
      if (input.startsWith("!=", pos)) {
        pos += 2;
        return new Requirement(key, Operator.NOT_IN, Set.of(value()));
      }
      if (peek() == '=') {
        pos++;
        return new Requirement(key, Operator.IN, Set.of(value()));
      }
      String word = word();
      if (word.equals("in") || word.equals("notin")) {
        return new Requirement(key, word.equals("in") ? Operator.IN : Operator.NOT_IN, valueSet());
      }
      throw invalid("found '" + (word.isEmpty() ? String.valueOf(peek()) : word)
          + "', expected: in, notin, =, ==, !=, gt, lt");
    }

    private Set<String> valueSet() {
      skipSpaces();
      expect('(');
      Set<String> values = new LinkedHashSet<>();
      while (true) {
        values.add(value());
        skipSpaces();
        if (peek() == ')') {
          pos++;
          return values;
        }
        expect(',');
      }
    }

    private String key() {
      String key = word();
      if (key.isEmpty() || key.length() > 316 || !KEY.matcher(key).matches()) {
        throw invalid("invalid label key \"" + key + "\"");
      }
      return key;
    }

    private String value() {
      skipSpaces();
      String value = word();
      if (value.length() > 63 || !VALUE.matcher(value).matches()) {
        throw invalid("invalid label value: \"" + value + "\": a valid label must be an empty string or consist of "
            + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
      }
      return value;
    }

    private String word() {
      int start = pos;
      while (pos < input.length() && "!=,() \t".indexOf(input.charAt(pos)) < 0) {
        pos++;
      }
      return input.substring(start, pos);
    }

    private void expect(char c) {
      skipSpaces();
      if (peek() != c) {
        throw invalid("found '" + (pos < input.length() ? String.valueOf(input.charAt(pos)) : "")
            + "', expected: '" + c + "'");
      }
      pos++;
    }

    private char peek() {
      return pos < input.length() ? input.charAt(pos) : '\0';
    }

    private void skipSpaces() {
      while (pos < input.length() && Character.isWhitespace(input.charAt(pos))) {
        pos++;
      }
    }

    private IllegalArgumentException invalid(String detail) {
      return new IllegalArgumentException("unable to parse requirement: " + detail);
    }
  }
}
