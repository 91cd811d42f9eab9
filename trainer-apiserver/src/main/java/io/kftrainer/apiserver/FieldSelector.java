package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed {@code fieldSelector}: comma-separated {@code path=value}, {@code path==value} and {@code path!=value}
 * terms, with backslash escapes as in Kubernetes' {@code fields.ParseSelector}. All terms must hold.
 *
 * <p>A path is evaluated generically as a dotted path into the stored object's JSON
 * ({@code involvedObject.name}, {@code regarding.uid}, {@code metadata.namespace}, ...); which paths a kind accepts
 * is {@link FieldLabels}'. An absent field, or one that is not a scalar, reads as the empty string, as an unset
 * string field does in Kubernetes.
 */
final class FieldSelector {

  private enum Operator {
    EQUALS, NOT_EQUALS
  }

  private record Term(String path, Operator operator, String value) {

    boolean matches(JsonNode object) {
      JsonNode node = object;
      for (String segment : path.split("\\.", -1)) {
        node = node.path(segment);
      }
      String actual = node.isValueNode() && !node.isNull() ? node.asText() : "";
      return (operator == Operator.EQUALS) == actual.equals(value);
    }
  }

  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  /**
   * Parses {@code selector}; an empty selector matches everything.
   *
   * @throws IllegalArgumentException with kube-apiserver's message when a term has no operator or no field
   */
  static FieldSelector parse(String selector) {
    List<Term> terms = new ArrayList<>();
    for (String term : split(selector)) {
      if (!term.isEmpty()) {
        terms.add(parseTerm(term));
      }
    }
    return new FieldSelector(terms);
  }

  boolean matches(JsonNode object) {
    return terms.stream().allMatch(term -> term.matches(object));
  }

  /** The field paths the terms name, in their order. */
  List<String> paths() {
    return terms.stream().map(Term::path).toList();
  }

  /** Splits on commas that are not escaped; escapes are kept for {@link #parseTerm}. */
  private static List<String> split(String selector) {
    List<String> result = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '\\' && i + 1 < selector.length()) {
        current.append(c).append(selector.charAt(++i));
      } else if (c == ',') {
        result.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    result.add(current.toString());
    return result;
  }

  private static Term parseTerm(String term) {
    for (int i = 0; i < term.length(); i++) {
      char c = term.charAt(i);
      if (c == '\\') {
        i++;
        continue;
      }
      Operator operator = null;
      int length = 0;
      if (term.startsWith("!=", i)) {
        operator = Operator.NOT_EQUALS;
        length = 2;
      } else if (term.startsWith("==", i)) {
        operator = Operator.EQUALS;
        length = 2;
      } else if (c == '=') {
        operator = Operator.EQUALS;
        length = 1;
      }
      if (operator != null) {
        String path = unescape(term.substring(0, i));
        if (path.isEmpty()) {
          break;
        }
        return new Term(path, operator, unescape(term.substring(i + length)));
      }
    }
    throw new IllegalArgumentException("invalid selector: '" + term + "'; can't understand '" + term + "'");
  }

  private static String unescape(String s) {
    StringBuilder result = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        c = s.charAt(++i);
      }
      result.append(c);
    }
    return result.toString();
  }
}
