package io.kftrainer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK's server with {@link EarlyAnswers} in front of handlers that answer without reading the body: the client
 * reads the answer whatever it still had to send, the connection then closes in order (no reset), a fully read body
 * keeps its connection, and a client that stops sending is cut off at the deadline without the interrupt reaching
 * the next exchange.
 */
class EarlyAnswersTest {

  private static final byte[] REFUSAL = "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}"
      .getBytes(StandardCharsets.UTF_8);

  private HttpServer server;
  private ExecutorService executor;

  private void serve(EarlyAnswers filter, HttpHandler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    // one thread: the exchange after a deadline runs on the thread the deadline interrupted
    executor = Executors.newSingleThreadExecutor();
    server.setExecutor(executor);
    server.createContext("/", handler).getFilters().add(filter);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** Answers 403 without reading the body. */
  private static void refuse(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.sendResponseHeaders(403, REFUSAL.length);
      exchange.getResponseBody().write(REFUSAL);
    }
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {300, 1 << 20, 64 << 20})
  void theJdkHttpClientReadsARefusalWhateverTheBodyItStillSends(int size) throws Exception {
    serve(new EarlyAnswers(), EarlyAnswersTest::refuse);
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    for (boolean chunked : new boolean[] {false, true}) {
      HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.ofInputStream(() -> zeros(size));
      HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri()).timeout(Duration.ofSeconds(30))
          .POST(chunked ? body : HttpRequest.BodyPublishers.fromPublisher(body, size)).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(answer.statusCode()).isEqualTo(403);
      assertThat(answer.body()).isEqualTo(new String(REFUSAL, StandardCharsets.UTF_8));
      assertThat(answer.headers().firstValue("Connection")).hasValue("close");
    }
  }

  @Test
  void theAnswerComesFirstThenTheRestOfTheBodyIsReadThenTheConnectionClosesInOrder() throws Exception {
    serve(new EarlyAnswers(), EarlyAnswersTest::refuse);
    int size = 8 << 20;
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getAddress().getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + size + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();

      String answer = readAnswer(socket.getInputStream());
      // the server reads what the client sends after the answer, so none of it is refused with a reset
      zeros(size).transferTo(out);
      out.flush();

      assertThat(answer).startsWith("HTTP/1.1 403").containsIgnoringCase("Connection: close")
          .endsWith(new String(REFUSAL, StandardCharsets.UTF_8));
      assertThat(socket.getInputStream().read()).as("an orderly close once the body is read").isEqualTo(-1);
    }
  }

  @Test
  void aBodyTheHandlerReadKeepsItsConnection() throws Exception {
    serve(new EarlyAnswers(), exchange -> {
      try (exchange) {
        byte[] read = exchange.getRequestBody().readAllBytes();
        byte[] answer = Integer.toString(read.length).getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
      }
    });
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getAddress().getPort())) {
      socket.setSoTimeout(30_000);
      for (int i = 0; i < 2; i++) {
        socket.getOutputStream().write("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"
            .getBytes(StandardCharsets.US_ASCII));

        String answer = readAnswer(socket.getInputStream());

        assertThat(answer).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("Connection: close").endsWith("5");
      }
    }
  }

  @Test
  void anAnswerWithoutBodyComesAfterTheBodyIsRead() throws Exception {
    serve(new EarlyAnswers(), exchange -> {
      try (exchange) {
        exchange.sendResponseHeaders(204, -1);
      }
    });
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri()).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() ->
            zeros(1 << 20)), 1 << 20)).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(204);
  }

  @Test
  void aClientThatStopsSendingIsCutOffAtTheDeadlineAndTheNextExchangeIsNotInterrupted() throws Exception {
    AtomicBoolean interrupted = new AtomicBoolean();
    serve(new EarlyAnswers(EarlyAnswers.DRAIN_BYTES, Duration.ofMillis(500)), exchange -> {
      interrupted.set(Thread.currentThread().isInterrupted());
      refuse(exchange);
    });
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getAddress().getPort())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\nabc"
          .getBytes(StandardCharsets.US_ASCII));

      assertThat(readAnswer(socket.getInputStream())).startsWith("HTTP/1.1 403");
      int next;
      try {
        next = socket.getInputStream().read();
      } catch (IOException e) {
        next = -1; // a reset: the body was not read to its end
      }
      assertThat(next).as("the server closed the connection").isEqualTo(-1);
    }

    HttpResponse<String> after = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri())
        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());

    assertThat(after.statusCode()).isEqualTo(403);
    assertThat(interrupted).isFalse();
  }

  private URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  private static InputStream zeros(long size) {
    return new InputStream() {
      private long left = size;

      @Override
      public int read() {
        return left-- > 0 ? 'a' : -1;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) {
        if (left <= 0) {
          return -1;
        }
        int n = (int) Math.min(length, left);
        java.util.Arrays.fill(buffer, offset, offset + n, (byte) 'a');
        left -= n;
        return n;
      }
    };
  }

  /** One answer with a Content-Length body, read from the socket. */
  private static String readAnswer(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed before the answer's headers: " + head);
      }
      head.write(b);
    }
    String headers = head.toString(StandardCharsets.US_ASCII);
    int length = headers.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
        .map(l -> Integer.parseInt(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(0);
    return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
