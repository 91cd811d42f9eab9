package io.kftrainer.ui;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kftrainer.statusserver.history.MetricHistory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web UI: its pages (static files of the jar, {@value #ASSETS}), and what they read, always as the signed-in
 * user ({@link UserApi}): the Kubernetes API through {@link ApiRelay}, the metric history through
 * {@link MetricHistoryEndpoint}.
 *
 * <p>Signing in: a session cookie ({@link Sessions}), opened by a one-time login link ({@link #loginLink}) or by a
 * token posted to {@code /login}; scripts may send {@code Authorization: Bearer} instead. The token is never in an
 * answer or a log line. With {@link Settings#hosts} (loopback in {@code local}) a request naming another host is
 * refused, so that a web page cannot reach the UI through a DNS name of its own.
 *
 * <p>Threads: {@value #THREADS}, none held by a watch or a followed log ({@link ApiRelay}).
 */
public final class UiServer implements AutoCloseable {

  static final String ASSETS = "META-INF/trainer-ui/";
  static final String COOKIE = "kftrainer-ui";
  static final int THREADS = 4;
  private static final int QUEUE = 256;
  private static final int MAX_FORM_BYTES = 16 * 1024;
  private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
      "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml");
  private static final String CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
      + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'";
  private static final Logger LOG = LoggerFactory.getLogger(UiServer.class);

  /**
   * @param address where to listen
   * @param tls the certificate to serve HTTPS with; null for plain HTTP (loopback only)
   * @param hosts the {@code Host} headers accepted ({@code 127.0.0.1:<port>}, {@code localhost:<port>}); empty for
   *     any
   */
  public record Settings(InetSocketAddress address, SSLContext tls, Set<String> hosts) {
    public Settings {
      Objects.requireNonNull(address, "address");
      hosts = Set.copyOf(hosts);
      if (tls == null && !address.getAddress().isLoopbackAddress()) {
        throw new IllegalArgumentException("the UI serves plain HTTP on loopback only, not on " + address);
      }
    }

    /** Plain HTTP on loopback, for this machine's browser: hosts {@code 127.0.0.1}, {@code localhost}. */
    public static Settings loopback(int port) {
      return new Settings(new InetSocketAddress("127.0.0.1", port), null, Set.of());
    }
  }

  private final Settings settings;
  private final UserApi api;
  private final Sessions sessions;
  private final ApiRelay relay;
  private final MetricHistoryEndpoint history;
  private final Map<String, byte[]> assets = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile HttpServer server;
  private ThreadPoolExecutor executor;

  public UiServer(Settings settings, UserApi api, MetricHistory history) {
    this(settings, api, history, Clock.systemUTC());
  }

  UiServer(Settings settings, UserApi api, MetricHistory history, Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.api = Objects.requireNonNull(api, "api");
    this.sessions = new Sessions(clock);
    this.relay = new ApiRelay(api.http());
    this.history = new MetricHistoryEndpoint(api, history);
  }

  public synchronized void start() throws IOException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    HttpServer http;
    if (settings.tls() != null) {
      HttpsServer https = HttpsServer.create(settings.address(), 0);
      https.setHttpsConfigurator(new HttpsConfigurator(settings.tls()));
      http = https;
    } else {
      http = HttpServer.create(settings.address(), 0);
    }
    http.createContext("/", this::serve);
    AtomicInteger count = new AtomicInteger();
    executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
        runnable -> {
          Thread thread = new Thread(runnable, "ui-server-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    http.setExecutor(executor);
    http.start();
    server = http;
    LOG.info("Serving the UI on {}", url());
  }

  /** The UI's address, e.g. {@code http://127.0.0.1:8002/}. */
  public String url() {
    HttpServer running = server;
    if (running == null) {
      throw new IllegalStateException("not started");
    }
    InetSocketAddress address = running.getAddress();
    String host = address.getAddress().getHostAddress();
    return (settings.tls() != null ? "https://" : "http://") + (host.contains(":") ? "[" + host + "]" : host) + ":"
        + address.getPort() + "/";
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** A link that signs a browser in as the holder of {@code token}, once. */
  public String loginLink(String token) {
    return url() + "login?code=" + sessions.loginCode(token);
  }

  @Override
  public synchronized void close() {
    HttpServer running = server;
    server = null;
    if (running != null) {
      running.stop(0);
    }
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  private void serve(HttpExchange exchange) {
    try {
      route(exchange);
    } catch (UserApi.Unauthenticated e) {
      Answers.send(exchange, Answers.status(401, "Unauthorized", "Unauthorized: sign in again"));
    } catch (UserApi.Forbidden e) {
      Answers.send(exchange, Answers.status(403, "Forbidden", e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Failed to answer {} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
          e.toString());
      Answers.send(exchange, Answers.status(500, "InternalError", "Internal error"));
    }
  }

  private void route(HttpExchange exchange) throws IOException, InterruptedException, UserApi.Unauthenticated,
      UserApi.Forbidden {
    String path = exchange.getRequestURI().getRawPath();
    String method = exchange.getRequestMethod();
    if (!hostAllowed(exchange)) {
      Answers.send(exchange, Answers.status(403, "Forbidden", "Forbidden: unknown host"));
      return;
    }
    if (path.equals("/login")) {
      login(exchange, method);
      return;
    }
    if (path.equals("/logout") && method.equals("POST")) {
      sessions.close(cookie(exchange).orElse(null));
      exchange.getResponseHeaders().add("Set-Cookie", COOKIE + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
      redirect(exchange, "/");
      return;
    }
    if (!method.equals("GET")) {
      Answers.send(exchange, Answers.status(405, "MethodNotAllowed", "Method not allowed: the UI only reads"));
      return;
    }
    if (path.startsWith("/k8s/") || path.startsWith("/history/") || path.equals("/whoami")) {
      Optional<String> token = token(exchange);
      if (token.isEmpty()) {
        Answers.send(exchange, Answers.status(401, "Unauthorized", "Unauthorized: sign in"));
        return;
      }
      data(exchange, path, token.get());
      return;
    }
    asset(exchange, path);
  }

  private void data(HttpExchange exchange, String path, String token) throws IOException, InterruptedException,
      UserApi.Unauthenticated, UserApi.Forbidden {
    if (path.equals("/whoami")) {
      Optional<String> user = cookie(exchange).flatMap(sessions::user);
      if (user.isEmpty()) {
        user = api.userOf(token);
      }
      Answers.send(exchange, user.isEmpty() ? Answers.status(401, "Unauthorized", "Unauthorized: sign in again")
          : Answers.json(200, Map.of("user", user.get())));
      return;
    }
    Matcher history = MetricHistoryEndpoint.PATH.matcher(path);
    if (history.matches()) {
      this.history.serve(exchange, history, token);
      return;
    }
    if (!path.startsWith("/k8s/")) {
      Answers.send(exchange, Answers.status(404, "NotFound", "Not found"));
      return;
    }
    String kubernetesPath = path.substring("/k8s".length());
    if (!ApiRelay.allowed(kubernetesPath)) {
      Answers.send(exchange, Answers.status(404, "NotFound", "Not found: the UI does not read " + kubernetesPath));
      return;
    }
    String query = exchange.getRequestURI().getRawQuery();
    relay.relay(exchange, api.get(token, kubernetesPath + (query == null ? "" : "?" + query)).build());
  }

  private void login(HttpExchange exchange, String method) throws IOException, InterruptedException {
    Optional<String> token;
    if (method.equals("GET")) {
      token = sessions.redeem(query(exchange.getRequestURI()).get("code"));
      if (token.isEmpty()) {
        redirect(exchange, "/#/login?expired");
        return;
      }
    } else if (method.equals("POST")) {
      if (!sameOrigin(exchange)) {
        Answers.send(exchange, Answers.status(403, "Forbidden", "Forbidden: sign in from the UI's own page"));
        return;
      }
      byte[] form = exchange.getRequestBody().readNBytes(MAX_FORM_BYTES + 1);
      token = Optional.ofNullable(query(new String(form, StandardCharsets.UTF_8)).get("token"))
          .map(String::trim).filter(value -> !value.isEmpty() && form.length <= MAX_FORM_BYTES);
    } else {
      Answers.send(exchange, Answers.status(405, "MethodNotAllowed", "Method not allowed"));
      return;
    }
    Optional<String> user = token.isEmpty() ? Optional.empty() : api.userOf(token.get());
    if (user.isEmpty()) {
      redirect(exchange, "/#/login?failed");
      return;
    }
    String session = sessions.open(token.get(), user.get());
    exchange.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + session + "; Path=/; HttpOnly; SameSite=Strict"
        + (settings.tls() != null ? "; Secure" : ""));
    redirect(exchange, "/");
  }

  private Optional<String> token(HttpExchange exchange) {
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      String token = authorization.substring(7).trim();
      return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
    return cookie(exchange).flatMap(sessions::token);
  }

  private static Optional<String> cookie(HttpExchange exchange) {
    for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
      for (String part : header.split(";")) {
        String[] pair = part.trim().split("=", 2);
        if (pair.length == 2 && pair[0].equals(COOKIE)) {
          return Optional.of(pair[1]);
        }
      }
    }
    return Optional.empty();
  }

  private boolean hostAllowed(HttpExchange exchange) {
    if (settings.hosts().isEmpty() && settings.tls() != null) {
      return true;
    }
    String host = exchange.getRequestHeaders().getFirst("Host");
    return host != null && hosts().contains(host.toLowerCase(java.util.Locale.ROOT));
  }

  private Set<String> hosts() {
    if (!settings.hosts().isEmpty()) {
      return settings.hosts();
    }
    int port = port();
    return Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
  }

  /** A form posted from another site's page carries that site's Origin: refused. */
  private boolean sameOrigin(HttpExchange exchange) {
    String origin = exchange.getRequestHeaders().getFirst("Origin");
    if (origin == null) {
      return true;
    }
    String host = exchange.getRequestHeaders().getFirst("Host");
    return host != null && URI.create(origin).getRawAuthority() != null
        && URI.create(origin).getRawAuthority().equalsIgnoreCase(host);
  }

  private static void redirect(HttpExchange exchange, String location) throws IOException {
    exchange.getResponseHeaders().set("Location", location);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(303, -1);
    exchange.close();
  }

  private void asset(HttpExchange exchange, String path) throws IOException {
    String name = path.equals("/") ? "index.html" : path.substring(1);
    if (name.contains("..") || name.startsWith("/") || name.isEmpty()) {
      Answers.send(exchange, Answers.status(404, "NotFound", "Not found"));
      return;
    }
    byte[] body = assets.get(name);
    if (body == null) {
      body = readAsset(name);
      if (body.length > 0) {
        assets.put(name, body); // the files of the jar only: a name asked for in vain is not kept
      }
    }
    if (body.length == 0) {
      Answers.send(exchange, Answers.status(404, "NotFound", "Not found"));
      return;
    }
    String extension = name.substring(name.lastIndexOf('.') + 1);
    exchange.getResponseHeaders().set("Content-Security-Policy", CSP);
    exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
    // same-origin, not no-referrer: with no-referrer the browser sends "Origin: null" with the sign-in form
    exchange.getResponseHeaders().set("Referrer-Policy", "same-origin");
    Answers.send(exchange, new Answers.Answer(200, TYPES.getOrDefault(extension, "application/octet-stream"),
        body));
  }

  /** A file of the pages, read once; empty when there is none. */
  private static byte[] readAsset(String name) {
    try (InputStream in = UiServer.class.getClassLoader().getResourceAsStream(ASSETS + name)) {
      return in == null ? new byte[0] : in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Map<String, String> query(URI uri) {
    return query(uri.getRawQuery());
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> values = new HashMap<>();
    if (raw == null) {
      return values;
    }
    for (String pair : raw.split("&")) {
      String[] kv = pair.split("=", 2);
      values.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
          kv.length == 2 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
    }
    return values;
  }
}
