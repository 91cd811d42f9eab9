package io.kftrainer.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one controller made of one case: each create's admission answer ({@code Kind name: code, message,
 * warnings}), the TrainJob's conditions each time they changed, its status at the end, and its children (JobSets,
 * ConfigMaps, Secrets, PodGroups it owns), all normalised ({@link Normalize}).
 */
record Outcome(List<String> admissions, List<String> conditions, JsonNode status, Map<String, JsonNode> children,
    String failure) {

  /** The most differing paths shown per object. */
  private static final int PATHS = 4;

  /** Where {@code upstream} and {@code ours} differ: empty when identical. */
  static List<String> differences(Outcome upstream, Outcome ours) {
    List<String> where = new ArrayList<>();
    if (!String.valueOf(upstream.failure).equals(String.valueOf(ours.failure))) {
      where.add("run: " + (upstream.failure == null ? "ends" : upstream.failure) + " / "
          + (ours.failure == null ? "ends" : ours.failure));
    }
    for (int i = 0; i < Math.max(upstream.admissions.size(), ours.admissions.size()); i++) {
      String a = i < upstream.admissions.size() ? upstream.admissions.get(i) : "(none)";
      String b = i < ours.admissions.size() ? ours.admissions.get(i) : "(none)";
      if (!a.equals(b)) {
        where.add("admission: " + a + " / " + b);
      }
    }
    if (!upstream.conditions.equals(ours.conditions)) {
      where.add("conditions over time: " + upstream.conditions + " / " + ours.conditions);
    }
    List<String> status = paths("", upstream.status, ours.status);
    if (!status.isEmpty()) {
      where.add("status " + String.join(", ", status));
    }
    TreeSet<String> names = new TreeSet<>(upstream.children.keySet());
    names.addAll(ours.children.keySet());
    for (String name : names) {
      JsonNode a = upstream.children.get(name);
      JsonNode b = ours.children.get(name);
      if (a == null || b == null) {
        where.add(name + " made by " + (a == null ? "ours" : "upstream") + " only");
      } else {
        List<String> paths = paths("", a, b);
        if (!paths.isEmpty()) {
          where.add(name + " " + String.join(", ", paths));
        }
      }
    }
    return where;
  }

  /** The JSON paths where {@code a} and {@code b} differ, at most {@value #PATHS} and then a count. */
  static List<String> paths(String at, JsonNode a, JsonNode b) {
    List<String> all = new ArrayList<>();
    collect(at, a == null ? NullNode.getInstance() : a, b == null ? NullNode.getInstance() : b, all);
    if (all.size() > PATHS) {
      List<String> shown = new ArrayList<>(all.subList(0, PATHS));
      shown.add("and " + (all.size() - PATHS) + " more");
      return shown;
    }
    return all;
  }

  private static void collect(String at, JsonNode a, JsonNode b, List<String> into) {
    if (a.equals(b)) {
      return;
    }
    if (a.isObject() && b.isObject()) {
      TreeSet<String> fields = new TreeSet<>();
      a.fieldNames().forEachRemaining(fields::add);
      b.fieldNames().forEachRemaining(fields::add);
      for (String field : fields) {
        collect(at + "." + field, a.path(field).isMissingNode() ? NullNode.getInstance() : a.get(field),
            b.path(field).isMissingNode() ? NullNode.getInstance() : b.get(field), into);
      }
    } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        collect(at + "[" + i + "]", a.get(i), b.get(i), into);
      }
    } else {
      into.add(at + " " + brief(a) + " / " + brief(b));
    }
  }

  private static String brief(JsonNode value) {
    String text = value.isNull() ? "absent" : value.toString();
    return text.length() > 120 ? text.substring(0, 117) + "..." : text;
  }

  /**
   * How the case ended, for the table: the TrainJob's last conditions ({@code Complete AllJobsCompleted}), that its
   * JobSet exists (no condition yet), the refusal's code, or that it did not end in time.
   */
  String end() {
    if (failure != null) {
      return failure;
    }
    if (conditions.isEmpty() && status == null) {
      return admissions.stream().filter(a -> !a.matches("(?s).*: 201(,.*)?")).findFirst()
          .map(a -> "refused " + a.replaceAll("(?s)^.*?: (\\d+).*$", "$1")).orElse("admitted");
    }
    String last = conditions.isEmpty() ? "[]" : conditions.get(conditions.size() - 1);
    List<String> ends = new ArrayList<>();
    Matcher condition = Pattern.compile("(\\w+)=True (\\w+)").matcher(last);
    while (condition.find()) {
      ends.add(condition.group(1) + " " + condition.group(2));
    }
    return ends.isEmpty() ? "JobSet created, no condition" : String.join(", ", ends);
  }

  /** Every field of the outcome, for the report of a differing case. */
  String describe() {
    StringBuilder text = new StringBuilder();
    admissions.forEach(a -> text.append("  admission ").append(a).append('\n'));
    conditions.forEach(c -> text.append("  conditions ").append(c).append('\n'));
    text.append("  status ").append(status).append('\n');
    new TreeMap<>(children).forEach((name, object) -> text.append("  ").append(name).append(' ').append(object)
        .append('\n'));
    if (failure != null) {
      text.append("  failure ").append(failure).append('\n');
    }
    return text.toString();
  }
}
