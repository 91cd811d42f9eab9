package io.kftrainer.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.statusserver.history.MetricPoint;
import io.kftrainer.statusserver.history.MetricSeries;
import io.kftrainer.ui.testing.OneNamespaceUser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The UI server on the embedded API server, as {@code local} runs it: every read made with the user's own token,
 * so RBAC decides; a user bound in one namespace sees nothing of another.
 */
class UiServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmbeddedApiServer api;
  private static KubernetesClient admin;
  private static UiServer ui;
  private static String alice;
  private static final Map<String, MetricSeries> SERIES = new ConcurrentHashMap<>();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** One series per TrainJob, "loss", in memory. */
  private static final MetricHistory HISTORY = new MetricHistory() {
    @Override
    public void record(String namespace, String name, String uid, List<Metric> metrics, long timeMillis) {
      SERIES.computeIfAbsent(namespace + "/" + name + "/" + uid, key -> new MetricSeries(POINTS_PER_SERIES))
          .add(timeMillis, MetricHistory.valueOf(metrics.get(0)));
    }

    @Override
    public Map<String, List<MetricPoint>> series(String namespace, String name, String uid) {
      MetricSeries series = SERIES.get(namespace + "/" + name + "/" + uid);
      Map<String, List<MetricPoint>> all = new LinkedHashMap<>();
      if (series != null) {
        all.put("loss", series.points());
      }
      return all;
    }
  };

  @BeforeAll
  static void start() throws Exception {
    api = EmbeddedApiServer.start();
    admin = api.newClient();
    api.installCrds(UiServerTest.class.getClassLoader()
        .getResourceAsStream("META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml"));
    for (String namespace : List.of("team", "other")) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
          .build()).create();
      TrainJob trainJob = new TrainJob();
      trainJob.getMetadata().setName("mnist");
      trainJob.setSpec(new TrainJobSpec().withRuntimeRef(new RuntimeRef().withName("torch-distributed")));
      TrainJob created = admin.resources(TrainJob.class).inNamespace(namespace).resource(trainJob).create();
      for (int i = 0; i < 3; i++) {
        HISTORY.record(namespace, "mnist", created.getMetadata().getUid(),
            List.of(new Metric().withName("loss").withValue(Double.toString(1.0 / (i + 1)))), 1_000L * i);
      }
    }
    alice = OneNamespaceUser.create(admin, "team", "alice");
    ui = new UiServer(UiServer.Settings.loopback(0),
        new PassthroughUserApi(URI.create(api.loopbackConfig().getMasterUrl()), HttpClient.newHttpClient()),
        HISTORY);
    ui.start();
  }

  @AfterAll
  static void stop() {
    ui.close();
    admin.close();
    api.close();
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ui.url()).resolve(path))
        .timeout(Duration.ofSeconds(30));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theMetricHistoryIsServedToWhoeverMayGetTheTrainJob() throws Exception {
    HttpResponse<String> response = get("/history/namespaces/team/trainjobs/mnist", api.bearerToken());

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode metric = JSON.readTree(response.body()).path("metrics").path(0);
    assertThat(metric.path("name").asText()).isEqualTo("loss");
    assertThat(metric.path("points")).hasSize(3);
    assertThat(metric.path("points").path(2).path(2).asDouble()).isEqualTo(1.0 / 3);
    assertThat(get("/history/namespaces/team/trainjobs/mnist", alice).statusCode()).isEqualTo(200);
  }

  @Test
  void aUserOfOneNamespaceSeesNothingOfAnother() throws Exception {
    HttpResponse<String> history = get("/history/namespaces/other/trainjobs/mnist", alice);
    assertThat(history.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(history.body()).path("reason").asText()).isEqualTo("Forbidden");
    assertThat(history.body()).doesNotContain("loss");

    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/other/trainjobs", alice).statusCode())
        .isEqualTo(403);
    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/trainjobs", alice).statusCode()).isEqualTo(403);
    HttpResponse<String> own = get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs", alice);
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(own.body()).path("items")).singleElement()
        .satisfies(item -> assertThat(item.path("metadata").path("namespace").asText()).isEqualTo("team"));
  }

  @Test
  void withoutAValidTokenNothingIsRead() throws Exception {
    for (String path : List.of("/history/namespaces/team/trainjobs/mnist", "/whoami",
        "/k8s/apis/trainer.kubeflow.org/v1alpha1/trainjobs")) {
      assertThat(get(path, null).statusCode()).as(path).isEqualTo(401);
      assertThat(get(path, "not-a-token").statusCode()).as(path).isEqualTo(401);
    }
  }

  @Test
  void secretsAndWritesAreNotRelayedWhateverTheUserMayDo() throws Exception {
    HttpResponse<String> secrets = get("/k8s/api/v1/namespaces/team/secrets", api.bearerToken());
    assertThat(secrets.statusCode()).isEqualTo(404);
    HttpResponse<String> delete = HTTP.send(HttpRequest.newBuilder(URI.create(ui.url())
            .resolve("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs/mnist"))
        .header("Authorization", "Bearer " + api.bearerToken()).DELETE().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).isEqualTo(405);
    assertThat(admin.resources(TrainJob.class).inNamespace("team").withName("mnist").get()).isNotNull();
  }

  @Test
  void aLoginLinkSignsInOnceWithACookieThatCarriesNoToken() throws Exception {
    String link = ui.loginLink(api.bearerToken());
    HttpResponse<String> first = HTTP.send(HttpRequest.newBuilder(URI.create(link)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(first.statusCode()).isEqualTo(303);
    String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").doesNotContain(api.bearerToken());
    String session = cookie.substring(0, cookie.indexOf(';'));

    HttpResponse<String> whoami = HTTP.send(HttpRequest.newBuilder(URI.create(ui.url()).resolve("/whoami"))
        .header("Cookie", session).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(whoami.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(whoami.body()).path("user").asText()).isEqualTo("kubernetes-admin");

    HttpResponse<String> again = HTTP.send(HttpRequest.newBuilder(URI.create(link)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(again.statusCode()).isEqualTo(303);
    assertThat(again.headers().firstValue("Location")).hasValue("/#/login?expired");
    assertThat(again.headers().firstValue("Set-Cookie")).isEmpty();
  }

  @Test
  void aTokenPostedFromAnotherSitesPageIsRefused() throws Exception {
    HttpRequest post = HttpRequest.newBuilder(URI.create(ui.url()).resolve("/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", "http://evil.example")
        .POST(HttpRequest.BodyPublishers.ofString("token=" + alice)).build();
    assertThat(HTTP.send(post, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);

    HttpRequest own = HttpRequest.newBuilder(URI.create(ui.url()).resolve("/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", ui.url().substring(0, ui.url().length() - 1))
        .POST(HttpRequest.BodyPublishers.ofString("token=" + alice)).build();
    HttpResponse<String> signedIn = HTTP.send(own, HttpResponse.BodyHandlers.ofString());
    assertThat(signedIn.statusCode()).isEqualTo(303);
    assertThat(signedIn.headers().firstValue("Set-Cookie")).isPresent();
  }

  @Test
  void thePagesAndThePinnedChartingLibraryComeFromTheJarWithoutSigningIn() throws Exception {
    HttpResponse<String> index = get("/", null);
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(index.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
        assertThat(csp).startsWith("default-src 'self'"));
    assertThat(index.body()).contains("vendor/uplot/uPlot.iife.min.js").doesNotContain("https://");
    HttpResponse<String> uplot = get("/vendor/uplot/uPlot.iife.min.js", null);
    assertThat(uplot.statusCode()).isEqualTo(200);
    assertThat(uplot.body()).contains("uPlot");
    assertThat(get("/app.js", null).statusCode()).isEqualTo(200);
    assertThat(get("/../pom.xml", null).statusCode()).isEqualTo(404);
  }

  @Test
  void aRequestNamingAnotherHostIsRefused() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", ui.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET /whoami HTTP/1.1\r\nHost: attacker.example:" + ui.port() + "\r\nAuthorization: Bearer "
          + api.bearerToken() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
          .readLine();
      assertThat(status).isEqualTo("HTTP/1.1 403 Forbidden");
    }
  }

  @Test
  void aWatchStreamsThroughWithoutHoldingAServerThread() throws Exception {
    List<HttpResponse<Stream<String>>> watches = new java.util.ArrayList<>();
    for (int i = 0; i < 2 * UiServer.THREADS; i++) {
      watches.add(HTTP.send(HttpRequest.newBuilder(URI.create(ui.url())
              .resolve("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs?watch=true"))
          .header("Authorization", "Bearer " + api.bearerToken()).build(), HttpResponse.BodyHandlers.ofLines()));
    }
    // every watch open, and the server still answers
    assertThat(get("/history/namespaces/team/trainjobs/mnist", api.bearerToken()).statusCode()).isEqualTo(200);
    List<String> first = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try {
        watches.get(0).body().forEach(first::add);
      } catch (java.io.UncheckedIOException closed) {
        // the test closed the watch
      }
    });
    reader.setDaemon(true);
    reader.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> first.stream().anyMatch(line -> line.contains("\"ADDED\"")));
    admin.resources(TrainJob.class).inNamespace("team").withName("mnist")
        .edit(trainJob -> {
          trainJob.getMetadata().setLabels(Map.of("seen", "yes"));
          return trainJob;
        });
    await().atMost(Duration.ofSeconds(30)).until(() -> first.stream().anyMatch(line -> line.contains("\"MODIFIED\"")));
    watches.forEach(watch -> watch.body().close());
  }
}
