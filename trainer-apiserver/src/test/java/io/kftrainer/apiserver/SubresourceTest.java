package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Subresources: pod logs through a {@link PodLogSource}; everything unimplemented answers with a Status. */
class SubresourceTest {

  /** A fake log source: fixed logs per container, and pipes for followed logs. */
  private static final class TestingLogSource implements PodLogSource {
    final Map<String, String> logs = new ConcurrentHashMap<>();
    final Map<String, PipedInputStream> followed = new ConcurrentHashMap<>();
    final List<String> calls = new CopyOnWriteArrayList<>();

    final Map<String, java.util.function.Supplier<InputStream>> generated = new ConcurrentHashMap<>();

    @Override
    public Optional<InputStream> open(String namespace, String pod, String container, Request request) {
      String key = namespace + "/" + pod + "/" + container;
      calls.add(key + " " + request);
      if (request.previous()) {
        throw new IllegalArgumentException("previous terminated container \"" + container + "\" in pod \"" + pod
            + "\" not found");
      }
      if (request.follow() && followed.containsKey(key)) {
        return Optional.of(followed.get(key));
      }
      if (generated.containsKey(key)) {
        return Optional.of(generated.get(key).get());
      }
      String log = logs.get(key);
      if (log != null && request.tailLines() != null) {
        List<String> lines = log.lines().toList();
        log = String.join("", lines.subList(Math.max(0, lines.size() - request.tailLines()), lines.size())
            .stream().map(l -> l + "\n").toList());
      }
      return log == null ? Optional.empty()
          : Optional.of(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)));
    }
  }

  private final TestingLogSource source = new TestingLogSource();
  private EmbeddedApiServer server;
  private Http http;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.builder().podLogs(source).start();
    http = new Http(server);
    server.client().pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("one")
        .endMetadata().withNewSpec().addNewContainer().withName("trainer").withImage("i").endContainer().endSpec()
        .build()).create();
    server.client().pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("two")
        .endMetadata().withNewSpec().addNewInitContainer().withName("init").withImage("i").endInitContainer()
        .addNewContainer().withName("a").withImage("i").endContainer()
        .addNewContainer().withName("b").withImage("i").endContainer().endSpec().build()).create();
    server.client().secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata()
        .withName("webhook-cert").endMetadata().addToStringData("tls.key", "PRIVATE KEY").build()).create();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void logsOfTheSingleContainerWithTailLines() {
    source.logs.put("default/one/trainer", "epoch 1\nepoch 2\nepoch 3\n");
    Http.Response all = http.get("/api/v1/namespaces/default/pods/one/log");
    assertThat(all.code()).isEqualTo(200);
    assertThat(all.body()).isEqualTo("epoch 1\nepoch 2\nepoch 3\n");
    assertThat(http.get("/api/v1/namespaces/default/pods/one/log?tailLines=2").body()).isEqualTo("epoch 2\nepoch 3\n");
    assertThat(source.calls).contains("default/one/trainer Request[follow=false, tailLines=2, sinceTime=null, "
        + "timestamps=false, previous=false]");
    assertThat(server.client().pods().inNamespace("default").withName("one").getLog()).contains("epoch 3");
  }

  @Test
  void logOptionsReachTheSourceAndLimitBytesCutsTheStream() {
    source.logs.put("default/one/trainer", "epoch 1\nepoch 2\nepoch 3\n");
    assertThat(http.get("/api/v1/namespaces/default/pods/one/log?limitBytes=10").body()).isEqualTo("epoch 1\nep");
    assertThat(http.get("/api/v1/namespaces/default/pods/one/log?tailLines=1&limitBytes=100").body())
        .isEqualTo("epoch 3\n");
    http.get("/api/v1/namespaces/default/pods/one/log?sinceSeconds=60&timestamps=true");
    assertThat(source.calls.get(source.calls.size() - 1)).contains("timestamps=true").doesNotContain("sinceTime=null");
    http.get("/api/v1/namespaces/default/pods/one/log?sinceTime=2026-01-02T03:04:05Z");
    assertThat(source.calls.get(source.calls.size() - 1)).contains("sinceTime=2026-01-02T03:04:05Z");
    assertStatus(http.get("/api/v1/namespaces/default/pods/one/log?previous=true"), 400, "BadRequest",
        "previous terminated container \"trainer\" in pod \"one\" not found");
  }

  @Test
  void booleanLogOptionsAreReadAsKubeApiserverReadsThem() {
    // the Kubernetes Python client (the Kubeflow SDK's get_job_logs(follow=True)) sends follow=True
    source.logs.put("default/one/trainer", "x\n");
    for (String value : List.of("true", "True", "TRUE", "1", "")) {
      http.get("/api/v1/namespaces/default/pods/one/log?follow=" + value + "&timestamps=" + value);
      assertThat(source.calls.get(source.calls.size() - 1)).as(value).contains("follow=true", "timestamps=true");
    }
    for (String value : List.of("false", "False", "0")) {
      http.get("/api/v1/namespaces/default/pods/one/log?follow=" + value);
      assertThat(source.calls.get(source.calls.size() - 1)).as(value).contains("follow=false");
    }
    http.get("/api/v1/namespaces/default/pods/one/log");
    assertThat(source.calls.get(source.calls.size() - 1)).contains("follow=false", "timestamps=false");
  }

  @Test
  void badLogOptionsAreRefusedAsKubeApiserverDoes() {
    source.logs.put("default/one/trainer", "x\n");
    assertStatus(http.get("/api/v1/namespaces/default/pods/one/log?limitBytes=0"), 422, "Invalid",
        "PodLogOptions \"one\" is invalid: limitBytes: Invalid value: 0: must be greater than 0");
    assertStatus(http.get("/api/v1/namespaces/default/pods/one/log?tailLines=-1"), 422, "Invalid",
        "PodLogOptions \"one\" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0");
    assertStatus(http.get("/api/v1/namespaces/default/pods/one/log?sinceSeconds=0"), 422, "Invalid",
        "PodLogOptions \"one\" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0");
    assertThat(http.get("/api/v1/namespaces/default/pods/one/log?sinceSeconds=5&sinceTime=2026-01-02T03:04:05Z")
        .code()).isEqualTo(422);
    assertThat(http.get("/api/v1/namespaces/default/pods/one/log?tailLines=x").code()).isEqualTo(400);
  }

  @Test
  void aLogLargerThanMemoryIsStreamedWholeAndLimitBytesStopsReadingIt() throws Exception {
    long size = 256L << 20; // more than the test JVM may hold at once in the response
    java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
    source.generated.put("default/one/trainer", () -> new InputStream() {
      private long left = size;

      @Override
      public int read() {
        return left-- > 0 ? 'x' : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left <= 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        java.util.Arrays.fill(b, off, off + n, (byte) (n % 64 == 0 ? '\n' : 'x'));
        left -= n;
        read.addAndGet(n);
        return n;
      }
    });
    java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
        .sslContext(server.trustingSslContext()).build();
    java.net.http.HttpResponse<InputStream> whole = client.send(java.net.http.HttpRequest.newBuilder(
        java.net.URI.create(server.url() + "/api/v1/namespaces/default/pods/one/log"))
        .header("Authorization", "Bearer " + server.bearerToken()).build(),
        java.net.http.HttpResponse.BodyHandlers.ofInputStream());
    long received = 0;
    try (InputStream in = whole.body()) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        received += n;
      }
    }
    assertThat(received).isEqualTo(size);

    read.set(0);
    Http.Response limited = http.get("/api/v1/namespaces/default/pods/one/log?limitBytes=100000");
    assertThat(limited.body()).hasSize(100000);
    assertThat(read.get()).as("the server stops reading at the limit").isLessThan(200_000);
  }

  @Test
  void aPodWithSeveralContainersNeedsAContainerName() {
    source.logs.put("default/two/b", "from b\n");
    Http.Response unnamed = http.get("/api/v1/namespaces/default/pods/two/log");
    assertStatus(unnamed, 400, "BadRequest", "a container name must be specified for pod two, choose one of: [a b] "
        + "or one of the init containers: [init]");
    assertThat(http.get("/api/v1/namespaces/default/pods/two/log?container=b").body()).isEqualTo("from b\n");
    assertStatus(http.get("/api/v1/namespaces/default/pods/two/log?container=zz"), 400, "BadRequest",
        "container zz is not valid for pod two");
  }

  @Test
  void noLogIsNotFoundAndAMissingPodToo() {
    assertStatus(http.get("/api/v1/namespaces/default/pods/one/log"), 404, "NotFound",
        "the server could not find the requested resource ( pods/log one)");
    assertStatus(http.get("/api/v1/namespaces/default/pods/nope/log"), 404, "NotFound", "pods \"nope\" not found");
    try (EmbeddedApiServer withoutSource = EmbeddedApiServer.start()) {
      withoutSource.client().pods().inNamespace("default").resource(new PodBuilder().withNewMetadata()
          .withName("p").endMetadata().withNewSpec().addNewContainer().withName("c").endContainer().endSpec()
          .build()).create();
      assertThat(new Http(withoutSource).get("/api/v1/namespaces/default/pods/p/log").code()).isEqualTo(404);
    }
  }

  @Test
  void unimplementedSubresourcesAndMethodsAnswerWithAStatusNeverWithObjects() {
    for (String path : List.of("/api/v1/namespaces/default/pods/one/exec", "/api/v1/namespaces/default/pods/one/attach",
        "/api/v1/namespaces/default/pods/one/portforward")) {
      assertStatus(http.get(path), 400, "BadRequest", "Upgrade request required");
    }
    for (String path : List.of("/api/v1/namespaces/default/pods/one/proxy", "/api/v1/namespaces/default/pods/one/x",
        "/api/v1/namespaces/default/configmaps/c/status", "/api/v1/namespaces/default/pods/one/log/extra",
        "/api/v1/namespaces/default/nothings", "/apis/nope.example.com/v1/things")) {
      Http.Response response = http.get(path);
      assertStatus(response, 404, "NotFound", "the server could not find the requested resource");
      assertThat(response.body()).doesNotContain("PRIVATE KEY", "items");
    }
    assertStatus(http.post("/api/v1/namespaces/default/pods/one", "application/json", "{}"), 405,
        "MethodNotAllowed", "the server does not allow this method on the requested resource");
    assertStatus(http.patch("/api/v1/namespaces/default/pods", "application/merge-patch+json", "{}"), 405,
        "MethodNotAllowed", "the server does not allow this method on the requested resource");
    assertThatThrownBy(() -> server.client().pods().inNamespace("default").withName("one").exec("ls"))
        .isInstanceOf(KubernetesClientException.class);
  }

  @Test
  void kubectlLogsAndLogsFollow(@TempDir Path dir) throws IOException {
    Kubectl kubectl = new Kubectl(server, dir);
    source.logs.put("default/one/trainer", "line 1\nline 2\n");
    assertThat(kubectl.ok("logs", "one")).isEqualTo("line 1\nline 2\n");
    assertThat(kubectl.ok("logs", "one", "--tail=1")).isEqualTo("line 2\n");
    source.logs.put("default/two/b", "from b\n");
    assertThat(kubectl.ok("logs", "two", "-c", "b")).isEqualTo("from b\n");
    Kubectl.Result unnamed = kubectl.run("logs", "two");
    assertThat(unnamed.exit()).as("kubectl picks the first container itself, which has no log").isNotZero();
    assertThat(unnamed.output()).contains("Defaulted container \"a\"",
        "Error from server (NotFound): the server could not find the requested resource ( pods/log two)");

    PipedOutputStream pipe = new PipedOutputStream();
    source.followed.put("default/one/trainer", new PipedInputStream(pipe));
    try (Kubectl.Streaming follow = kubectl.start("logs", "-f", "one")) {
      pipe.write("step 1\n".getBytes(StandardCharsets.UTF_8));
      pipe.flush();
      await().atMost(Duration.ofSeconds(20)).until(() -> follow.lines.contains("step 1"));
      pipe.write("step 2\n".getBytes(StandardCharsets.UTF_8));
      pipe.close();
      await().atMost(Duration.ofSeconds(20)).until(() -> !follow.isAlive());
      assertThat(follow.lines).containsExactly("step 1", "step 2");
    }
  }

  private static void assertStatus(Http.Response response, int code, String reason, String message) {
    assertThat(response.code()).as(response.body()).isEqualTo(code);
    JsonNode status = response.json();
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("status").asText()).isEqualTo("Failure");
    assertThat(status.path("code").asInt()).isEqualTo(code);
    assertThat(status.path("reason").asText()).isEqualTo(reason);
    assertThat(status.path("message").asText()).isEqualTo(message);
  }
}
