package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import io.fabric8.kubernetes.api.model.StatusDetails;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET pods/NAME/log} through a {@link PodLogSource}, with kube-apiserver's answers for bad requests: the
 * options of {@code PodLogOptions} ({@code follow}, {@code tailLines}, {@code limitBytes}, {@code sinceSeconds},
 * {@code sinceTime}, {@code timestamps}, {@code previous}), validated as kube-apiserver does, and the log streamed,
 * never read whole.
 */
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
    PodLogSource.Request request;
    Long limitBytes;
    try {
      Long tailLines = longParameter(query, "tailLines");
      limitBytes = longParameter(query, "limitBytes");
      Long sinceSeconds = longParameter(query, "sinceSeconds");
      Instant sinceTime = query.get("sinceTime") == null ? null : Instant.parse(query.get("sinceTime"));
      List<String> causes = new ArrayList<>();
      if (tailLines != null && tailLines < 0) {
        causes.add("tailLines: Invalid value: " + tailLines + ": must be greater than or equal to 0");
      }
      if (limitBytes != null && limitBytes < 1) {
        causes.add("limitBytes: Invalid value: " + limitBytes + ": must be greater than 0");
      }
      if (sinceSeconds != null && sinceTime != null) {
        causes.add("Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified");
      } else if (sinceSeconds != null && sinceSeconds < 1) {
        causes.add("sinceSeconds: Invalid value: " + sinceSeconds + ": must be greater than 0");
      }
      if (!causes.isEmpty()) {
        return Response.json(422, Response.failure(422, "Invalid", "PodLogOptions \"" + name + "\" is invalid: "
            + (causes.size() == 1 ? causes.get(0) : "[" + String.join(", ", causes) + "]"), null));
      }
      if (sinceSeconds != null) {
        sinceTime = Instant.now().minusSeconds(sinceSeconds);
      }
      request = new PodLogSource.Request(bool(query, "follow"),
          tailLines == null ? null : (int) Math.min(Integer.MAX_VALUE, tailLines), sinceTime,
          bool(query, "timestamps"), bool(query, "previous"));
    } catch (NumberFormatException | DateTimeParseException e) {
      return Response.status(400, "BadRequest", "invalid log options: " + e.getMessage());
    }
    Optional<InputStream> log;
    try {
      log = source == null ? Optional.empty() : source.open(namespace, name, container, request);
    } catch (IllegalArgumentException e) {
      return Response.status(400, "BadRequest", e.getMessage());
    }
    if (log.isEmpty()) {
      StatusDetails details = new StatusDetails();
      details.setName(name);
      details.setKind("pods/log");
      return Response.json(404, Response.failure(404, "NotFound", "the server could not find the requested resource "
          + "( pods/log " + name + ")", details));
    }
    // streamed as it is read, whole or followed: the server never holds a log, only a buffer of it
    try (InputStream in = log.get()) {
      exchange.getResponseHeaders().set("Content-Type", "text/plain");
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        byte[] buffer = new byte[8192];
        long left = limitBytes == null ? Long.MAX_VALUE : limitBytes;
        int n;
        while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
          out.write(buffer, 0, n);
          left -= n;
          if (request.follow()) {
            out.flush();
          }
        }
      }
    }
    return null;
  }

  private static Long longParameter(Map<String, String> query, String name) {
    String value = query.get(name);
    if (value == null) {
      return null;
    }
    try {
      return Long.valueOf(value);
    } catch (NumberFormatException e) {
      throw new NumberFormatException(name + ": " + value + " is not an integer");
    }
  }

  private static boolean bool(Map<String, String> query, String name) {
    return QueryBool.of(query.get(name));
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
