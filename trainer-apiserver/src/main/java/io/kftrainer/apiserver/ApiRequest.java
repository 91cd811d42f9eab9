package io.kftrainer.apiserver;

import java.time.Instant;
import java.util.Set;

/**
 * A request the embedded server received, as recorded for {@link EmbeddedApiServer#requests()}.
 *
 * @param method      HTTP method (GET, POST, PUT, PATCH, DELETE)
 * @param path        path without the query string
 * @param query       raw query string, or null
 * @param contentType Content-Type header, or null
 * @param time        when the request arrived
 */
public record ApiRequest(String method, String path, String query, String contentType, Instant time) {

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  /** POST, PUT, PATCH or DELETE. */
  public boolean isWrite() {
    return WRITES.contains(method);
  }

  /** A GET with {@code watch=true} or {@code watch=1}. */
  public boolean isWatch() {
    return "GET".equals(method) && query != null
        && (query.matches("(^|.*&)watch=(true|1)(&.*|$)"));
  }

  /** Whether the path ends with {@code /status}. */
  public boolean isStatus() {
    return path.endsWith("/status");
  }

  @Override
  public String toString() {
    return method + " " + path + (query != null ? "?" + query : "") + (contentType != null ? " [" + contentType + "]" : "");
  }
}
