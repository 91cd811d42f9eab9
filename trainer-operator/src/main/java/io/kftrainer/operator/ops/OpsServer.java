package io.kftrainer.operator.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.HealthChecks;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's probes over plain HTTP, on the health address ({@code --health-port}, the Configuration file's
 * {@code health.healthProbeBindAddress}):
 *
 * <ul>
 *   <li>{@code /healthz} (or the file's {@code livenessEndpointName}): 200 from {@link #start()} until
 *       {@link #stop()} while every liveness check passes (the informers watch, the webhook's certificate has not
 *       expired); otherwise 503 naming the failing checks, and the kubelet restarts the container. Upstream's
 *       manager answers a plain ping here; a probe that cannot fail could not restart an operator gone blind.</li>
 *   <li>{@code /readyz} (or {@code readinessEndpointName}): 200 when every check of the operator's
 *       {@link HealthChecks} passes (the controller's informers have synced, the webhook server presents a
 *       certificate); otherwise 503 naming the failing checks.</li>
 * </ul>
 *
 * <p>{@code /metrics} has a server of its own, {@link MetricsServer}: HTTPS with the serving certificate, as
 * upstream's manager.
 */
public final class OpsServer implements OperatorComponent {

  public static final String HEALTHZ = "/healthz";
  public static final String READYZ = "/readyz";

  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);

  static {
    // before the first HttpServer of the JVM (see HttpServerNoDelay)
    HttpServerNoDelay.enable();
  }

  private final InetSocketAddress address;
  private final String livenessPath;
  private final String readinessPath;
  private final HealthChecks readiness;
  private final HealthChecks liveness;
  private HttpEndpoints.Listener listener;
  private volatile boolean alive;

  /** Probes on {@value #HEALTHZ} and {@value #READYZ}. */
  public OpsServer(InetSocketAddress address, HealthChecks readiness, HealthChecks liveness) {
    this(address, HEALTHZ, READYZ, readiness, liveness);
  }

  public OpsServer(InetSocketAddress address, String livenessPath, String readinessPath, HealthChecks readiness,
      HealthChecks liveness) {
    this.address = Objects.requireNonNull(address, "address");
    this.livenessPath = Objects.requireNonNull(livenessPath, "livenessPath");
    this.readinessPath = Objects.requireNonNull(readinessPath, "readinessPath");
    this.readiness = Objects.requireNonNull(readiness, "readiness");
    this.liveness = Objects.requireNonNull(liveness, "liveness");
  }

  /**
   * The operator's probes on the health address and paths of its configuration; nothing when the configuration
   * switches them off ({@code healthProbeBindAddress: "0"}).
   */
  public static OperatorComponent.Factory factory() {
    return context -> {
      OperatorConfig.Health health = context.config().health();
      if (!health.enabled()) {
        return OperatorComponent.disabled("health-server");
      }
      return new OpsServer(new InetSocketAddress(health.host(), context.config().healthPort()), health.livenessPath(),
          health.readinessPath(), context.readiness(), context.liveness());
    };
  }

  @Override
  public String name() {
    return "health-server";
  }

  @Override
  public synchronized void start() throws IOException {
    if (listener != null) {
      throw new IllegalStateException("already started");
    }
    HttpServer server = HttpServer.create(address, 0);
    server.createContext(livenessPath, HttpEndpoints.get(this::healthz));
    server.createContext(readinessPath, HttpEndpoints.get(this::readyz));
    alive = true;
    listener = HttpEndpoints.Listener.start(server, "health-http");
    LOG.info("Serving {} and {} on port {}", livenessPath, readinessPath, healthPort());
  }

  @Override
  public synchronized void stop() {
    alive = false;
    if (listener != null) {
      listener.stop();
      listener = null;
    }
  }

  /** The port of the probes (the chosen one when asked for port 0). */
  public synchronized int healthPort() {
    if (listener == null) {
      throw new IllegalStateException("not started");
    }
    return listener.port();
  }

  private HttpEndpoints.Response healthz(HttpExchange exchange) {
    if (!alive) {
      return HttpEndpoints.Response.text(503, "stopping");
    }
    List<String> failing = liveness.failing();
    return failing.isEmpty() ? HttpEndpoints.Response.text(200, "ok")
        : HttpEndpoints.Response.text(503, "unhealthy: " + String.join(", ", failing));
  }

  private HttpEndpoints.Response readyz(HttpExchange exchange) {
    if (readiness.isReady()) {
      return HttpEndpoints.Response.text(200, "ok");
    }
    List<String> failing = readiness.failing();
    return HttpEndpoints.Response.text(503, failing.isEmpty() ? "not ready: nothing has reported readiness yet"
        : "not ready: " + String.join(", ", failing));
  }
}
