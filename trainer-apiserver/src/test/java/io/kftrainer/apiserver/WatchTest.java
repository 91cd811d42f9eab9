package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Watches over HTTP streaming, as kube-apiserver serves them. */
class WatchTest {

  private EmbeddedApiServer server;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.builder().watchHistory(5).bookmarkInterval(Duration.ofMillis(200)).start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private ConfigMap configMap(String name, String value, Map<String, String> labels) {
    return server.client().configMaps().inNamespace("w").resource(new ConfigMapBuilder().withNewMetadata()
        .withName(name).withLabels(labels).endMetadata().addToData("v", value).build()).createOr(e -> e.update());
  }

  /** Reads a finite watch (timeoutSeconds) to its end: one JSON event per line. */
  private List<JsonNode> watch(String query) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/w/configmaps?watch=true&"
        + query)).timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + server.bearerToken()).build();
    HttpResponse<InputStream> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .sslContext(server.trustingSslContext()).build()
        .send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    List<JsonNode> events = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        events.add(Json.MAPPER.readTree(line));
      }
    }
    return events;
  }

  private static List<String> summary(List<JsonNode> events) {
    List<String> result = new ArrayList<>();
    for (JsonNode event : events) {
      String type = event.path("type").asText();
      result.add(type.equals("BOOKMARK") || type.equals("ERROR") ? type
          : type + " " + event.at("/object/metadata/name").asText() + " " + event.at("/object/data/v").asText());
    }
    return result;
  }

  @Test
  void withoutResourceVersionTheCurrentStateComesFirstThenChanges() throws Exception {
    configMap("a", "1", Map.of());
    configMap("b", "1", Map.of());
    assertThat(summary(watch("timeoutSeconds=1"))).containsExactly("ADDED a 1", "ADDED b 1");
    assertThat(summary(watch("timeoutSeconds=1&resourceVersion=0"))).containsExactly("ADDED a 1", "ADDED b 1");
  }

  @Test
  void fromAResourceVersionOnlyLaterChangesInOrder() throws Exception {
    String version = configMap("a", "1", Map.of()).getMetadata().getResourceVersion();
    configMap("a", "2", Map.of());
    configMap("b", "1", Map.of());
    server.client().configMaps().inNamespace("w").withName("a").delete();
    List<JsonNode> events = watch("timeoutSeconds=1&resourceVersion=" + version);
    assertThat(summary(events)).containsExactly("MODIFIED a 2", "ADDED b 1", "DELETED a 2");
    long previous = Long.parseLong(version);
    for (JsonNode event : events) {
      long rv = Long.parseLong(event.at("/object/metadata/resourceVersion").asText());
      assertThat(rv).isGreaterThan(previous);
      previous = rv;
    }
  }

  @Test
  void aVersionOlderThanTheHistoryIsExpired() throws Exception {
    String version = configMap("a", "0", Map.of()).getMetadata().getResourceVersion();
    for (int i = 1; i <= 6; i++) {
      configMap("a", Integer.toString(i), Map.of());
    }
    List<JsonNode> events = watch("timeoutSeconds=1&resourceVersion=" + version);
    assertThat(summary(events)).containsExactly("ERROR");
    JsonNode status = events.get(0).path("object");
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("code").asInt()).isEqualTo(410);
    assertThat(status.path("reason").asText()).isEqualTo("Expired");
    assertThat(status.path("message").asText()).startsWith("too old resource version: " + version);
  }

  @Test
  void bookmarksWhenAllowedAndInitialEventsEnd() throws Exception {
    configMap("a", "1", Map.of());
    List<JsonNode> events = watch("timeoutSeconds=1&allowWatchBookmarks=true&sendInitialEvents=true"
        + "&resourceVersionMatch=NotOlderThan");
    assertThat(summary(events).subList(0, 2)).containsExactly("ADDED a 1", "BOOKMARK");
    assertThat(events.get(1).at("/object/metadata/annotations/k8s.io~1initial-events-end").asText())
        .isEqualTo("true");
    assertThat(summary(events)).as("periodic bookmarks").filteredOn("BOOKMARK"::equals).hasSizeGreaterThan(2);
    assertThat(summary(watch("timeoutSeconds=1"))).doesNotContain("BOOKMARK");
  }

  @Test
  void selectorsTurnLabelChangesIntoAddedAndDeleted() throws Exception {
    String version = configMap("a", "1", Map.of()).getMetadata().getResourceVersion();
    configMap("a", "2", Map.of("team", "x"));
    configMap("a", "3", Map.of("team", "x"));
    configMap("a", "4", Map.of("team", "y"));
    configMap("b", "1", Map.of("team", "y"));
    assertThat(summary(watch("timeoutSeconds=1&labelSelector=team%20in%20(x)&resourceVersion=" + version)))
        .containsExactly("ADDED a 2", "MODIFIED a 3", "DELETED a 3");
    assertThat(summary(watch("timeoutSeconds=1&fieldSelector=metadata.name%3Db"))).containsExactly("ADDED b 1");
  }

  @Test
  void fabric8WatchesAndClientsWithoutTheHttpWatchOptionFallBack() {
    List<String> seen = new CopyOnWriteArrayList<>();
    Watcher<ConfigMap> watcher = new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap resource) {
        if (action != Action.BOOKMARK) { // fabric8 hands bookmarks to watchers too
          seen.add(action + " " + resource.getMetadata().getName());
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    };
    io.fabric8.kubernetes.client.Config plain = new io.fabric8.kubernetes.client.ConfigBuilder(server.config())
        .withOnlyHttpWatches(false).build();
    try (var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(plain).build();
        var w1 = server.client().configMaps().inNamespace("w").watch(watcher);
        var w2 = client.configMaps().inNamespace("w").watch(watcher)) {
      configMap("x", "1", Map.of());
      await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 2);
      assertThat(seen).containsExactly("ADDED x", "ADDED x");
    }
  }

  @Test
  void fabric8WatchesReadEveryStringThroughMultiByteAndControlCharacters() {
    // fabric8's HTTP watch decoded each chunk alone and kept the decoder's spare buffer: NULs after a multi-byte
    // character, the next event parsed as YAML, the watch closed ("special characters are not allowed")
    List<String> values = List.of("ünïcødé-名前-😀-\u200b-\u202e", "a\nb\u0000c\u001b[31m", "x\u0085y\u2028z",
        "plain");
    List<String> seen = new CopyOnWriteArrayList<>();
    List<WatcherException> closed = new CopyOnWriteArrayList<>();
    Watcher<ConfigMap> watcher = new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap resource) {
        if (action == Action.ADDED) {
          seen.add(resource.getData().get("v"));
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        closed.add(cause);
      }
    };
    try (var watch = server.client().configMaps().inNamespace("w").watch(watcher)) {
      for (int i = 0; i < values.size(); i++) {
        configMap("c" + i, values.get(i), Map.of());
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == values.size() || !closed.isEmpty());

      assertThat(closed).isEmpty();
      assertThat(seen).containsExactlyElementsOf(values);
    }
  }

  @Test
  void watchIsReadAsKubeApiserverReadsABooleanParameter() throws Exception {
    // the Kubernetes Python client's Watch().stream sends watch=True: a watch, not a list
    configMap("py", "v", Map.of());
    for (String value : List.of("True", "1", "TRUE")) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(server.url()
          + "/api/v1/namespaces/w/configmaps?watch=" + value + "&timeoutSeconds=1")).timeout(Duration.ofSeconds(20))
          .header("Authorization", "Bearer " + server.bearerToken()).build();

      String body = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .sslContext(server.trustingSslContext()).build()
          .send(request, HttpResponse.BodyHandlers.ofString()).body();

      assertThat(Json.MAPPER.readTree(body.lines().findFirst().orElseThrow()).path("type").asText()).as(value)
          .isEqualTo("ADDED");
    }
  }

  @Test
  void watchLinesAreAsciiWithTheSameStrings() throws Exception {
    configMap("u", "名前-😀\u0000", Map.of());
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.url()
        + "/api/v1/namespaces/w/configmaps?watch=true&timeoutSeconds=1")).timeout(Duration.ofSeconds(20))
        .header("Authorization", "Bearer " + server.bearerToken()).build();

    byte[] body = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .sslContext(server.trustingSslContext()).build()
        .send(request, HttpResponse.BodyHandlers.ofByteArray()).body();

    String line = new String(body, StandardCharsets.ISO_8859_1);
    assertThat(line).endsWith("\n");
    assertThat(line.strip().chars()).as("the bytes of the event line").allMatch(c -> c >= 0x20 && c <= 0x7e);
    assertThat(Json.MAPPER.readTree(line).at("/object/data/v").asText()).isEqualTo("名前-😀\u0000");
  }

  @Test
  void anInformerCountsAsWatchingWellBeforeTheBookmarkInterval() {
    // fabric8 marks an HTTP watch as started when it reads a first line; operators' readiness waits on that
    try (EmbeddedApiServer quiet = EmbeddedApiServer.builder().bookmarkInterval(Duration.ofMinutes(1)).start();
        var informer = quiet.client().configMaps().inNamespace("w").inform()) {
      await().atMost(Duration.ofSeconds(5)).until(informer::isWatching);
    }
  }

  @Test
  void aWebSocketUpgradeIsAnsweredWithoutAServerErrorSoFabric8FallsBackAtOnce() throws Exception {
    // fabric8 falls back to HTTP watches on 200 or 503, but retries a 503 with back-off first (about 20 s)
    java.net.URI uri = java.net.URI.create(server.url());
    try (java.net.Socket socket = server.trustingSslContext().getSocketFactory().createSocket(uri.getHost(),
        uri.getPort())) {
      socket.getOutputStream().write(("GET /api/v1/namespaces/w/configmaps?watch=true HTTP/1.1\r\n"
          + "Host: " + uri.getHost() + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
          + "Authorization: Bearer " + server.bearerToken() + "\r\n"
          + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      String statusLine = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
          java.nio.charset.StandardCharsets.US_ASCII)).readLine();

      assertThat(statusLine).isEqualTo("HTTP/1.1 200 OK");
    }
  }

  @Test
  void kubectlGetWatch(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(server, dir);
    configMap("first", "1", Map.of());
    try (Kubectl.Streaming watch = kubectl.start("get", "configmaps", "-n", "w", "-w")) {
      await().atMost(Duration.ofSeconds(20)).until(() -> watch.lines.stream().anyMatch(l -> l.startsWith("first")));
      configMap("second", "1", Map.of());
      await().atMost(Duration.ofSeconds(20)).until(() -> watch.lines.stream().anyMatch(l -> l.startsWith("second")));
      assertThat(watch.lines.get(0)).containsPattern("NAME\\s+DATA\\s+AGE");
      assertThat(watch.isAlive()).isTrue();
    }
  }

  @Test
  void kubectlGetTrainJobsWatchShowsThePrinterColumns(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(server, dir);
    server.installCrds(TestCrds.trainJobCrd());
    TestCrds.trainJobs(server.client()).inNamespace("default").resource(TestCrds.trainJob("default", "first", 1))
        .create();
    try (Kubectl.Streaming watch = kubectl.start("get", "trainjobs", "-w")) {
      await().atMost(Duration.ofSeconds(20)).until(() -> watch.lines.stream().anyMatch(l -> l.startsWith("first")));
      TestCrds.trainJobs(server.client()).inNamespace("default").resource(TestCrds.trainJob("default", "second", 1))
          .create();
      await().atMost(Duration.ofSeconds(20)).until(() -> watch.lines.stream().anyMatch(l -> l.startsWith("second")));
      assertThat(watch.lines.get(0)).containsPattern("NAME\\s+STATE\\s+AGE");
    }
  }
}
