package io.kftrainer.operator.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** What the health and metrics servers share: read-only endpoints on the JDK's HTTP server and their threads. */
final class HttpEndpoints {

  private HttpEndpoints() {
  }

  /** An answer: status, content type, body. */
  record Response(int code, String contentType, byte[] body) {

    static Response text(int code, String text) {
      return new Response(code, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  @FunctionalInterface
  interface Endpoint {
    Response answer(HttpExchange exchange) throws IOException;
  }

  /** {@code endpoint} for GET and HEAD; 405 for other methods. */
  static HttpHandler get(Endpoint endpoint) {
    return exchange -> {
      try (exchange) {
        String method = exchange.getRequestMethod();
        Response response = "GET".equals(method) || "HEAD".equals(method) ? endpoint.answer(exchange)
            : Response.text(405, "only GET is allowed");
        send(exchange, response, "HEAD".equals(method));
      }
    };
  }

  static void send(HttpExchange exchange, Response response, boolean head) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    exchange.sendResponseHeaders(response.code(), head ? -1 : response.body().length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    }
  }

  /** A small pool of daemon threads named {@code <prefix>-<n>}: probes and scrapes are rare and short. */
  static ExecutorService executor(String prefix, int threads) {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }
}
