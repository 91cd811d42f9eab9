package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The subset of Kubernetes JSONPath that printer columns use: {@code .a.b}, {@code .a['b.c']}, {@code .a[0]},
 * {@code .a[-1:]}, {@code .a[1:3]}, {@code .a[*]}, {@code .a[?(@.type=="Ready")].status} (with {@code ==},
 * {@code !=} or bare existence), optionally wrapped in {@code {...}} and prefixed with {@code $}. Dots in keys can be
 * escaped with a backslash. No recursive descent, unions or functions.
 */
final class SimpleJsonPath {

  private final String expression;
  private int pos;

  private SimpleJsonPath(String expression) {
    this.expression = expression;
  }

  /** Evaluates {@code path} against {@code root}; an invalid expression yields no result. */
  static List<JsonNode> evaluate(JsonNode root, String path) {
    String p = path == null ? "" : path.trim();
    if (p.startsWith("{") && p.endsWith("}")) {
      p = p.substring(1, p.length() - 1).trim();
    }
    if (p.startsWith("$")) {
      p = p.substring(1);
    }
    try {
      return new SimpleJsonPath(p).run(List.of(root));
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }

  /** The first result, or null. */
  static JsonNode first(JsonNode root, String path) {
    List<JsonNode> results = evaluate(root, path);
    return results.isEmpty() ? null : results.get(0);
  }

  private List<JsonNode> run(List<JsonNode> start) {
    List<JsonNode> current = start;
    while (pos < expression.length()) {
      char c = expression.charAt(pos);
      if (c == '.') {
        pos++;
        if (pos < expression.length() && expression.charAt(pos) == '*') {
          pos++;
          current = children(current);
        } else {
          current = field(current, identifier());
        }
      } else if (c == '[') {
        current = bracket(current);
      } else {
        throw new IllegalArgumentException("unexpected '" + c + "' at " + pos + " in " + expression);
      }
    }
    return current;
  }

  private String identifier() {
    StringBuilder name = new StringBuilder();
    while (pos < expression.length()) {
      char c = expression.charAt(pos);
      if (c == '\\' && pos + 1 < expression.length()) {
        name.append(expression.charAt(pos + 1));
        pos += 2;
        continue;
      }
      if (c == '.' || c == '[') {
        break;
      }
      name.append(c);
      pos++;
    }
    if (name.length() == 0) {
      throw new IllegalArgumentException("empty field name in " + expression);
    }
    return name.toString();
  }

  private List<JsonNode> bracket(List<JsonNode> nodes) {
    int end = closingBracket(pos);
    String inner = expression.substring(pos + 1, end).trim();
    pos = end + 1;
    if (inner.equals("*")) {
      return children(nodes);
    }
    if (inner.startsWith("'") || inner.startsWith("\"")) {
      return field(nodes, inner.substring(1, inner.length() - 1));
    }
    if (inner.startsWith("?(") && inner.endsWith(")")) {
      return filter(nodes, inner.substring(2, inner.length() - 1).trim());
    }
    List<JsonNode> result = new ArrayList<>();
    if (inner.contains(":")) {
      String[] parts = inner.split(":", -1);
      for (JsonNode node : nodes) {
        if (!node.isArray()) {
          continue;
        }
        int size = node.size();
        int from = parts[0].isBlank() ? 0 : normalize(Integer.parseInt(parts[0].trim()), size);
        int to = parts.length < 2 || parts[1].isBlank() ? size : normalize(Integer.parseInt(parts[1].trim()), size);
        for (int i = Math.max(0, from); i < Math.min(size, to); i++) {
          result.add(node.get(i));
        }
      }
      return result;
    }
    int index = Integer.parseInt(inner);
    for (JsonNode node : nodes) {
      if (node.isArray()) {
        int i = normalize(index, node.size());
        if (i >= 0 && i < node.size()) {
          result.add(node.get(i));
        }
      }
    }
    return result;
  }

  private int closingBracket(int open) {
    int depth = 0;
    char quote = 0;
    for (int i = open; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[') {
        depth++;
      } else if (c == ']' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unclosed [ in " + expression);
  }

  private static int normalize(int index, int size) {
    return index < 0 ? size + index : index;
  }

  private static List<JsonNode> field(List<JsonNode> nodes, String name) {
    List<JsonNode> result = new ArrayList<>();
    for (JsonNode node : nodes) {
      JsonNode child = node.get(name);
      if (child != null && !child.isNull()) {
        result.add(child);
      }
    }
    return result;
  }

  private static List<JsonNode> children(List<JsonNode> nodes) {
    List<JsonNode> result = new ArrayList<>();
    for (JsonNode node : nodes) {
      for (Iterator<JsonNode> it = node.elements(); it.hasNext();) {
        result.add(it.next());
      }
    }
    return result;
  }

  /** {@code @.a.b == "x"}, {@code @.a != 3}, {@code @.a} (exists). */
  private static List<JsonNode> filter(List<JsonNode> nodes, String condition) {
    String op = null;
    int at = -1;
    for (String candidate : List.of("==", "!=")) {
      at = condition.indexOf(candidate);
      if (at >= 0) {
        op = candidate;
        break;
      }
    }
    String left = (op == null ? condition : condition.substring(0, at)).trim();
    if (!left.startsWith("@")) {
      throw new IllegalArgumentException("filter must start with @: " + condition);
    }
    String leftPath = left.substring(1);
    String literal = op == null ? null : condition.substring(at + 2).trim();
    List<JsonNode> result = new ArrayList<>();
    for (JsonNode element : children(nodes)) {
      List<JsonNode> values = new SimpleJsonPath(leftPath).run(List.of(element));
      if (op == null) {
        if (!values.isEmpty()) {
          result.add(element);
        }
        continue;
      }
      String actual = values.isEmpty() ? null : values.get(0).isValueNode() ? values.get(0).asText()
          : values.get(0).toString();
      boolean equal = Objects.equals(actual, unquote(literal));
      if (equal == op.equals("==")) {
        result.add(element);
      }
    }
    return result;
  }

  private static String unquote(String literal) {
    if (literal.length() >= 2 && (literal.startsWith("'") && literal.endsWith("'")
        || literal.startsWith("\"") && literal.endsWith("\""))) {
      return literal.substring(1, literal.length() - 1);
    }
    return literal;
  }
}
