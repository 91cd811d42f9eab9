package io.kftrainer.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The UI server's JSON answers: a body with its code, refusals as Kubernetes {@code Status} objects. */
final class Answers {

  static final ObjectMapper JSON = new ObjectMapper();

  private Answers() {
  }

  record Answer(int code, String contentType, byte[] body) {
  }

  static Answer json(int code, Object body) {
    try {
      return new Answer(code, "application/json", JSON.writeValueAsBytes(body));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static Answer status(int code, String reason, String message) {
    ObjectNode status = JSON.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
    return json(code, status);
  }

  /** Sends the answer and closes the exchange; a browser gone is not an error. */
  static void send(HttpExchange exchange, Answer answer) {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", answer.contentType());
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      exchange.sendResponseHeaders(answer.code(), answer.body().length == 0 ? -1 : answer.body().length);
      if (answer.body().length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(answer.body());
        }
      }
    } catch (IOException e) {
      // the browser went away
    }
  }

  static Answer text(int code, String contentType, String body) {
    return new Answer(code, contentType, body.getBytes(StandardCharsets.UTF_8));
  }
}
