package io.kftrainer.apiserver;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Resource requests counted by client ({@code User-Agent}), verb and resource, without bound: the figures of a load
 * run, where {@link EmbeddedApiServer#requests()} keeps a bounded list. Verbs are kube-apiserver's (get, list,
 * watch, create, update, patch, delete, deletecollection); resources are plurals with their subresource
 * ({@code trainjobs/status}).
 */
final class RequestTally {

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  void add(String userAgent, String method, ResourcePath rp) {
    if (rp == null) {
      return;
    }
    String verb = switch (method) {
      case "GET" -> rp.isWatch() ? "watch" : rp.name() == null ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> rp.name() == null ? "deletecollection" : "delete";
      default -> method.toLowerCase(java.util.Locale.ROOT);
    };
    String resource = rp.subresource() == null ? rp.plural() : rp.plural() + "/" + rp.subresource();
    counts.computeIfAbsent((userAgent == null ? "-" : userAgent) + " " + verb + " " + resource,
        key -> new LongAdder()).increment();
  }

  /** {@code "<client> <verb> <resource>"} to count, sorted. */
  Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((key, count) -> copy.put(key, count.sum()));
    return copy;
  }

  void clear() {
    counts.clear();
  }
}
