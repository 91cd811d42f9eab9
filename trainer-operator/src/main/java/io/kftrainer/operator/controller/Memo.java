package io.kftrainer.operator.controller;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Strings computed from strings, remembered: at most {@code entries}, the most recently used. A value is computed
 * outside the lock (two threads may both compute a new key; both get an equal value); a computation that throws is
 * not remembered.
 */
final class Memo {

  private final Map<String, String> values;

  Memo(int entries) {
    this.values = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
        return size() > entries;
      }
    };
  }

  String get(String key, Function<String, String> compute) {
    synchronized (values) {
      String known = values.get(key);
      if (known != null) {
        return known;
      }
    }
    String computed = compute.apply(key);
    synchronized (values) {
      values.put(key, computed);
    }
    return computed;
  }
}
