package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.StatusDetails;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Server-side apply as kube-apiserver does it with structured-merge-diff, for {@code Apply} managers: the applied
 * configuration is merged into the live object ({@link ApplyMerge}: map lists by key, set lists by value, atomic
 * lists whole); each manager owns the paths of its last applied configuration ({@link FieldPaths}: fields, list
 * items, fields inside items); applying a different value to a path another manager owns is a conflict unless
 * forced, which takes the path over; what a manager applied before and no longer applies is removed unless another
 * manager owns it. Writes other than apply own nothing.
 */
final class ServerSideApply {

  /** One request: who applies what, and where. */
  record Request(ObjectNode config, String manager, String apiVersion, boolean statusPath,
      boolean statusSubresource, boolean force) {
    String subresource() {
      return statusPath ? "status" : "";
    }
  }

  /** A conflict: the manager owning a path the apply changes. */
  record Conflict(String manager, List<String> path) {
  }

  /** The applied object, or the conflicts that stopped it. */
  record Outcome(ObjectNode object, List<Conflict> conflicts) {
  }

  private ServerSideApply() {
  }

  /**
   * Applies {@code request} to {@code live} (null: creates); neither is modified.
   *
   * @throws IllegalArgumentException when the configuration cannot be typed (an item of a map list without a key)
   */
  static Outcome apply(ObjectNode live, Request request, MergeType type) {
    ObjectNode config = request.config().deepCopy();
    if (config.path("metadata") instanceof ObjectNode metadata) {
      metadata.remove("managedFields");
    }
    Set<List<String>> mine = FieldPaths.of(ManagedFields.appliedConfig(config, request.statusPath(),
        request.statusSubresource()), type);
    ObjectNode base = live == null ? JsonNodeFactory.instance.objectNode() : live.deepCopy();
    JsonNode entries = base.path("metadata").path("managedFields");
    if (base.path("metadata") instanceof ObjectNode metadata) {
      metadata.remove("managedFields");
    }
    ObjectNode merged = (ObjectNode) ApplyMerge.merge(base, config, type);

    Map<String, Set<List<String>>> others = ManagedFields.appliers(entries, request.subresource());
    Set<List<String>> previous = others.remove(request.manager());
    List<Conflict> conflicts = new ArrayList<>();
    for (Map.Entry<String, Set<List<String>>> other : others.entrySet()) {
      List<List<String>> taken = new ArrayList<>();
      for (List<String> path : other.getValue()) {
        if (mine.contains(path) && changes(base, merged, path, type)) {
          taken.add(path);
          conflicts.add(new Conflict(other.getKey(), path));
        }
      }
      taken.forEach(other.getValue()::remove);
    }
    if (!conflicts.isEmpty() && !request.force()) {
      return new Outcome(null, conflicts);
    }

    Set<List<String>> owned = new HashSet<>(mine);
    others.values().forEach(owned::addAll);
    if (previous != null) {
      List<List<String>> removed = new ArrayList<>();
      for (List<String> path : previous) {
        if (!owned.contains(path)) {
          removed.add(path);
        }
      }
      removed.sort(Comparator.comparingInt(List::size));
      for (List<String> path : removed) {
        FieldPaths.remove(merged, path, type, owned);
      }
    }
    for (Set<List<String>> theirs : others.values()) {
      theirs.removeIf(path -> FieldPaths.at(merged, path, type) == null);
    }
    ManagedFields.write(merged, entries, request, mine, others);
    return new Outcome(merged, List.of());
  }

  /** Whether the apply changes the value at {@code path}: leaves compared, objects and keyed lists descended. */
  private static boolean changes(JsonNode live, JsonNode merged, List<String> path, MergeType type) {
    JsonNode before = FieldPaths.at(live, path, type);
    JsonNode after = FieldPaths.at(merged, path, type);
    if (before == null || after == null) {
      return before != after;
    }
    MergeType at = FieldPaths.typeAt(type, path);
    if (granular(before, at) && granular(after, at)) {
      return false;
    }
    return !before.equals(after);
  }

  private static boolean granular(JsonNode value, MergeType type) {
    return (value.isObject() && !type.atomicMap())
        || (value.isArray() && type.listType() != MergeType.ListType.ATOMIC);
  }

  /**
   * kube-apiserver's message: {@code Apply failed with 1 conflict: conflict with "m": .spec.x}, or with several,
   * {@code Apply failed with 2 conflicts: conflicts with "m":\n- .spec.x\n- .spec.y}, managers sorted.
   */
  static String message(List<Conflict> conflicts) {
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      return "Apply failed with 1 conflict: conflict with \"" + c.manager() + "\": " + FieldPaths.describe(c.path());
    }
    Map<String, List<String>> byManager = new TreeMap<>();
    conflicts.forEach(c -> byManager.computeIfAbsent(c.manager(), m -> new ArrayList<>())
        .add(FieldPaths.describe(c.path())));
    List<String> lines = new ArrayList<>();
    byManager.forEach((manager, paths) -> {
      lines.add("conflicts with \"" + manager + "\":");
      paths.forEach(path -> lines.add("- " + path));
    });
    return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
  }

  /** kube-apiserver's details of a conflict: one {@code FieldManagerConflict} cause per path. */
  static StatusDetails details(List<Conflict> conflicts) {
    StatusDetails details = new StatusDetails();
    List<StatusCause> causes = new ArrayList<>();
    for (Conflict c : conflicts) {
      causes.add(new StatusCause(FieldPaths.describe(c.path()), "conflict with \"" + c.manager() + "\"",
          "FieldManagerConflict"));
    }
    details.setCauses(causes);
    return details;
  }
}
