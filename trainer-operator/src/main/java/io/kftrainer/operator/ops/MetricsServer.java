package io.kftrainer.operator.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.webhook.TlsOptions;
import io.kftrainer.operator.metrics.GoRuntimeEquivalents;
import io.kftrainer.operator.metrics.ProcessMetrics;
import io.kftrainer.operator.metrics.ReservedNameCounters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics} in the Prometheus text format (OpenMetrics when asked for) of the operator's meter registry:
 * JOSDK's reconcile metrics, controller-runtime's names for upstream's dashboards ({@code ControllerRuntimeMetrics},
 * {@code RestClientMetrics}...), the operator's {@code kubeflow_trainer_*}, and the JVM and process metrics this
 * server binds at start.
 *
 * <p>As upstream's manager ({@code metrics} of its Configuration, upstream #3912):
 *
 * <ul>
 *   <li>HTTPS by default ({@code secureServing: true}), with the webhook server's serving certificate (the same key
 *       manager, so a rotation reaches both) and the {@code tls} options; plain HTTP only when
 *       {@code secureServing} is false.</li>
 *   <li>With {@code auth.enabled} every scrape needs a bearer token that the API server accepts (TokenReview) for a
 *       user allowed {@code get} on the non-resource URL {@code /metrics} (SubjectAccessReview), see
 *       {@link DelegatingAuth}: 401 without, 403 when not allowed, as controller-runtime's filter answers.</li>
 *   <li>{@code bindAddress: "0"} serves nothing.</li>
 * </ul>
 *
 * <p>A registry that is not a Prometheus one has nothing to scrape: 404.
 */
public final class MetricsServer implements OperatorComponent {

  public static final String METRICS = "/metrics";

  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  static final String OPEN_METRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";
  private static final String OPEN_METRICS_EOF = "# EOF\n";

