package io.kftrainer.operator.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
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

  /** A started server and its threads, stopped together. */
  static final class Listener {
    private final HttpServer server;
    private final ExecutorService executor;

    private Listener(HttpServer server, ExecutorService executor) {
      this.server = server;
      this.executor = executor;
    }

    /** Starts {@code server} (its contexts created) on two daemon threads named {@code <prefix>-<n>}. */
    static Listener start(HttpServer server, String threadPrefix) {
      ExecutorService executor = executor(threadPrefix, 2);
      server.setExecutor(executor);
      server.start();
      return new Listener(server, executor);
    }

    /** The port listened on (the chosen one when asked for port 0). */
    int port() {
      return server.getAddress().getPort();
    }

    void stop() {
      server.stop(0);
      executor.shutdownNow();
    }
  }

  /** A small pool of daemon threads named {@code <prefix>-<n>}: probes and scrapes are rare and short. */
  private static ExecutorService executor(String prefix, int threads) {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }
}
