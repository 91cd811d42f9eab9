package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import io.fabric8.kubernetes.api.model.StatusDetails;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code GET pods/NAME/log} through a {@link PodLogSource}, with kube-apiserver's answers for bad requests. */
final class PodLogs {

  private final PodLogSource source;

  PodLogs(PodLogSource source) {
    this.source = source;
  }

  /** Serves the log; returns the error to send, or null when the log was streamed. */
  Response serve(HttpExchange exchange, JsonNode pod, Map<String, String> query) throws IOException {
    String namespace = pod.path("metadata").path("namespace").asText();
    String name = pod.path("metadata").path("name").asText();
    List<String> containers = names(pod.path("spec").path("containers"));
    List<String> initContainers = names(pod.path("spec").path("initContainers"));
    String container = query.get("container");
    if (container == null || container.isEmpty()) {
      if (containers.size() != 1) {
        return Response.status(400, "BadRequest", "a container name must be specified for pod " + name
            + ", choose one of: " + bracketed(containers)
            + (initContainers.isEmpty() ? "" : " or one of the init containers: " + bracketed(initContainers)));
      }
      container = containers.get(0);
    } else if (!containers.contains(container) && !initContainers.contains(container)) {
      return Response.status(400, "BadRequest", "container " + container + " is not valid for pod " + name);
    }
    boolean follow = "true".equals(query.get("follow"));
    Integer tailLines = null;
    if (query.get("tailLines") != null) {
      try {
        tailLines = Integer.valueOf(query.get("tailLines"));
      } catch (NumberFormatException e) {
        return Response.status(400, "BadRequest", "invalid tailLines: " + query.get("tailLines"));
      }
    }
    Optional<InputStream> log = source == null ? Optional.empty()
        : source.open(namespace, name, container, follow, tailLines);
    if (log.isEmpty()) {
      StatusDetails details = new StatusDetails();
      details.setName(name);
      details.setKind("pods/log");
      return Response.json(404, Response.failure(404, "NotFound", "the server could not find the requested resource "
          + "( pods/log " + name + ")", details));
    }
    try (InputStream in = log.get()) {
      exchange.getResponseHeaders().set("Content-Type", "text/plain");
      if (!follow) {
        byte[] bytes = in.readAllBytes();
        if (tailLines != null) {
          bytes = tail(bytes, tailLines);
        }
        exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
        return null;
      }
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    }
    return null;
  }

  static byte[] tail(byte[] bytes, int lines) {
    if (lines <= 0) {
      return new byte[0];
    }
    int end = bytes.length;
    int start = end;
    int seen = 0;
    // a final newline ends the last line, it does not start another
    int i = end > 0 && bytes[end - 1] == '\n' ? end - 2 : end - 1;
    for (; i >= 0; i--) {
      if (bytes[i] == '\n' && ++seen == lines) {
        break;
      }
    }
    start = i + 1;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes, start, end - start);
    return out.toByteArray();
  }

  private static List<String> names(JsonNode containers) {
    List<String> names = new ArrayList<>();
    containers.forEach(c -> names.add(c.path("name").asText()));
    return names;
  }

  private static String bracketed(List<String> names) {
    return "[" + String.join(" ", names) + "]";
  }
}
