package io.kftrainer.operator.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.Readiness;
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
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plain-HTTP endpoints for the kubelet and Prometheus.
 *
 * <ul>
 *   <li>{@code /healthz} ({@code --health-port}): 200 from {@link #start()} until {@link #stop()}. The operator
 *       stops its components when it stops, so a stopped operator fails its liveness probe.</li>
 *   <li>{@code /readyz} ({@code --health-port}): 200 when every check of the operator's {@link Readiness} passes
 *       (the controller's informers have synced, the webhook server presents a certificate); otherwise 503 naming
 *       the failing checks.</li>
 *   <li>{@code /metrics} ({@code --metrics-port}): the Prometheus text format (OpenMetrics when asked for) of the
 *       operator's meter registry, which holds JOSDK's reconcile metrics, the TrainJobs-by-condition gauge and the
 *       JVM metrics this server binds at start. 404 if the registry is not a Prometheus one.</li>
 * </ul>
 *
 * <p>With equal ports one server serves all three paths.
 */
public final class OpsServer implements OperatorComponent {

  public static final String HEALTHZ = "/healthz";
  public static final String READYZ = "/readyz";
  public static final String METRICS = "/metrics";

  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  static final String OPEN_METRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);

  static {
    // before the first HttpServer of the JVM (see HttpServerNoDelay)
    HttpServerNoDelay.enable();
  }

  private final String bindAddress;
  private final int healthPort;
  private final int metricsPort;
  private final Readiness readiness;
  private final MeterRegistry registry;
  private final Optional<PrometheusMeterRegistry> prometheus;
  private final List<HttpServer> servers = new ArrayList<>();
  private ExecutorService executor;
  private JvmGcMetrics gcMetrics;
  private volatile boolean alive;

  public OpsServer(String bindAddress, int healthPort, int metricsPort, Readiness readiness,
      MeterRegistry registry) {
    this.bindAddress = Objects.requireNonNull(bindAddress, "bindAddress");
    this.healthPort = healthPort;
    this.metricsPort = metricsPort;
    this.readiness = Objects.requireNonNull(readiness, "readiness");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.prometheus = prometheus(registry);
  }

  /** The operator's ops server on {@code --health-port} and {@code --metrics-port} of {@code --bind-address}. */
  public static OperatorComponent.Factory factory() {
    return context -> new OpsServer(context.config().bindAddress(), context.config().healthPort(),
        context.config().metricsPort(),
        context.readiness(), context.meterRegistry());
  }

  @Override
  public String name() {
    return "ops-server";
  }

  @Override
  public synchronized void start() throws IOException {
    if (executor != null) {
      throw new IllegalStateException("already started");
    }
    bindJvmMetrics();
    AtomicInteger count = new AtomicInteger();
    executor = Executors.newFixedThreadPool(2, runnable -> {
      Thread thread = new Thread(runnable, "ops-http-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    try {
      HttpServer health = server(healthPort);
      health.createContext(HEALTHZ, get(this::healthz));
      health.createContext(READYZ, get(this::readyz));
      HttpServer metrics = healthPort == metricsPort ? health : server(metricsPort);
      metrics.createContext(METRICS, get(this::metrics));
      alive = true;
      servers.forEach(HttpServer::start);
    } catch (IOException | RuntimeException e) {
      stop();
      throw e;
    }
    LOG.info("Serving {} and {} on port {}, {} on port {}", HEALTHZ, READYZ, healthPort(), METRICS, metricsPort());
  }

  @Override
  public synchronized void stop() {
    alive = false;
    servers.forEach(server -> server.stop(0));
    servers.clear();
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
    if (gcMetrics != null) {
      gcMetrics.close();
      gcMetrics = null;
    }
  }

  /** The port of {@code /healthz} and {@code /readyz} (the chosen one when asked for port 0). */
  public synchronized int healthPort() {
    return running().get(0).getAddress().getPort();
  }

  /** The port of {@code /metrics}. */
  public synchronized int metricsPort() {
    List<HttpServer> running = running();
    return running.get(running.size() - 1).getAddress().getPort();
  }

  private List<HttpServer> running() {
    if (servers.isEmpty()) {
      throw new IllegalStateException("not started");
    }
    return servers;
  }

  private HttpServer server(int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
    server.setExecutor(executor);
    servers.add(server);
    return server;
  }

  private void bindJvmMetrics() {
    gcMetrics = new JvmGcMetrics();
    for (MeterBinder binder : List.of(new JvmMemoryMetrics(), gcMetrics, new JvmThreadMetrics(),
        new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics())) {
      binder.bindTo(registry);
    }
  }

  private Response healthz(HttpExchange exchange) {
    return alive ? Response.text(200, "ok") : Response.text(503, "stopping");
  }

  private Response readyz(HttpExchange exchange) {
    if (readiness.isReady()) {
      return Response.text(200, "ok");
    }
    List<String> failing = readiness.failing();
    return Response.text(503, failing.isEmpty() ? "not ready: nothing has reported readiness yet"
        : "not ready: " + String.join(", ", failing));
  }

  private Response metrics(HttpExchange exchange) throws IOException {
    if (prometheus.isEmpty()) {
      return Response.text(404, "the operator's metrics are not kept in a Prometheus registry");
    }
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String contentType = accept != null && accept.contains("application/openmetrics-text")
        ? OPEN_METRICS_TEXT : PROMETHEUS_TEXT;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    prometheus.get().scrape(body, contentType);
    return new Response(200, contentType, body.toByteArray());
  }

  private record Response(int code, String contentType, byte[] body) {

    static Response text(int code, String text) {
      return new Response(code, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  @FunctionalInterface
  private interface Endpoint {
    Response answer(HttpExchange exchange) throws IOException;
  }

  private static HttpHandler get(Endpoint endpoint) {
    return exchange -> {
      try (exchange) {
        String method = exchange.getRequestMethod();
        Response response = "GET".equals(method) || "HEAD".equals(method) ? endpoint.answer(exchange)
            : Response.text(405, "only GET is allowed");
        exchange.getResponseHeaders().set("Content-Type", response.contentType());
        boolean head = "HEAD".equals(method);
        exchange.sendResponseHeaders(response.code(), head ? -1 : response.body().length);
        if (!head) {
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(response.body());
          }
        }
      }
    };
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
