package io.kftrainer.statusserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The status server against the embedded API server: real ServiceAccount tokens (TokenRequest), verified with the
 * cluster's OIDC discovery and JWKS, and real server-side apply of the status. Each refusal is checked for its code
 * and Kubernetes Status, and for leaving the TrainJob as it was.
 */
class StatusServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UPDATE = """
      {"trainerStatus": {"progressPercentage": 40, "estimatedRemainingSeconds": 12,
       "metrics": [{"name": "loss", "value": "0.031"}], "lastUpdatedTime": "2026-01-23T10:30:45.123456+01:00"}}""";

  private EmbeddedApiServer api;
  private KubernetesClient client;
  private StatusServer server;
  private final TestTls tls = TestTls.create();
  private final HttpClient http = HttpClient.newBuilder().sslContext(tls.client()).build();

  @BeforeEach
  void start() throws IOException {
    api = EmbeddedApiServer.start();
    client = api.newClient();
    api.installCrds(getClass().getClassLoader()
        .getResourceAsStream("META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml"));
    for (String namespace : List.of("team", "other")) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
          .build()).create();
      await().atMost(Duration.ofSeconds(10)).until(() ->
          client.serviceAccounts().inNamespace(namespace).withName("default").get() != null);
    }
    trainJob("team", "a");
    trainJob("team", "b");
    trainJob("other", "a");
    server = server(5, 10, TrainJobs.none(), Clock.systemUTC());
  }

  /** A server (replacing the running one) with these limits, cache and clock. */
  private StatusServer server(double qps, int burst, TrainJobs trainJobs, Clock clock) throws IOException {
    if (server != null) {
      server.close();
    }
    server = new StatusServer(new StatusServer.Settings(new InetSocketAddress("127.0.0.1", 0), qps, burst),
        tls.server(), JwksTokenAuthenticator.discover(client, clock), client, trainJobs);
    server.start();
    return server;
  }

  @AfterEach
  void stop() {
    server.close();
    api.close();
  }

  @Test
  void anUpdateIsAppliedAsTheTrainJobsTrainerStatusByFieldManagerTrainerStatus() throws Exception {
    HttpResponse<String> response = post("team", "a", token("team", "a"), UPDATE);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(response.body())).isEqualTo(JSON.readTree("""
        {"trainerStatus": {"progressPercentage": 40, "estimatedRemainingSeconds": 12,
         "metrics": [{"name": "loss", "value": "0.031"}], "lastUpdatedTime": "2026-01-23T09:30:45Z"}}"""));
    TrainJob trainJob = client.resources(TrainJob.class).inNamespace("team").withName("a").get();
    assertThat(trainJob.getStatus().getTrainerStatus()).isEqualTo(new TrainerStatus().withProgressPercentage(40)
        .withEstimatedRemainingSeconds(12).withMetrics(List.of(new Metric().withName("loss").withValue("0.031")))
        .withLastUpdatedTime("2026-01-23T09:30:45Z"));
    assertThat(trainJob.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager,
            ManagedFieldsEntry::getOperation, ManagedFieldsEntry::getSubresource)
        .contains(org.assertj.core.groups.Tuple.tuple("trainer-status", "Apply", "status"));
    assertThat(api.writes()).filteredOn(w -> w.path().endsWith("/trainjobs/a/status"))
        .singleElement().satisfies(write -> {
          assertThat(write.method()).isEqualTo("PATCH");
          assertThat(write.contentType()).isEqualTo("application/apply-patch+yaml");
          assertThat(write.query()).isEqualTo("fieldManager=trainer-status&force=true");
        });
  }

  @Test
  void everyAcceptedReportsMetricsGoIntoTheHistoryTheRefusedNot() throws Exception {
    server.close();
    java.util.List<String> recorded = new java.util.concurrent.CopyOnWriteArrayList<>();
    server = new StatusServer(new StatusServer.Settings(new InetSocketAddress("127.0.0.1", 0), 5, 10),
        tls.server(), JwksTokenAuthenticator.discover(client, Clock.systemUTC()), client,
        (namespace, name) -> Optional.ofNullable(client.resources(TrainJob.class).inNamespace(namespace)
            .withName(name).get()),
        new io.kftrainer.statusserver.history.MetricHistory() {
          @Override
          public void record(String namespace, String name, String uid, List<Metric> metrics, long timeMillis) {
            recorded.add(namespace + "/" + name + " " + uid + " " + metrics.get(0).getValue());
          }

          @Override
          public java.util.Map<String, List<io.kftrainer.statusserver.history.MetricPoint>> series(
              String namespace, String name, String uid) {
            return java.util.Map.of();
          }
        });
    server.start();
    String uid = client.resources(TrainJob.class).inNamespace("team").withName("a").get().getMetadata().getUid();

    post("team", "a", token("team", "a"), UPDATE);
    post("team", "a", token("team", "a"), UPDATE); // unchanged: not written, still a report
    post("team", "a", token("team", "b"), UPDATE);
    post("team", "a", token("team", "a"),
        "{\"trainerStatus\": {\"progressPercentage\": 150, \"metrics\": [{\"name\": \"loss\", \"value\": \"1\"}], "
            + "\"lastUpdatedTime\": \"2026-01-23T10:30:45Z\"}}");

    assertThat(recorded).containsExactly("team/a " + uid + " 0.031", "team/a " + uid + " 0.031");
  }

  @Test
  void anUpdateReplacesTheTrainerStatusItDoesNotMergeIntoIt() throws Exception {
    post("team", "a", token("team", "a"), UPDATE);

    HttpResponse<String> response = post("team", "a", token("team", "a"),
        "{\"trainerStatus\": {\"lastUpdatedTime\": \"2026-01-23T10:31:00Z\"}}");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(trainerStatus("team", "a")).isEqualTo(new TrainerStatus().withLastUpdatedTime("2026-01-23T10:31:00Z"));
  }

  @Test
  void anUpdateWithoutTrainerStatusIsAcceptedAndWritesNothing() throws Exception {
    String token = token("team", "a");
    post("team", "a", token, UPDATE);
    api.resetRequests();

    HttpResponse<String> response = post("team", "a", token, "{}");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{}");
    assertThat(api.writes()).isEmpty();
    assertThat(trainerStatus("team", "a").getProgressPercentage()).isEqualTo(40);
  }

  @Test
  void anUnchangedStatusIsNotWrittenAgain() throws Exception {
    server(5, 10, (namespace, name) -> Optional.ofNullable(client.resources(TrainJob.class).inNamespace(namespace)
        .withName(name).get()), Clock.systemUTC());
    String token = token("team", "a");
    post("team", "a", token, UPDATE);
    api.resetRequests();

    HttpResponse<String> again = post("team", "a", token, UPDATE);

    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(api.writes()).isEmpty();
  }

  @Test
  void aValueTheApiServerRefusesIs422WithItsMessageAndChangesNothing() throws Exception {
    HttpResponse<String> response = post("team", "a", token("team", "a"),
        "{\"trainerStatus\": {\"progressPercentage\": 150, \"lastUpdatedTime\": \"2026-01-23T10:30:45Z\"}}");

    assertStatus(response, 422, "Invalid", null);
    assertThat(JSON.readTree(response.body()).path("message").asText()).contains("\"a\"")
        .contains("status.trainerStatus.progressPercentage");
    assertThat(trainerStatus("team", "a")).isNull();
  }

  @Test
  void aMissingLastUpdatedTimeIsRefusedByTheCrdsRule() throws Exception {
    HttpResponse<String> response = post("team", "a", token("team", "a"),
        "{\"trainerStatus\": {\"progressPercentage\": 10}}");

    assertStatus(response, 422, "Invalid", null);
    assertThat(JSON.readTree(response.body()).path("message").asText())
        .contains("lastUpdatedTime is required when trainerStatus is present");
  }

  @Test
  void bodiesThatAreNoUpdateRequestAre422InvalidPayload() throws Exception {
    String token = token("team", "a");
    for (String body : List.of("invalid payload", "{\"trainerStatus\": {\"progressPercentage\": \"45\"}}",
        "{\"trainerStatus\": {\"progressPercentage\": 45.5}}",
        "{\"trainerStatus\": {\"lastUpdatedTime\": \"yesterday\"}}", "{} {}")) {
      assertStatus(post("team", "a", token, body), 422, "Invalid", "Invalid payload");
    }
    assertThat(api.writes()).noneMatch(w -> w.path().endsWith("/status"));
  }

  @Test
  void aTrainJobThatDoesNotExistIs404() throws Exception {
    HttpResponse<String> response = post("team", "gone", token("team", "gone"), UPDATE);

    assertStatus(response, 404, "NotFound", "Train job not found");
  }

  @Test
  void withoutTokenOrWithAForgedOneTheAnswerIs401() throws Exception {
    String[] parts = token("team", "a").split("\\.");
    String forged = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();

    assertStatus(post("team", "a", null, UPDATE), 401, "Unauthorized", "Unauthorized");
    assertStatus(post("team", "a", "not-a-jwt", UPDATE), 401, "Unauthorized", "Unauthorized");
    assertStatus(post("team", "a", forged, UPDATE), 401, "Unauthorized", "Unauthorized");
    assertThat(trainerStatus("team", "a")).isNull();
  }

  @Test
  void anExpiredTokenIs401() throws Exception {
    String token = token("team", "a", 600);
    // the status server's clock 11 minutes ahead: the token's 10 minutes (and the 60 s leeway) are over
    server(5, 10, TrainJobs.none(), Clock.offset(Clock.systemUTC(), Duration.ofMinutes(11)));

    assertStatus(post("team", "a", token, UPDATE), 401, "Unauthorized", "Unauthorized");
    assertThat(trainerStatus("team", "a")).isNull();
  }

  @Test
  void anotherTrainJobsTokenIs403() throws Exception {
    assertStatus(post("team", "a", token("team", "b"), UPDATE), 403, "Forbidden", "Forbidden");
    assertStatus(post("team", "a", token("other", "a"), UPDATE), 403, "Forbidden", "Forbidden");
    assertThat(trainerStatus("team", "a")).isNull();
  }

  @Test
  void aBodyOver64KiBIs413BeforeItIsRead() throws Exception {
    String huge = "{\"trainerStatus\": {\"metrics\": [" + "{\"name\":\"m\",\"value\":\"0.5\"},".repeat(40_000)
        + "]}}";
    byte[] body = huge.getBytes(StandardCharsets.UTF_8);
    String token = token("team", "a");

    // the head of the request and 1 KiB of its ~1 MiB body: the answer comes without the rest
    try (SSLSocket socket = (SSLSocket) tls.client().getSocketFactory().createSocket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST " + path("team", "a") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Authorization: Bearer " + token + "\r\nContent-Length: " + body.length + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, 1024);
      out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      assertThat(in.readLine()).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
      String line;
      long contentLength = 0;
      while (!(line = in.readLine()).isEmpty()) {
        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
          contentLength = Long.parseLong(line.substring(15).trim());
        }
      }
      char[] answer = new char[(int) contentLength];
      assertThat(in.read(answer)).isEqualTo(answer.length);
      JsonNode status = JSON.readTree(new String(answer));
      assertThat(status.path("reason").asText()).isEqualTo("RequestEntityTooLarge");
      assertThat(status.path("message").asText()).isEqualTo("Payload too large");
      assertThat(status.path("code").asInt()).isEqualTo(413);
    }
    assertThat(trainerStatus("team", "a")).isNull();
  }

  @ParameterizedTest(name = "{0} bytes, chunked: {1}")
  @CsvSource({"1048576, false", "1048576, true", "16777216, false", "16777216, true"})
  void a413ReachesAClientStillSendingItsBody(int size, boolean chunked) throws Exception {
    HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path("team", "a")))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + token("team", "a"))
        .POST(body(size, chunked)).build());

    assertStatus(response, 413, "RequestEntityTooLarge", "Payload too large");
  }

  @Test
  void a404And405ReachAClientStillSendingItsBody() throws Exception {
    HttpResponse<String> unknown = send(HttpRequest.newBuilder(uri("/apis/trainer.kubeflow.org/v1alpha1/namespaces/"
        + "team/trainjobs/a")).POST(body(1 << 20, false)).build());
    HttpResponse<String> put = send(HttpRequest.newBuilder(uri(path("team", "a"))).PUT(body(1 << 20, false))
        .build());

    assertStatus(unknown, 404, "NotFound", "Not found");
    assertStatus(put, 405, "MethodNotAllowed", "Method not allowed: only POST");
  }

  /** {@code size} bytes, streamed, with their Content-Length or chunked. */
  private static HttpRequest.BodyPublisher body(int size, boolean chunked) {
    HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.ofInputStream(() ->
        new ByteArrayInputStream(new byte[size]));
    return chunked ? body : HttpRequest.BodyPublishers.fromPublisher(body, size);
  }

  @Test
  void overItsBudgetATrainJobGets429WithRetryAfterAndOthersAreNotSlowed() throws Exception {
    server(0.5, 2, TrainJobs.none(), Clock.systemUTC());
    String token = token("team", "a");
    assertThat(post("team", "a", token, UPDATE).statusCode()).isEqualTo(200);
    assertThat(post("team", "a", token, UPDATE).statusCode()).isEqualTo(200);

    HttpResponse<String> refused = post("team", "a", token, UPDATE);

    assertStatus(refused, 429, "TooManyRequests", null);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(JSON.readTree(refused.body()).path("details").path("retryAfterSeconds").asInt()).isEqualTo(2);
    assertThat(post("team", "b", token("team", "b"), UPDATE).statusCode()).isEqualTo(200);
  }

  @Test
  void otherPathsAre404AndOtherMethods405() throws Exception {
    HttpResponse<String> unknown = send(HttpRequest.newBuilder(uri("/apis/trainer.kubeflow.org/v1alpha1/namespaces/"
        + "team/trainjobs/a")).POST(HttpRequest.BodyPublishers.ofString(UPDATE)).build());
    HttpResponse<String> get = send(HttpRequest.newBuilder(uri(path("team", "a"))).GET().build());

    assertStatus(unknown, 404, "NotFound", "Not found");
    assertStatus(get, 405, "MethodNotAllowed", null);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
  }

  @Test
  void noAnswerNamesTheToken() throws Exception {
    String token = token("team", "b");

    HttpResponse<String> response = post("team", "a", token, UPDATE);

    assertThat(response.body()).doesNotContain(token);
    assertThat(response.headers().map().toString()).doesNotContain(token);
  }

  private void assertStatus(HttpResponse<String> response, int code, String reason, String message)
      throws IOException {
    assertThat(response.statusCode()).isEqualTo(code);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode status = JSON.readTree(response.body());
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("status").asText()).isEqualTo("Failure");
    assertThat(status.path("code").asInt()).isEqualTo(code);
    assertThat(status.path("reason").asText()).isEqualTo(reason);
    if (message != null) {
      assertThat(status.path("message").asText()).isEqualTo(message);
    }
  }

  private HttpResponse<String> post(String namespace, String name, String token, String body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path(namespace, name)))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return send(request.build());
  }

  private HttpResponse<String> send(HttpRequest request) throws Exception {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("https://127.0.0.1:" + server.port() + path);
  }

  private static String path(String namespace, String name) {
    return "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + namespace + "/trainjobs/" + name + "/status";
  }

  /** A token as the kubelet requests it for the TrainJobStatus plugin's projected volume. */
  private String token(String namespace, String trainJob) {
    return token(namespace, trainJob, 3600);
  }

  private String token(String namespace, String trainJob, long seconds) {
    Pod pod = client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata()
        .withGenerateName(trainJob + "-node-0-0-").endMetadata().withNewSpec().addNewContainer().withName("node")
        .withImage("train").endContainer().endSpec().build()).create();
    return client.serviceAccounts().inNamespace(namespace).withName("default").tokenRequest(
        new TokenRequestBuilder().withNewSpec()
            .withAudiences("trainer.kubeflow.org/v1alpha1/namespaces/" + namespace + "/trainjobs/" + trainJob
                + "/status")
            .withExpirationSeconds(seconds)
            .withNewBoundObjectRef().withApiVersion("v1").withKind("Pod").withName(pod.getMetadata().getName())
            .withUid(pod.getMetadata().getUid()).endBoundObjectRef()
            .endSpec().build()).getStatus().getToken();
  }

  private void trainJob(String namespace, String name) {
    TrainJob trainJob = new TrainJob();
    trainJob.getMetadata().setName(name);
    trainJob.getMetadata().setNamespace(namespace);
    TrainJobSpec spec = new TrainJobSpec();
    spec.setRuntimeRef(new RuntimeRef().withName("torch-distributed"));
    trainJob.setSpec(spec);
    client.resource(trainJob).create();
  }

  private TrainerStatus trainerStatus(String namespace, String name) {
    TrainJob trainJob = client.resources(TrainJob.class).inNamespace(namespace).withName(name).get();
    return trainJob.getStatus() == null ? null : trainJob.getStatus().getTrainerStatus();
  }
}
