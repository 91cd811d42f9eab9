package io.kftrainer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK's server with {@link ExchangeAttributes} on a context: exchanges in flight at the same time each read the
 * attribute a filter set for them, with {@link EarlyAnswers} before or after it still answering before the body is
 * read, and over TLS the handler still gets the session.
 */
class ExchangeAttributesTest {

  private static final int EXCHANGES = 4;
  private static final String CALLER = "caller";

  private HttpServer server;
  private HttpContext context;
  private final ExecutorService executor = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void serve(HttpServer created, HttpHandler handler, Filter... filters) {
    server = created;
    server.setExecutor(executor);
    context = server.createContext("/", handler);
    context.getFilters().addAll(List.of(filters));
    context.getFilters().add(new NamesTheCaller());
    server.start();
  }

  /** Sets the attribute from the request's header, as an authenticating filter sets the user. */
  private static final class NamesTheCaller extends Filter {
    @Override
    public String description() {
      return "the caller from X-Caller";
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
      exchange.setAttribute(CALLER, exchange.getRequestHeaders().getFirst("X-Caller"));
      chain.doFilter(exchange);
    }
  }

  /** Answers the caller its filter named, once every exchange has been named, without reading the body. */
  private static HttpHandler answersTheCallerOnceAllAreNamed() {
    CyclicBarrier named = new CyclicBarrier(EXCHANGES);
    return exchange -> {
      try (exchange) {
        named.await(30, TimeUnit.SECONDS);
        byte[] caller = String.valueOf(exchange.getAttribute(CALLER)).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, caller.length);
        exchange.getResponseBody().write(caller);
      } catch (Exception e) {
        throw new IOException(e);
      }
    };
  }

  @ParameterizedTest(name = "EarlyAnswers {0}")
  @ValueSource(strings = {"before", "after"})
  void exchangesInFlightTogetherEachReadTheirOwnAttributes(String earlyAnswers) throws Exception {
    Filter[] filters = earlyAnswers.equals("before")
        ? new Filter[] {new EarlyAnswers(), new ExchangeAttributes()}
        : new Filter[] {new ExchangeAttributes(), new EarlyAnswers()};
    serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
        answersTheCallerOnceAllAreNamed(), filters);
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < EXCHANGES; i++) {
      // a body the handler never reads: EarlyAnswers still makes its answer reach the client
      answers.add(client.sendAsync(HttpRequest.newBuilder(uri("http")).timeout(Duration.ofSeconds(30))
          .header("X-Caller", "caller-" + i).POST(HttpRequest.BodyPublishers.fromPublisher(
              HttpRequest.BodyPublishers.ofInputStream(() -> zeros(1 << 20)), 1 << 20)).build(),
          HttpResponse.BodyHandlers.ofString()));
    }

    for (int i = 0; i < EXCHANGES; i++) {
      HttpResponse<String> answer = answers.get(i).get(60, TimeUnit.SECONDS);
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("caller-" + i);
      assertThat(answer.headers().firstValue("Connection")).hasValue("close");
    }
    assertThat(context.getAttributes()).as("the context's own attributes").doesNotContainKey(CALLER);
  }

  @Test
  void aNullValueRemovesAnAttribute() throws Exception {
    serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), exchange -> {
      try (exchange) {
        String before = String.valueOf(exchange.getAttribute(CALLER));
        exchange.setAttribute(CALLER, null);
        byte[] answer = (before + "," + exchange.getAttribute(CALLER)).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
      }
    }, new ExchangeAttributes());

    HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri("http"))
        .header("X-Caller", "someone").build(), HttpResponse.BodyHandlers.ofString());

    assertThat(answer.body()).isEqualTo("someone,null");
  }

  @Test
  void overTlsTheHandlerGetsTheSession(@TempDir Path dir) throws Exception {
    SSLContext tls = selfSigned(dir);
    HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(tls));
    serve(https, exchange -> {
      try (exchange) {
        byte[] answer = (exchange.getAttribute(CALLER) + " over "
            + (exchange instanceof HttpsExchange secure ? secure.getSSLSession().getProtocol() : "plain HTTP"))
            .getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
      }
    }, new ExchangeAttributes(), new EarlyAnswers());

    HttpResponse<String> answer = HttpClient.newBuilder().sslContext(tls).build().send(
        HttpRequest.newBuilder(uri("https")).header("X-Caller", "someone").build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(answer.body()).startsWith("someone over TLSv1.");
  }

  private URI uri(String scheme) {
    return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  /** A key and its self-signed certificate for 127.0.0.1 made by the JDK's keytool, as server key and client trust. */
  private static SSLContext selfSigned(Path dir) throws Exception {
    Path store = dir.resolve("server.p12");
    char[] password = "changeit".toCharArray();
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-keyalg", "EC", "-groupname", "secp256r1", "-alias", "server", "-dname", "CN=127.0.0.1",
        "-ext", "san=ip:127.0.0.1", "-validity", "1", "-storetype", "PKCS12", "-keystore", store.toString(),
        "-storepass", new String(password)).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue()).as(output).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, password);
    }
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, password);
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(keys);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
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
}
