package io.kftrainer.operator.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.operator.app.Readiness;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The health, readiness and metrics endpoints over plain HTTP. */
class OpsServerTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private final Readiness readiness = new Readiness();
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private OpsServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void readinessIs503NamingTheFailingChecksUntilEveryCheckPasses() throws Exception {
    AtomicBoolean synced = new AtomicBoolean();
    AtomicBoolean serving = new AtomicBoolean();
    readiness.register("controller", synced::get);
    readiness.register("webhook", serving::get);
    server = start(0, 0);

    assertResponse(get(server.healthPort(), "/readyz"), 503, "not ready: controller, webhook\n");
    synced.set(true);
    assertResponse(get(server.healthPort(), "/readyz"), 503, "not ready: webhook\n");
    serving.set(true);
    assertResponse(get(server.healthPort(), "/readyz"), 200, "ok\n");
    serving.set(false);
    assertResponse(get(server.healthPort(), "/readyz"), 503, "not ready: webhook\n");
  }

  @Test
  void withoutAnyCheckTheProcessIsNotReady() throws Exception {
    server = start(0, 0);

    assertResponse(get(server.healthPort(), "/readyz"), 503, "not ready: nothing has reported readiness yet\n");
  }

  @Test
  void livenessIs200UntilStopped() throws Exception {
    server = start(0, 0);
    int port = server.healthPort();

    assertResponse(get(port, "/healthz"), 200, "ok\n");
    server.stop();

    assertThatThrownBy(() -> get(port, "/healthz")).isInstanceOf(ConnectException.class);
  }

  @Test
  void metricsArePrometheusTextWithJvmMetrics() throws Exception {
    server = start(0, 0);

    HttpResponse<String> response = get(server.metricsPort(), "/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body()).contains("# TYPE jvm_memory_used_bytes gauge", "jvm_threads_live_threads",
        "jvm_classes_loaded_classes", "process_uptime_seconds", "system_cpu_count");
  }

  @Test
  void openMetricsIsServedWhenAskedFor() throws Exception {
    server = start(0, 0);

    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(server.metricsPort(), "/metrics"))
        .header("Accept", "application/openmetrics-text; version=1.0.0").build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.headers().firstValue("Content-Type"))
        .contains("application/openmetrics-text; version=1.0.0; charset=utf-8");
    assertThat(response.body()).endsWith("# EOF\n");
  }

  @Test
  void differentPortsServeHealthAndMetricsApart() throws Exception {
    readiness.register("all", () -> true);
    server = start(0, freePort());

    assertThat(server.metricsPort()).isNotEqualTo(server.healthPort());
    assertResponse(get(server.healthPort(), "/healthz"), 200, "ok\n");
    assertResponse(get(server.healthPort(), "/readyz"), 200, "ok\n");
    assertThat(get(server.healthPort(), "/metrics").statusCode()).isEqualTo(404);
    assertThat(get(server.metricsPort(), "/metrics").statusCode()).isEqualTo(200);
    assertThat(get(server.metricsPort(), "/healthz").statusCode()).isEqualTo(404);
  }

  @Test
  void onlyGetIsAllowed() throws Exception {
    server = start(0, 0);

    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(server.healthPort(), "/healthz"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
  }

  @Test
  void aRegistryThatIsNotPrometheusHasNoMetricsEndpoint() throws Exception {
    server = new OpsServer("127.0.0.1", 0, 0, readiness, new SimpleMeterRegistry());
    server.start();

    assertThat(get(server.metricsPort(), "/metrics").statusCode()).isEqualTo(404);
  }

  private OpsServer start(int healthPort, int metricsPort) throws IOException {
    OpsServer started = new OpsServer("127.0.0.1", healthPort, metricsPort, readiness, registry);
    started.start();
    return started;
  }

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(port, path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(int port, String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static void assertResponse(HttpResponse<String> response, int status, String body) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.body()).isEqualTo(body);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
