package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values as Go prints them in kube-apiserver's messages, where a message quotes a value it decoded: strings quoted
 * ({@code %q}), a decoded JSON document ({@code %+v} of a {@code map[string]interface{}}), and a document encoded
 * again ({@code json.Marshal} of such a map: keys sorted, compact, HTML characters escaped).
 */
final class GoText {

  private GoText() {
  }

  /** Go's {@code strconv.Quote}: {@code "a \"b\""}, control characters escaped, other characters as they are. */
  static String quote(String text) {
    StringBuilder sb = new StringBuilder(text.length() + 2).append('"');
    text.codePoints().forEach(c -> {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\x%02x", c));
          } else {
            sb.appendCodePoint(c);
          }
        }
      }
    });
    return sb.append('"').toString();
  }

  /**
   * Go's {@code %+v} of a JSON document decoded into {@code interface{}} values: {@code map[a:1 b:[x y]]}, keys
   * sorted as fmt sorts them, strings bare, {@code <nil>} for null.
   */
  static String value(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return "<nil>";
    }
    if (node.isObject()) {
      List<String> entries = new ArrayList<>();
      sorted(node).forEach((key, value) -> entries.add(key + ":" + value(value)));
      return "map[" + String.join(" ", entries) + "]";
    }
    if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.forEach(item -> items.add(value(item)));
      return "[" + String.join(" ", items) + "]";
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    if (node.isNumber()) {
      return floatText(node.asDouble());
    }
    return node.asText();
  }

  /** {@code json.Marshal} of a decoded document: objects with sorted keys, compact, {@code <>&} escaped. */
  static String json(JsonNode node) {
    StringBuilder sb = new StringBuilder();
    writeJson(node, sb);
    return sb.toString();
  }

  private static void writeJson(JsonNode node, StringBuilder sb) {
    if (node.isObject()) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> e : sorted(node).entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        jsonString(e.getKey(), sb);
        sb.append(':');
        writeJson(e.getValue(), sb);
      }
      sb.append('}');
    } else if (node.isArray()) {
      sb.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        writeJson(node.get(i), sb);
      }
      sb.append(']');
    } else if (node.isTextual()) {
      jsonString(node.asText(), sb);
    } else {
      sb.append(node);
    }
  }

  private static void jsonString(String text, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> sb.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static TreeMap<String, JsonNode> sorted(JsonNode object) {
    TreeMap<String, JsonNode> fields = new TreeMap<>();
    object.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
    return fields;
  }

  /**
   * Go's {@code %v} of a float64: the shortest digits, in exponent form ({@code 1.5e+06}) when the exponent is below
   * -4 or from 6 on (strconv's {@code 'g'} with the shortest precision).
   */
  private static String floatText(double d) {
    if (d == 0) {
      return "0";
    }
    java.math.BigDecimal shortest = new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros();
    String digits = shortest.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - shortest.scale();
    if (exponent >= -4 && exponent < 6) {
      return shortest.toPlainString();
    }
    String mantissa = digits.substring(0, 1) + (digits.length() > 1 ? "." + digits.substring(1) : "");
    return (d < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
  }
}
