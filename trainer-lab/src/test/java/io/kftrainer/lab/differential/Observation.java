package io.kftrainer.lab.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a client saw in one case, field by field, normalised ({@link Normalized}): exit codes, HTTP status codes,
 * reasons, causes and messages as short values; output as text; objects as JSON. Two observations of the same case
 * are compared field by field; {@link #differences} says where they differ, in a form that is the same from run to
 * run.
 */
final class Observation {

  /** Object paths listed per field before "+N more". */
  private static final int PATHS_SHOWN = 4;
  /** Values this long or shorter are shown in a difference. */
  private static final int VALUE_SHOWN = 24;

  private final Map<String, JsonNode> fields = new LinkedHashMap<>();

  /** Records {@code value} (a string, number, boolean, JSON node or null) under {@code field}. */
  Observation put(String field, Object value) {
    fields.put(field, value instanceof JsonNode node ? node
        : value == null ? JsonNodeFactory.instance.nullNode()
        : value instanceof Integer number ? JsonNodeFactory.instance.numberNode(number)
        : value instanceof Boolean bool ? JsonNodeFactory.instance.booleanNode(bool)
        : JsonNodeFactory.instance.textNode(value.toString()));
    return this;
  }

  /** Records every field of {@code other}, each under {@code prefix + " " + field}. */
  Observation putAll(String prefix, Observation other) {
    other.fields.forEach((field, value) -> fields.put(prefix + " " + field, value));
    return this;
  }

  /**
   * Where {@code kube} (kube-apiserver's) and {@code ours} differ: per field, its name and, for short values, both
   * values ({@code status 400 vs 201}: kube-apiserver's first); for JSON objects, the paths that differ, cut at
   * their first list index ({@code metadata.managedFields}); lists and long text by name only.
   */
  static List<String> differences(Observation kube, Observation ours) {
    Set<String> names = new LinkedHashSet<>(kube.fields.keySet());
    names.addAll(ours.fields.keySet());
    List<String> differences = new ArrayList<>();
    for (String name : names) {
      JsonNode a = kube.fields.getOrDefault(name, JsonNodeFactory.instance.missingNode());
      JsonNode b = ours.fields.getOrDefault(name, JsonNodeFactory.instance.missingNode());
      if (a.equals(b)) {
        continue;
      }
      if (a.isObject() && b.isObject()) {
        TreeSet<String> paths = new TreeSet<>();
        paths(a, b, "", paths);
        List<String> shown = paths.stream().limit(PATHS_SHOWN).map(p -> "`" + p + "`").toList();
        differences.add(name + " " + String.join(", ", shown)
            + (paths.size() > PATHS_SHOWN ? " +" + (paths.size() - PATHS_SHOWN) + " more" : ""));
      } else if (shortValue(a) && shortValue(b)) {
        differences.add(name + " " + show(a) + " vs " + show(b));
      } else {
        differences.add(name);
      }
    }
    return differences;
  }

  private static boolean shortValue(JsonNode node) {
    return node.isMissingNode() || node.isValueNode() && !node.asText().contains("\n")
        && node.asText().length() <= VALUE_SHOWN;
  }

  private static String show(JsonNode node) {
    if (node.isMissingNode()) {
      return "(none)";
    }
    String text = node.isNull() ? "null" : node.asText();
    return text.isEmpty() ? "\"\"" : "`" + text + "`";
  }

  /** The paths under which {@code a} and {@code b} differ, each cut at its first list index. */
  private static void paths(JsonNode a, JsonNode b, String path, Set<String> paths) {
    if (a.equals(b)) {
      return;
    }
    if (a.isObject() && b.isObject()) {
      TreeSet<String> keys = new TreeSet<>();
      a.fieldNames().forEachRemaining(keys::add);
      b.fieldNames().forEachRemaining(keys::add);
      for (String key : keys) {
        paths(a.path(key), b.path(key), path.isEmpty() ? key : path + "." + key, paths);
      }
    } else {
      paths.add(path);
    }
  }

  /** The fields and values, one a line, for a report. */
  String describe() {
    StringBuilder text = new StringBuilder();
    fields.forEach((field, value) -> text.append("  ").append(field).append(": ")
        .append((value.isTextual() ? value.asText() : value.toString()).replace("\n", "\n    ")).append('\n'));
    return text.toString();
  }
}
