package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Field paths as structured-merge-diff writes them in {@code managedFields}' FieldsV1: a path is a list of elements,
 * {@code f:name} for an object field, {@code k:{"name":"x"}} for the item of a {@code map} list with those key
 * fields (sorted by name, defaults filled in), {@code v:"x"} for the value of a {@code set} list. A set of paths
 * holds every leaf (scalars, atomic lists and maps, map keys, empty objects) and every list item.
 */
final class FieldPaths {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String MEMBER = ".";

  private FieldPaths() {
  }

  /** The paths of {@code config} (structured-merge-diff's {@code ToFieldSet}). */
  static Set<List<String>> of(JsonNode config, MergeType type) {
    Set<List<String>> paths = new LinkedHashSet<>();
    collect(config, type, new ArrayList<>(), paths);
    return paths;
  }

  private static void collect(JsonNode value, MergeType type, List<String> path, Set<List<String>> out) {
    if (value.isObject() && !(type.atomicMap() && !path.isEmpty())) {
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        List<String> child = append(path, "f:" + e.getKey());
        JsonNode v = e.getValue();
        collect(v, type.field(e.getKey()), child, out);
        if (v.isNull() || (v.isObject() && v.isEmpty()) || !type.declares(e.getKey())) {
          out.add(child);
        }
      }
    } else if (value.isArray() && type.listType() != MergeType.ListType.ATOMIC) {
      for (int i = 0; i < value.size(); i++) {
        JsonNode item = value.get(i);
        List<String> child;
        try {
          child = append(path, itemElement(item, type));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(describe(path) + ": element " + i + ": " + e.getMessage(), e);
        }
        collect(item, type.items(), child, out);
        out.add(child);
      }
    } else if (!path.isEmpty()) {
      out.add(path);
    }
  }

  /**
   * The path element of an item of the non-atomic list typed {@code list}.
   *
   * @throws IllegalArgumentException when an item of a map list has no value and no default for a key field
   */
  static String itemElement(JsonNode item, MergeType list) {
    if (list.listType() == MergeType.ListType.SET) {
      return "v:" + item.toString();
    }
    TreeMap<String, JsonNode> key = new TreeMap<>();
    for (String field : list.listMapKeys()) {
      JsonNode value = item.get(field);
      if (value == null || value.isNull()) {
        value = list.keyDefault(field);
      }
      if (value == null) {
        throw new IllegalArgumentException("associative list with keys has an element that omits key field \""
            + field + "\" (and doesn't have default value)");
      }
      key.put(field, value);
    }
    ObjectNode json = NODES.objectNode();
    key.forEach(json::set);
    return "k:" + json;
  }

  /** The value at {@code path} in {@code object}, or null when absent. */
  static JsonNode at(JsonNode object, List<String> path, MergeType type) {
    JsonNode current = object;
    MergeType currentType = type;
    for (String element : path) {
      if (current == null) {
        return null;
      }
      if (element.startsWith("f:")) {
        String field = element.substring(2);
        current = current.isObject() ? current.get(field) : null;
        currentType = currentType.field(field);
      } else {
        current = item(current, element, currentType);
        currentType = currentType.items();
      }
    }
    return current;
  }

  /** The type at {@code path} below {@code type}. */
  static MergeType typeAt(MergeType type, List<String> path) {
    MergeType current = type;
    for (String element : path) {
      current = element.startsWith("f:") ? current.field(element.substring(2)) : current.items();
    }
    return current;
  }

  private static JsonNode item(JsonNode list, String element, MergeType type) {
    int index = indexOf(list, element, type);
    return index < 0 ? null : list.get(index);
  }

  private static int indexOf(JsonNode list, String element, MergeType type) {
    if (list == null || !list.isArray() || type.listType() == MergeType.ListType.ATOMIC) {
      return -1;
    }
    for (int i = 0; i < list.size(); i++) {
      try {
        if (itemElement(list.get(i), type).equals(element)) {
          return i;
        }
      } catch (IllegalArgumentException e) {
        // an item without its key matches nothing
      }
    }
    return -1;
  }

  /**
   * Removes the value at {@code path} from {@code object}, then the objects and lists this leaves empty, unless
   * {@code kept} holds them.
   */
  static void remove(ObjectNode object, List<String> path, MergeType type, Set<List<String>> kept) {
    for (int depth = path.size(); depth > 0; depth--) {
      List<String> parentPath = path.subList(0, depth - 1);
      JsonNode parent = at(object, parentPath, type);
      String element = path.get(depth - 1);
      if (depth < path.size()) {
        JsonNode child = at(object, path.subList(0, depth), type);
        if (child == null || !child.isContainerNode() || !child.isEmpty() || kept.contains(path.subList(0, depth))) {
          return; // a parent that still holds something, or that someone owns, stays
        }
      }
      if (element.startsWith("f:") && parent instanceof ObjectNode parentObject) {
        parentObject.remove(element.substring(2));
      } else if (parent instanceof ArrayNode parentList) {
        int index = indexOf(parentList, element, typeAt(type, parentPath));
        if (index >= 0) {
          parentList.remove(index);
        }
      } else {
        return;
      }
    }
  }

  /** The paths of a FieldsV1 object. */
  static Set<List<String>> fromFieldsV1(JsonNode fieldsV1) {
    Set<List<String>> paths = new LinkedHashSet<>();
    read(fieldsV1, new ArrayList<>(), paths);
    return paths;
  }

  private static void read(JsonNode node, List<String> prefix, Set<List<String>> out) {
    if (node.isEmpty() && !prefix.isEmpty()) {
      out.add(prefix);
      return;
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (e.getKey().equals(MEMBER)) {
        if (!prefix.isEmpty()) {
          out.add(prefix);
        }
      } else {
        read(e.getValue(), append(prefix, e.getKey()), out);
      }
    }
  }

  /** The FieldsV1 object of {@code paths}: a path with paths below it is marked {@code ".": {}}. */
  static ObjectNode toFieldsV1(Set<List<String>> paths) {
    TreeNode root = new TreeNode();
    for (List<String> path : paths) {
      TreeNode node = root;
      for (String element : path) {
        node = node.children.computeIfAbsent(element, e -> new TreeNode());
      }
      node.member = true;
    }
    return root.toJson();
  }

  /** The order of structured-merge-diff's FieldsV1: {@code .}, then fields, keys, values, indexes, by text. */
  private static final Comparator<String> ELEMENT_ORDER = Comparator
      .comparingInt((String e) -> e.equals(MEMBER) ? 0 : "fkvi".indexOf(e.charAt(0)) + 1)
      .thenComparing(Comparator.naturalOrder());

  private static final class TreeNode {
    final Map<String, TreeNode> children = new TreeMap<>(ELEMENT_ORDER);
    boolean member;

    ObjectNode toJson() {
      ObjectNode json = NODES.objectNode();
      if (member && !children.isEmpty()) {
        json.putObject(MEMBER);
      }
      children.forEach((element, child) -> json.set(element, child.toJson()));
      return json;
    }
  }

  /** structured-merge-diff's text of a path: {@code .spec.containers[name="x"].image}, {@code .finalizers[="a"]}. */
  static String describe(List<String> path) {
    StringBuilder sb = new StringBuilder();
    for (String element : path) {
      String body = element.substring(2);
      switch (element.charAt(0)) {
        case 'f' -> sb.append('.').append(body);
        case 'v' -> sb.append("[=").append(body).append(']');
        case 'i' -> sb.append('[').append(body).append(']');
        default -> {
          List<String> fields = new ArrayList<>();
          try {
            JSON.readTree(body).properties().forEach(e -> fields.add(e.getKey() + "=" + e.getValue()));
          } catch (JsonProcessingException e) {
            fields.add(body);
          }
          sb.append('[').append(String.join(",", fields)).append(']');
        }
      }
    }
    return sb.toString();
  }

  private static List<String> append(List<String> path, String element) {
    List<String> child = new ArrayList<>(path.size() + 1);
    child.addAll(path);
    child.add(element);
    return child;
  }
}
