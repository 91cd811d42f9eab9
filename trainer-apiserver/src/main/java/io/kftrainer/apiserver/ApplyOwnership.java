package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Field ownership between server-side appliers, from the {@code Apply} entries of {@code metadata.managedFields}:
 * a field another manager applied with a different value is a conflict (409) unless the apply is forced, which takes
 * the field over; a field a manager applied before and no longer applies is removed unless another manager still
 * applies it. Fields are compared at the leaves of the FieldsV1 sets ({@link ManagedFields} records lists as leaves,
 * so lists are owned and compared as a whole). Writes other than apply are not tracked: they own nothing.
 */
final class ApplyOwnership {

  /** The outcome of checking an apply: conflicts by manager, and the paths to remove. */
  record Check(Map<String, List<String>> conflicts, List<List<String>> removed) {
  }

  private ApplyOwnership() {
  }

  /**
   * Checks an apply of {@code applied} (its FieldsV1 {@code fields}) by {@code manager} on {@code current}.
   * With {@code force}, conflicting fields are taken from their managers in {@code current}'s managedFields.
   */
  static Check check(ObjectNode current, JsonNode applied, ObjectNode fields, String manager, String subresource,
      boolean force) {
    Set<List<String>> mine = leaves(fields);
    Map<String, List<String>> conflicts = new LinkedHashMap<>();
    Set<List<String>> ownedByOthers = new LinkedHashSet<>();
    Set<List<String>> previouslyMine = new LinkedHashSet<>();
    JsonNode entries = current.path("metadata").path("managedFields");
    for (JsonNode entry : entries) {
      if (!entry.path("operation").asText().equals("Apply")
          || !entry.path("subresource").asText("").equals(subresource)) {
        continue;
      }
      Set<List<String>> theirs = leaves(entry.path("fieldsV1"));
      if (entry.path("manager").asText().equals(manager)) {
        previouslyMine.addAll(theirs);
        continue;
      }
      List<List<String>> taken = new ArrayList<>();
      for (List<String> path : theirs) {
        if (mine.contains(path) && !at(current, path).equals(at(applied, path))) {
          if (force) {
            taken.add(path);
          } else {
            conflicts.computeIfAbsent(entry.path("manager").asText(), m -> new ArrayList<>()).add(dotted(path));
          }
        }
      }
      theirs.removeAll(taken);
      ownedByOthers.addAll(theirs);
      if (force && !taken.isEmpty()) {
        ((ObjectNode) entry).set("fieldsV1", toFieldsV1(theirs));
      }
    }
    List<List<String>> removed = new ArrayList<>();
    for (List<String> path : previouslyMine) {
      if (!mine.contains(path) && !ownedByOthers.contains(path) && !isPrefixOfAny(path, mine)) {
        removed.add(path);
      }
    }
    return new Check(conflicts, removed);
  }

  /** kube-apiserver's message: {@code Apply failed with 1 conflict: conflict with "m": .spec.x}. */
  static String message(Map<String, List<String>> conflicts) {
    int count = conflicts.values().stream().mapToInt(List::size).sum();
    StringBuilder sb = new StringBuilder("Apply failed with ").append(count).append(count == 1 ? " conflict: "
        : " conflicts: ");
    List<String> parts = new ArrayList<>();
    conflicts.forEach((manager, paths) -> {
      if (paths.size() == 1) {
        parts.add("conflict with \"" + manager + "\": " + paths.get(0));
      } else {
        parts.add("conflicts with \"" + manager + "\":\n- " + String.join("\n- ", paths));
      }
    });
    return sb.append(String.join("\n", parts)).toString();
  }

  /** Removes each path (a list of field names) from {@code object}, and the maps it leaves empty. */
  static void remove(ObjectNode object, List<List<String>> paths) {
    for (List<String> path : paths) {
      for (int depth = path.size(); depth > 0; depth--) {
        JsonNode parent = object;
        for (int i = 0; i < depth - 1 && parent != null; i++) {
          parent = parent.get(path.get(i));
        }
        if (!(parent instanceof ObjectNode)) {
          break;
        }
        JsonNode child = parent.get(path.get(depth - 1));
        if (depth < path.size() && (child == null || !child.isObject() || !child.isEmpty())) {
          break; // a parent that still holds something stays
        }
        ((ObjectNode) parent).remove(path.get(depth - 1));
      }
    }
  }

  private static boolean isPrefixOfAny(List<String> path, Set<List<String>> paths) {
    for (List<String> other : paths) {
      if (other.size() > path.size() && other.subList(0, path.size()).equals(path)) {
        return true;
      }
    }
    return false;
  }

  private static JsonNode at(JsonNode node, List<String> path) {
    JsonNode current = node;
    for (String field : path) {
      current = current.path(field);
    }
    return current;
  }

  private static String dotted(List<String> path) {
    return "." + String.join(".", path);
  }

  /** The leaf paths of a FieldsV1 set: {@code {"f:a":{"f:b":{}}}} has the one leaf {@code [a, b]}. */
  static Set<List<String>> leaves(JsonNode fieldsV1) {
    Set<List<String>> result = new LinkedHashSet<>();
    collect(fieldsV1, new ArrayList<>(), result);
    return result;
  }

  private static void collect(JsonNode node, List<String> prefix, Set<List<String>> result) {
    boolean any = false;
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (!e.getKey().startsWith("f:")) {
        continue;
      }
      any = true;
      List<String> path = new ArrayList<>(prefix);
      path.add(e.getKey().substring(2));
      collect(e.getValue(), path, result);
    }
    if (!any && !prefix.isEmpty()) {
      result.add(prefix);
    }
  }

  private static ObjectNode toFieldsV1(Set<List<String>> leaves) {
    ObjectNode root = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    for (List<String> path : leaves) {
      ObjectNode node = root;
      for (String field : path) {
        JsonNode child = node.get("f:" + field);
        node = child instanceof ObjectNode ? (ObjectNode) child : node.putObject("f:" + field);
      }
    }
    return root;
  }

}