  private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);

  static {
    HttpServerNoDelay.enable();
  }

  private final InetSocketAddress address;
  private final Optional<Supplier<SSLContext>> tls;
  private final TlsOptions tlsOptions;
  private final Optional<DelegatingAuth> auth;
  private final MeterRegistry registry;
  private final Optional<PrometheusMeterRegistry> prometheus;
  private HttpEndpoints.Listener listener;
  private JvmGcMetrics gcMetrics;

  /**
   * @param tls the TLS context to serve with (read at {@link #start()}); empty: plain HTTP
   * @param auth the access check of every scrape; empty: none
   */
  public MetricsServer(InetSocketAddress address, Optional<Supplier<SSLContext>> tls, TlsOptions tlsOptions,
      Optional<DelegatingAuth> auth, MeterRegistry registry) {
    this.address = Objects.requireNonNull(address, "address");
    this.tls = Objects.requireNonNull(tls, "tls");
    this.tlsOptions = Objects.requireNonNull(tlsOptions, "tlsOptions");
    this.auth = Objects.requireNonNull(auth, "auth");
    if (auth.isPresent() && tls.isEmpty()) {
      throw new IllegalArgumentException("metrics authentication requires HTTPS: clients send bearer tokens");
    }
    this.registry = Objects.requireNonNull(registry, "registry");
    this.prometheus = prometheus(registry);
  }

  /** Plain HTTP without authentication: {@code local} mode's metrics, and tests. */
  public static MetricsServer plainHttp(InetSocketAddress address, MeterRegistry registry) {
    return new MetricsServer(address, Optional.empty(), TlsOptions.DEFAULTS, Optional.empty(), registry);
  }

  /**
   * The operator's metrics server as its configuration says ({@link OperatorConfig#metrics()}), serving over TLS
   * with {@code serving}, the webhook server's certificate, which is obtained before this server starts (it starts
   * after the webhook server).
   */
  public static OperatorComponent.Factory factory(Supplier<SSLContext> serving) {
    return context -> {
      OperatorConfig config = context.config();
      OperatorConfig.Metrics metrics = config.metrics();
      if (!metrics.enabled()) {
        return OperatorComponent.disabled("metrics-server");
      }
      return new MetricsServer(new InetSocketAddress(metrics.host(), config.metricsPort()),
          metrics.secureServing() ? Optional.of(serving) : Optional.empty(), config.tls(),
          metrics.authEnabled() ? Optional.of(new DelegatingAuth(context.client())) : Optional.empty(),
          context.meterRegistry());
    };
  }

  @Override
  public String name() {
    return "metrics-server";
  }

  @Override
  public synchronized void start() throws IOException {
    if (listener != null) {
      throw new IllegalStateException("already started");
    }
    HttpServer server = tls.isPresent() ? https(tls.get().get()) : HttpServer.create(address, 0);
    server.createContext(METRICS, HttpEndpoints.get(this::metrics));
    bindJvmMetrics();
    listener = HttpEndpoints.Listener.start(server, "metrics-http");
    LOG.info("Serving {} on port {} over {}{}", METRICS, port(), tls.isPresent() ? "HTTPS" : "HTTP",
        auth.isPresent() ? ", for users allowed get on " + METRICS : "");
  }

  private HttpsServer https(SSLContext context) throws IOException {
    HttpsServer https = HttpsServer.create(address, 0);
    https.setHttpsConfigurator(tlsOptions.httpsConfigurator(context));
    return https;
  }

  @Override
  public synchronized void stop() {
    if (listener != null) {
      listener.stop();
      listener = null;
    }
    if (gcMetrics != null) {
      gcMetrics.close();
      gcMetrics = null;
    }
  }

  /** The port listened on (the chosen one when asked for port 0). */
  public synchronized int port() {
    if (listener == null) {
      throw new IllegalStateException("not started");
    }
    return listener.port();
  }

  private void bindJvmMetrics() {
    gcMetrics = new JvmGcMetrics();
    for (MeterBinder binder : List.of(new JvmMemoryMetrics(), gcMetrics, new JvmThreadMetrics(),
        new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics(), new ProcessMetrics(),
        new GoRuntimeEquivalents())) {
      binder.bindTo(registry);
    }
  }

  private HttpEndpoints.Response metrics(HttpExchange exchange) throws IOException {
    if (auth.isPresent()) {
      DelegatingAuth.Decision decision = auth.get().check(exchange.getRequestHeaders().getFirst("Authorization"),
          exchange.getRequestMethod(), exchange.getRequestURI().getPath());
      Optional<HttpEndpoints.Response> refused = refusal(decision);
      if (refused.isPresent()) {
        return refused.get();
      }
    }
    if (prometheus.isEmpty()) {
      return HttpEndpoints.Response.text(404, "the operator's metrics are not kept in a Prometheus registry");
    }
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String contentType = accept != null && accept.contains("application/openmetrics-text")
        ? OPEN_METRICS_TEXT : PROMETHEUS_TEXT;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    prometheus.get().scrape(body, contentType);
    return new HttpEndpoints.Response(200, contentType, withReservedNames(body, OPEN_METRICS_TEXT.equals(contentType)));
  }

  /** The scrape with the counters the Prometheus Java client cannot name ({@link ReservedNameCounters}). */
  private byte[] withReservedNames(ByteArrayOutputStream scraped, boolean openMetrics) {
    ReservedNameCounters reserved = ReservedNameCounters.of(registry);
    if (reserved.isEmpty()) {
      return scraped.toByteArray();
    }
    String text = scraped.toString(StandardCharsets.UTF_8);
    String end = openMetrics && text.endsWith(OPEN_METRICS_EOF) ? OPEN_METRICS_EOF : "";
    StringBuilder out = new StringBuilder(text.substring(0, text.length() - end.length()));
    reserved.write(out, openMetrics);
    return out.append(end).toString().getBytes(StandardCharsets.UTF_8);
  }

  /** controller-runtime's answers: 401 {@code Unauthorized}, 403 naming the user, 500 when a review failed. */
  private static Optional<HttpEndpoints.Response> refusal(DelegatingAuth.Decision decision) {
    if (decision instanceof DelegatingAuth.Unauthenticated) {
      return Optional.of(HttpEndpoints.Response.text(401, "Unauthorized"));
    }
    if (decision instanceof DelegatingAuth.Forbidden forbidden) {
      LOG.debug("Denied {} to user {}: {}", METRICS, forbidden.user(), forbidden.reason());
      return Optional.of(HttpEndpoints.Response.text(403, "Authorization denied for user " + forbidden.user()));
    }
    if (decision instanceof DelegatingAuth.Failed failed) {
      LOG.warn("{}: {}", METRICS, failed.message());
      return Optional.of(HttpEndpoints.Response.text(500, failed.message()));
    }
    return Optional.empty();
  }

  private static Optional<PrometheusMeterRegistry> prometheus(MeterRegistry registry) {
    if (registry instanceof PrometheusMeterRegistry direct) {
      return Optional.of(direct);
    }
    if (registry instanceof CompositeMeterRegistry composite) {
      return composite.getRegistries().stream().filter(PrometheusMeterRegistry.class::isInstance)
          .map(PrometheusMeterRegistry.class::cast).findFirst();
    }
    return Optional.empty();
  }
}
