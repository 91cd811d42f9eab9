package io.kftrainer.operator.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.operator.app.HealthChecks;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The liveness and readiness probes over plain HTTP. */
class OpsServerTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private final HealthChecks readiness = new HealthChecks();
  private final HealthChecks liveness = new HealthChecks();
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
    server = start();

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
    server = start();

    assertResponse(get(server.healthPort(), "/readyz"), 503, "not ready: nothing has reported readiness yet\n");
  }

  @Test
  void livenessIs200UntilStopped() throws Exception {
    server = start();
    int port = server.healthPort();

    assertResponse(get(port, "/healthz"), 200, "ok\n");
    server.stop();

    assertThatThrownBy(() -> get(port, "/healthz")).isInstanceOf(ConnectException.class);
  }

  @Test
  void livenessIs503NamingTheFailingChecksSoThatTheKubeletRestartsTheOperator() throws Exception {
    AtomicBoolean watching = new AtomicBoolean(true);
    liveness.register("informers", watching::get);
    liveness.register("webhook", () -> true);
    server = start();

    assertResponse(get(server.healthPort(), "/healthz"), 200, "ok\n");
    watching.set(false);
    assertResponse(get(server.healthPort(), "/healthz"), 503, "unhealthy: informers\n");
    watching.set(true);
    assertResponse(get(server.healthPort(), "/healthz"), 200, "ok\n");
  }

  @Test
  void theConfigurationNamesTheProbePaths() throws Exception {
    readiness.register("all", () -> true);
    server = new OpsServer(new InetSocketAddress("127.0.0.1", 0), "/alive", "/ready", readiness, liveness);
    server.start();

    assertResponse(get(server.healthPort(), "/alive"), 200, "ok\n");
    assertResponse(get(server.healthPort(), "/ready"), 200, "ok\n");
    assertThat(get(server.healthPort(), "/healthz").statusCode()).isEqualTo(404);
    assertThat(get(server.healthPort(), "/metrics").statusCode()).isEqualTo(404);
  }

  @Test
  void onlyGetIsAllowed() throws Exception {
    server = start();

    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(server.healthPort(), "/healthz"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
  }

  private OpsServer start() throws IOException {
    OpsServer started = new OpsServer(new InetSocketAddress("127.0.0.1", 0), readiness, liveness);
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
}
