package io.kftrainer.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * Lists the differences between two JSON trees as readable lines ({@code spec.trainer.args[1]: expected ... but
 * was ...}), so that a failed round trip names the lost or renamed field instead of printing two whole documents.
 */
final class JsonTreeDiff {

  private JsonTreeDiff() {
  }

  static List<String> diff(JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    diff("", expected, actual, out);
    return out;
  }

  private static void diff(String path, JsonNode expected, JsonNode actual, List<String> out) {
    if (expected == null || actual == null) {
      if (expected != actual) {
        out.add(at(path) + (expected == null ? "unexpected " + actual : "missing, expected " + expected));
      }
      return;
    }
    if (expected.isObject() && actual.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      expected.fieldNames().forEachRemaining(names::add);
      actual.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        diff(path.isEmpty() ? name : path + "." + name, expected.get(name), actual.get(name), out);
      }
    } else if (expected.isArray() && actual.isArray()) {
      Iterator<JsonNode> e = expected.elements();
      Iterator<JsonNode> a = actual.elements();
      int i = 0;
      while (e.hasNext() || a.hasNext()) {
        diff(path + "[" + i++ + "]", e.hasNext() ? e.next() : null, a.hasNext() ? a.next() : null, out);
      }
    } else if (!expected.equals(actual)) {
      out.add(at(path) + "expected " + describe(expected) + " but was " + describe(actual));
    }
  }

  private static String at(String path) {
    return (path.isEmpty() ? "<root>" : path) + ": ";
  }

  private static String describe(JsonNode node) {
    return node + " (" + node.getNodeType().name().toLowerCase() + ")";
  }
}
