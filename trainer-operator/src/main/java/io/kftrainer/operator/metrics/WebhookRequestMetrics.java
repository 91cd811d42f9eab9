package io.kftrainer.operator.metrics;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * controller-runtime's metrics of its webhook server, under its names, as a filter of the admission webhook server's
 * paths ({@code webhook} is the path, as controller-runtime labels it):
 *
 * <ul>
 *   <li>{@code controller_runtime_webhook_requests_total{webhook,code}}: counter of answered requests by HTTP status
 *       ({@code 200} and {@code 500} exist from the start, as controller-runtime initialises them);</li>
 *   <li>{@code controller_runtime_webhook_latency_seconds{webhook}}: histogram, client-go's buckets (10 ns to
 *       1000 s);</li>
 *   <li>{@code controller_runtime_webhook_requests_in_flight{webhook}}: gauge.</li>
 * </ul>
 */
public final class WebhookRequestMetrics extends Filter {

  private final MeterRegistry registry;
  private final Map<String, PathMeters> paths = new ConcurrentHashMap<>();

  public WebhookRequestMetrics(MeterRegistry registry, Collection<String> webhookPaths) {
    this.registry = Objects.requireNonNull(registry, "registry");
    webhookPaths.forEach(this::meters);
  }

  private final class PathMeters {
    final String webhook;
    final Timer latency;
    final AtomicInteger inFlight = new AtomicInteger();
    final Map<Integer, Counter> codes = new ConcurrentHashMap<>();

    PathMeters(String webhook) {
      this.webhook = webhook;
      latency = Timer.builder("controller.runtime.webhook.latency")
          .description("Histogram of the latency of processing admission requests")
          .serviceLevelObjectives(Buckets.durations(ControllerRuntimeMetrics.QUEUE_BUCKETS))
          .tag("webhook", webhook).register(registry);
      Gauge.builder("controller.runtime.webhook.requests.in.flight", inFlight, AtomicInteger::get)
          .description("Current number of admission requests being served.")
          .tag("webhook", webhook).register(registry);
      code(200);
      code(500);
    }

    Counter code(int code) {
      return codes.computeIfAbsent(code, status -> Counter.builder("controller.runtime.webhook.requests")
          .description("Total number of admission requests by HTTP status code.")
          .tag("webhook", webhook).tag("code", Integer.toString(status)).register(registry));
    }
  }

  private PathMeters meters(String path) {
    return paths.computeIfAbsent(path, PathMeters::new);
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    PathMeters meters = meters(exchange.getHttpContext().getPath());
    long start = System.nanoTime();
    meters.inFlight.incrementAndGet();
    try {
      chain.doFilter(exchange);
    } finally {
      meters.inFlight.decrementAndGet();
      int code = exchange.getResponseCode();
      meters.code(code < 0 ? 500 : code).increment();
      meters.latency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public String description() {
    return "controller-runtime's webhook metrics";
  }
}
