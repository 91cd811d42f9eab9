package io.kftrainer.webhook;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.http.EarlyAnswers;
import io.kftrainer.webhook.cert.ServingCertificate;
import io.kftrainer.webhook.cert.WebhookCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission webhooks over HTTPS ({@code --webhook-port}, 9443 by default), on the JDK's HTTPS server: one
 * {@link AdmissionHandler} per path ({@link WebhookPaths}), {@code POST}ed AdmissionReviews in, AdmissionReviews
 * out ({@link AdmissionReviews}).
 *
 * <ul>
 *   <li>TLS 1.3 and 1.2 only unless the {@code tls} options of the Configuration say otherwise
 *       ({@link TlsOptions}); no client certificate asked.</li>
 *   <li>The certificate comes from {@link WebhookCertificates} through a key manager it swaps on renewal: new
 *       handshakes get the new certificate, the listener stays.</li>
 *   <li>Bodies above {@value #MAX_REQUEST_BYTES} bytes are refused with 413 (controller-runtime's limit: an
 *       AdmissionReview holds the object and the old object); other methods than POST with 405, other content
 *       types than JSON with 415, bodies that are no AdmissionReview with 400.</li>
 *   <li>{@value #THREADS} threads handle requests, with up to {@value #QUEUE} waiting: more than kube-apiserver's
 *       default limits let it have in flight (400 requests and 200 mutating ones), since the API server does not
 *       try a webhook call again, so a request turned away is an admission failed. Beyond the queue the server's
 *       dispatcher runs the request itself and accepts nothing meanwhile: the clients wait, none is dropped. (The
 *       queue was 64, and the JDK's server closes the connection of a request its executor rejects: with 64 clients
 *       through kube-apiserver, 348 of 1,000 admissions failed with {@code connection reset by peer}.)</li>
 * </ul>
 *
 * <p>The TrainJob validating webhook reads runtimes from the controller's informer caches: until they are synced
 * it answers {@code 503} with {@code Retry-After: 1} and says why (it used to deny with a
 * {@code NullPointerException}), and the API server's {@code failurePolicy} decides. The other webhooks read no
 * cache and answer from the start (the shipped runtimes are admitted while the operator starts).
 * {@link #isServing()} (the readiness check {@value #READINESS_CHECK}) is true once the server listens with a
 * certificate and the caches are synced: a starting replica stays out of the webhook Service.
 */
public final class WebhookServer {

  public static final String READINESS_CHECK = "webhook";
  public static final String LIVENESS_CHECK = "webhook-certificate";
  static final int MAX_REQUEST_BYTES = 7 * 1024 * 1024;
  static final int THREADS = 4;
  static final int QUEUE = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  private static final String JSON = "application/json";
  /** The paths whose handler reads the controller's informer caches. */
  private static final Set<String> READS_CACHES = Set.of(WebhookPaths.VALIDATE_TRAINJOB);

  static {
    // before the first HttpsServer of the JVM: an AdmissionReview otherwise stalls on Nagle + delayed ACK
    HttpServerNoDelay.enable();
  }

  private final InetSocketAddress address;
  private final WebhookCertificates certificates;
  private final Map<String, AdmissionHandler> handlers;
  private final AdmissionReviews reviews;
  private final BooleanSupplier cachesSynced;
  private final TlsOptions tlsOptions;
  private final Optional<Filter> requestFilter;
  private volatile HttpsServer server;
  private volatile boolean started;
  private ThreadPoolExecutor executor;

  /** A server whose handlers read no informer cache. */
  public WebhookServer(InetSocketAddress address, WebhookCertificates certificates,
      Map<String, AdmissionHandler> handlers, KubernetesSerialization serialization) {
    this(address, certificates, handlers, serialization, () -> true);
  }

  /**
   * @param cachesSynced whether the informer caches the TrainJob validating webhook reads are synced
   */
  public WebhookServer(InetSocketAddress address, WebhookCertificates certificates,
      Map<String, AdmissionHandler> handlers, KubernetesSerialization serialization, BooleanSupplier cachesSynced) {
    this(address, certificates, handlers, serialization, cachesSynced, TlsOptions.DEFAULTS);
  }

  /** As above, with the TLS settings of the Configuration's {@code tls} section. */
  public WebhookServer(InetSocketAddress address, WebhookCertificates certificates,
      Map<String, AdmissionHandler> handlers, KubernetesSerialization serialization, BooleanSupplier cachesSynced,
      TlsOptions tlsOptions) {
    this(address, certificates, handlers, serialization, cachesSynced, tlsOptions, Optional.empty());
  }

  /**
   * As above, every request of every path passing first through {@code requestFilter} (the operator's metrics of
   * its requests), which sees each one answered, early answers included.
   */
  public WebhookServer(InetSocketAddress address, WebhookCertificates certificates,
      Map<String, AdmissionHandler> handlers, KubernetesSerialization serialization, BooleanSupplier cachesSynced,
      TlsOptions tlsOptions, Optional<Filter> requestFilter) {
    this.requestFilter = Objects.requireNonNull(requestFilter, "requestFilter");
    this.tlsOptions = Objects.requireNonNull(tlsOptions, "tlsOptions");
    this.address = Objects.requireNonNull(address, "address");
    this.certificates = Objects.requireNonNull(certificates, "certificates");
    this.handlers = Map.copyOf(handlers);
    this.reviews = new AdmissionReviews(serialization);
    this.cachesSynced = Objects.requireNonNull(cachesSynced, "cachesSynced");
  }

  /** Obtains a certificate, then listens; an exception leaves nothing listening. */
  public synchronized void start() throws Exception {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    certificates.start();
    try {
      listen();
    } catch (IOException | RuntimeException e) {
      stop();
      throw e;
    }
    started = true;
    LOG.info("Serving the admission webhooks on port {} over TLS, certificate {}", port(),
        certificates.description());
  }

  private void listen() throws IOException {
    SSLContext tls = certificates.keyManager().serverContext();
    HttpsServer https = HttpsServer.create(address, 0);
    https.setHttpsConfigurator(tlsOptions.httpsConfigurator(tls));
    // a 405, 415 or 413 is answered before the body is read: EarlyAnswers makes it reach the API server
    handlers.forEach((path, handler) -> {
      List<Filter> filters = https.createContext(path, exchange -> serve(exchange, handler)).getFilters();
      requestFilter.ifPresent(filters::add);
      filters.add(new EarlyAnswers());
    });
    executor = executor();
    https.setExecutor(executor);
    https.start();
    server = https;
  }

  /** Stops listening and the certificate's renewal; may be called without a successful {@link #start()}. */
  public synchronized void stop() {
    HttpsServer running = server;
    server = null;
    if (running != null) {
      running.stop(1);
    }
    if (executor != null) {
      executor.shutdownNow();
    }
    certificates.stop();
  }

  /** Whether the server listens, has a certificate to present and every webhook can answer. */
  public boolean isServing() {
    return server != null && certificates.keyManager().current().isPresent() && cachesSynced.getAsBoolean();
  }

  /**
   * The liveness check {@value #LIVENESS_CHECK}: a started server listens and presents a certificate valid at
   * {@code now}. False once its certificate expired without a renewal, when every admission fails its TLS
   * handshake; true before {@link #start()}, which the probe does not judge.
   */
  public boolean isAlive(Instant now) {
    if (!started) {
      return true;
    }
    Optional<ServingCertificate> current = certificates.keyManager().current();
    return server != null && current.isPresent() && current.get().notAfter().isAfter(now);
  }

  /** The port listened on (the chosen one when the address asked for port 0). */
  public int port() {
    HttpsServer running = server;
    if (running == null) {
      throw new IllegalStateException("not started");
    }
    return running.getAddress().getPort();
  }

  public WebhookCertificates certificates() {
    return certificates;
  }

  private void serve(HttpExchange exchange, AdmissionHandler handler) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Allow", "POST");
        reply(exchange, 405, "only POST is allowed");
        return;
      }
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith(JSON)) {
        reply(exchange, 415, "the body must be " + JSON);
        return;
      }
      byte[] body = readBounded(exchange);
      if (body == null) {
        reply(exchange, 413, "the body exceeds " + MAX_REQUEST_BYTES + " bytes");
        return;
      }
      if (READS_CACHES.contains(exchange.getHttpContext().getPath()) && !cachesSynced.getAsBoolean()) {
        exchange.getResponseHeaders().set("Retry-After", "1");
        reply(exchange, 503, "the trainer operator is starting: its caches of TrainingRuntimes and "
            + "ClusterTrainingRuntimes are not synced yet");
        return;
      }
      byte[] answer;
      try {
        answer = reviews.answer(body, handler);
      } catch (AdmissionReviews.BadRequestException e) {
        reply(exchange, 400, e.getMessage());
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", JSON);
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    }
  }

  /** The body, or null if it is longer than {@link #MAX_REQUEST_BYTES}. */
  private static byte[] readBounded(HttpExchange exchange) throws IOException {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > MAX_REQUEST_BYTES) {
          return null;
        }
      } catch (NumberFormatException e) {
        // the bounded read below decides
      }
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_REQUEST_BYTES + 1);
      return body.length > MAX_REQUEST_BYTES ? null : body;
    }
  }

  private static void reply(HttpExchange exchange, int code, String message) throws IOException {
    byte[] text = (message + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(code, text.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(text);
    }
  }

  private static ThreadPoolExecutor executor() {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
        runnable -> {
          Thread thread = new Thread(runnable, "webhook-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
  }
}
