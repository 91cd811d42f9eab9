package io.kftrainer.apiserver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed Kubernetes REST path: {@code /api/v1[/namespaces/NS]/PLURAL[/NAME[/SUB]]} or
 * {@code /apis/GROUP/VERSION[/namespaces/NS]/PLURAL[/NAME[/SUB]]}, plus the query parameters.
 *
 * @param group       API group, empty for the core group
 * @param version     API version
 * @param namespace   namespace from the path, or null
 * @param plural      resource (plural), never null
 * @param name        object name, or null for a collection
 * @param subresource subresource such as {@code status}, or null
 * @param query       decoded query parameters (first value wins)
 */
record ResourcePath(String group, String version, String namespace, String plural, String name, String subresource,
    Map<String, String> query) {

  /** Returns null when {@code rawPath} is not a resource path (discovery, /version, ...). */
  static ResourcePath parse(String rawPath) {
    String path = rawPath;
    String rawQuery = null;
    int q = path.indexOf('?');
    if (q >= 0) {
      rawQuery = path.substring(q + 1);
      path = path.substring(0, q);
    }
    List<String> segments = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        segments.add(URLDecoder.decode(s, StandardCharsets.UTF_8));
      }
    }
    String group;
    String version;
    List<String> rest;
    if (segments.size() >= 3 && segments.get(0).equals("api")) {
      group = "";
      version = segments.get(1);
      rest = segments.subList(2, segments.size());
    } else if (segments.size() >= 4 && segments.get(0).equals("apis")) {
      group = segments.get(1);
      version = segments.get(2);
      rest = segments.subList(3, segments.size());
    } else {
      return null;
    }
    String namespace = null;
    // "namespaces/NS/PLURAL..." but not "namespaces/NAME/status" or "namespaces/NAME/finalize"
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")
        && !(group.isEmpty() && rest.size() == 3 && Arrays.asList("status", "finalize").contains(rest.get(2)))) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    if (rest.isEmpty() || rest.size() > 3) {
      return null;
    }
    return new ResourcePath(group, version, namespace, rest.get(0), rest.size() > 1 ? rest.get(1) : null,
        rest.size() > 2 ? rest.get(2) : null, parseQuery(rawQuery));
  }

  static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> result = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return result;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      result.putIfAbsent(key, value);
    }
    return result;
  }

  /** The same path naming the object {@code objectName}, without subresource. */
  ResourcePath withName(String objectName) {
    return new ResourcePath(group, version, namespace, plural, objectName, null, query);
  }

  String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** The path prefix of the group version: {@code /api/v1} or {@code /apis/G/V}. */
  String groupVersionPrefix() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }

  /** The collection path this object lives in (namespaced when the path had a namespace). */
  String collectionPath() {
    return groupVersionPrefix() + (namespace != null ? "/namespaces/" + namespace : "") + "/" + plural;
  }

  /** The object path without subresource. */
  String objectPath() {
    return collectionPath() + "/" + name;
  }

  boolean isStatus() {
    return "status".equals(subresource);
  }

  boolean isDryRun() {
    String dryRun = query.get("dryRun");
    return dryRun != null && !dryRun.isEmpty();
  }

  boolean isWatch() {
    return QueryBool.of(query.get("watch"));
  }
}
