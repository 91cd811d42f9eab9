package io.kftrainer.webhook;

import static io.kftrainer.webhook.cert.WebhookConfigurations.NAMESPACE;
import static io.kftrainer.webhook.cert.WebhookConfigurations.SECRET;
import static io.kftrainer.webhook.cert.WebhookConfigurations.SERVICE;
import static io.kftrainer.webhook.cert.WebhookConfigurations.SERVICE_HOST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.apiserver.CaBundleTrust;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.framework.loader.LoadedPlugin;
import io.kftrainer.framework.loader.PluginLoader;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.runtime.RuntimeCatalog;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.webhook.cert.CertificateIssuer;
import io.kftrainer.webhook.cert.GeneratedCertificates;
import io.kftrainer.webhook.cert.Pem;
import io.kftrainer.webhook.cert.RotationPolicy;
import io.kftrainer.webhook.cert.StoredCertificates;
import io.kftrainer.webhook.cert.TestingClock;
import io.kftrainer.webhook.cert.WebhookConfigurations;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The webhooks over real HTTPS, called as the API server calls them: AdmissionReview v1 JSON POSTed by a client that
 * trusts only the {@code caBundle} the operator published in the webhook configurations (read back from the API
 * server), and that requires the certificate to name {@code <svc>.<ns>.svc}.
 */
class WebhookServerTest {

  /** TLS clients check validity against the real clock: certificates are made relative to it. */
  private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  private static EmbeddedApiServer apiServer;
  private static WebhookServer webhookServer;

  @BeforeAll
  static void start() throws Exception {
    apiServer = EmbeddedApiServer.start();
    WebhookConfigurations.install(apiServer.client());
    webhookServer = server(apiServer, new TestingClock(START));
    webhookServer.start();
  }

  @AfterAll
  static void stop() {
    webhookServer.stop();
    apiServer.close();
  }

  static Stream<Arguments> reviews() {
    TrainJob valid = trainJob(tj -> {
    });
    TrainJob missingRuntime = trainJob(tj -> tj.getSpec().getRuntimeRef().setName("nope"));
    TrainJob withPatch = Fixtures.trainJob("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
        + "metadata: {name: job, namespace: team-a}\n"
        + "spec: {runtimeRef: {name: torch-distributed}, runtimePatches: [{manager: example.com/tool}]}\n");
    TrainingRuntime badRuntime = Fixtures.serialization().unmarshal(Fixtures.resource("webhook/runtime.yaml"),
        TrainingRuntime.class);
    badRuntime.getSpec().getTemplate().getSpec().getReplicatedJobs().get(2).setReplicas(3);
    return Stream.of(
        Arguments.of("a valid TrainJob is allowed", WebhookPaths.VALIDATE_TRAINJOB, valid, true, null),
        Arguments.of("a TrainJob of a missing runtime is denied", WebhookPaths.VALIDATE_TRAINJOB, missingRuntime,
            false, "TrainJob.trainer.kubeflow.org \"job\" is invalid: spec.runtimeRef: Not found: \"nope\": "
                + "specified clusterTrainingRuntime must be created before the TrainJob is created"),
        Arguments.of("the defaulter stamps a runtime patch", WebhookPaths.MUTATE_TRAINJOB, withPatch, true, null),
        Arguments.of("a TrainingRuntime whose trainer runs 3 replicas is denied",
            WebhookPaths.VALIDATE_TRAINING_RUNTIME, badRuntime, false,
            "TrainingRuntime.trainer.kubeflow.org \"llm\" is invalid: spec.template.spec.replicatedJobs[2].replicas: "
                + "Invalid value: 3: always must be 1"),
        Arguments.of("a ClusterTrainingRuntime is validated on its own path",
            WebhookPaths.VALIDATE_CLUSTER_TRAINING_RUNTIME, clusterRuntime(), true, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reviews")
  void eachWebhookAnswersOverTlsTrustedThroughThePublishedCaBundle(String name, String path, HasMetadata object,
      boolean allowed, String message) throws Exception {
    AdmissionRequest request = TestingAdmission.create(object);

    HttpResponse<String> response = post(client(publishedCaBundle(), SERVICE_HOST), path, "application/json",
        TestingAdmission.review(request));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
    AdmissionReview review = TestingAdmission.SERIALIZATION.unmarshal(response.body(), AdmissionReview.class);
    assertThat(review.getApiVersion()).isEqualTo("admission.k8s.io/v1");
    AdmissionResponse answer = review.getResponse();
    assertThat(answer.getUid()).isEqualTo(request.getUid());
    assertThat(answer.getAllowed()).isEqualTo(allowed);
    if (message != null) {
      assertThat(answer.getStatus().getCode()).isEqualTo(422);
      assertThat(answer.getStatus().getMessage()).isEqualTo(message);
    }
    if (path.equals(WebhookPaths.MUTATE_TRAINJOB)) {
      assertThat(answer.getPatchType()).isEqualTo("JSONPatch");
      assertThat(new String(Base64.getDecoder().decode(answer.getPatch()), StandardCharsets.UTF_8))
          .isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/runtimePatches/0/time\",\"value\":\"" + START + "\"}]");
    }
  }

  @Test
  void theHandshakeIsTls13WithTheServiceCertificate() throws Exception {
    HttpResponse<String> response = post(client(publishedCaBundle(), SERVICE_HOST), WebhookPaths.VALIDATE_TRAINJOB,
        "application/json", TestingAdmission.review(TestingAdmission.create(trainJob(tj -> {
        }))));

    var session = response.sslSession().orElseThrow();
    assertThat(session.getProtocol()).isEqualTo("TLSv1.3");
    X509Certificate presented = (X509Certificate) session.getPeerCertificates()[0];
    assertThat(presented).isEqualTo(webhookServer.certificates().keyManager().current().orElseThrow().certificate());
    assertThat(presented.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))))
        .containsExactly(SERVICE_HOST, SERVICE_HOST + ".cluster.local");
  }

  @Test
  void aTls12OnlyClientIsServedToo() throws Exception {
    SSLParameters tls12 = new SSLParameters();
    tls12.setProtocols(new String[] {"TLSv1.2"});
    HttpClient client = HttpClient.newBuilder().sslContext(CaBundleTrust.sslContext(base64(publishedCaBundle()), SERVICE_HOST))
        .sslParameters(tls12).build();

    HttpResponse<String> response = post(client, WebhookPaths.VALIDATE_TRAINJOB, "application/json",
        TestingAdmission.review(TestingAdmission.create(trainJob(tj -> {
        }))));

    assertThat(response.sslSession().orElseThrow().getProtocol()).isEqualTo("TLSv1.2");
  }

  @Test
  void theTlsOptionsOfTheConfigurationApplyToTheWebhooks() throws Exception {
    WebhookServer tls13 = server(apiServer, new TestingClock(START), () -> true,
        new TlsOptions(Optional.of("1.3"), List.of(), List.of()));
    tls13.start();
    try {
      SSLParameters tls12 = new SSLParameters();
      tls12.setProtocols(new String[] {"TLSv1.2"});
      HttpClient tls12Client = HttpClient.newBuilder()
          .sslContext(CaBundleTrust.sslContext(base64(publishedCaBundle()), SERVICE_HOST)).sslParameters(tls12).build();
      String review = TestingAdmission.review(TestingAdmission.create(trainJob(tj -> {
      })));

      assertThatThrownBy(() -> post(tls12Client, tls13.port(), WebhookPaths.VALIDATE_TRAINJOB, review))
          .isInstanceOf(SSLHandshakeException.class);
      assertThat(post(client(publishedCaBundle(), SERVICE_HOST), tls13.port(), WebhookPaths.VALIDATE_TRAINJOB, review)
          .sslSession().orElseThrow().getProtocol()).isEqualTo("TLSv1.3");
    } finally {
      tls13.stop();
    }
  }

  @Test
  void aClientTrustingAnotherCaRefusesTheServer() throws Exception {
    var otherCa = new CertificateIssuer(new TestingClock(START)).newAuthority();
    String otherBundle = Pem.encode(List.of(otherCa.certificate()));

    assertThatThrownBy(() -> post(client(otherBundle, SERVICE_HOST), WebhookPaths.VALIDATE_TRAINJOB,
        "application/json", "{}")).isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void aClientCallingAnotherHostRefusesTheServer() throws Exception {
    assertThatThrownBy(() -> post(client(publishedCaBundle(), "other-service." + NAMESPACE + ".svc"),
        WebhookPaths.VALIDATE_TRAINJOB, "application/json", "{}"))
        .isInstanceOf(SSLHandshakeException.class);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "a GET is not allowed | GET | /validate-trainer-kubeflow-org-v1alpha1-trainjob | application/json | 405",
      "a body that is not JSON is refused | POST | /validate-trainer-kubeflow-org-v1alpha1-trainjob | text/plain | 415",
      "a JSON body that is no AdmissionReview is a bad request | POST | "
          + "/validate-trainer-kubeflow-org-v1alpha1-trainjob | application/json; charset=utf-8 | 400",
      "an unknown path is not found | POST | /validate-something-else | application/json | 404"})
  void protocolErrors(String name, String method, String path, String contentType, int status) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
        .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString("{\"kind\":\"Pod\"}"))
        .build();

    HttpResponse<String> response = client(publishedCaBundle(), SERVICE_HOST).send(request,
        HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(status);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "a body that is not JSON | 1048576 | text/plain | 415 | the body must be application/json",
      "a body above the limit | 16777216 | application/json | 413 | the body exceeds 7340032 bytes"})
  void aRefusalReachesAClientStillSendingItsBody(String name, int size, String contentType, int status,
      String message) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(uri(WebhookPaths.VALIDATE_TRAINJOB)).header("Content-Type",
        contentType).POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() ->
            new java.io.ByteArrayInputStream(new byte[size])), size)).build();

    HttpResponse<String> response = client(publishedCaBundle(), SERVICE_HOST).send(request,
        HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.body()).isEqualTo(message + "\n");
  }

  @Test
  void aBodyAboveTheLimitIsRefusedBeforeItIsRead() throws Exception {
    SSLContext tls = CaBundleTrust.sslContext(base64(publishedCaBundle()), SERVICE_HOST);
    try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
        webhookServer.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST " + WebhookPaths.VALIDATE_TRAINJOB + " HTTP/1.1\r\nHost: " + SERVICE_HOST + "\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + (WebhookServer.MAX_REQUEST_BYTES + 1)
          + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(),
          StandardCharsets.US_ASCII)).readLine();

      assertThat(statusLine).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
    }
  }

  @Test
  void aRenewedCertificateIsServedOnTheSameListenerAndTheOldCaStillVerifiesIt() throws Exception {
    try (EmbeddedApiServer otherApiServer = EmbeddedApiServer.start()) {
      WebhookConfigurations.install(otherApiServer.client());
      TestingClock clock = new TestingClock(START.minus(Duration.ofDays(340)));
      WebhookServer server = server(otherApiServer, clock);
      server.start();
      try {
        String bundle = WebhookConfigurations.caBundles(otherApiServer.client()).get(0);
        int port = server.port();
        X509Certificate before = presented(bundle, port);

        clock.advance(Duration.ofDays(340));
        StoredCertificates renewed = ((GeneratedCertificates) server.certificates()).reconcile();
        X509Certificate after = presented(bundle, port);

        assertThat(server.port()).isEqualTo(port);
        assertThat(after).isNotEqualTo(before).isEqualTo(renewed.serving().certificate());
        assertThat(WebhookConfigurations.caBundles(otherApiServer.client()).get(0)).isEqualTo(bundle);
      } finally {
        server.stop();
      }
      assertThat(server.isServing()).isFalse();
    }
  }

  @Test
  void theServerIsServingOnceStarted() {
    assertThat(webhookServer.isServing()).isTrue();
  }

  @Test
  void theServerIsAliveUntilItsCertificateExpiresUnrenewed() {
    Instant notAfter = webhookServer.certificates().keyManager().current().orElseThrow().notAfter();

    assertThat(webhookServer.isAlive(START)).isTrue();
    assertThat(webhookServer.isAlive(notAfter.minusSeconds(1))).isTrue();
    assertThat(webhookServer.isAlive(notAfter.plusSeconds(1))).as("expired: every admission fails TLS").isFalse();
  }

  @Test
  void untilTheCachesAreSyncedTheTrainJobValidatorAnswers503AndTheServerIsNotReady() throws Exception {
    AtomicBoolean synced = new AtomicBoolean();
    WebhookServer starting = server(apiServer, new TestingClock(START), synced::get);
    starting.start();
    try {
      HttpClient client = client(publishedCaBundle(), SERVICE_HOST);
      String review = TestingAdmission.review(TestingAdmission.create(trainJob(tj -> {
      })));

      HttpResponse<String> validating = post(client, starting.port(), WebhookPaths.VALIDATE_TRAINJOB, review);
      HttpResponse<String> defaulting = post(client, starting.port(), WebhookPaths.MUTATE_TRAINJOB, review);

      assertThat(starting.isServing()).isFalse();
      assertThat(validating.statusCode()).isEqualTo(503);
      assertThat(validating.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(validating.body()).isEqualTo("the trainer operator is starting: its caches of TrainingRuntimes and "
          + "ClusterTrainingRuntimes are not synced yet\n");
      assertThat(defaulting.statusCode()).as("a webhook that reads no cache answers").isEqualTo(200);

      synced.set(true);

      assertThat(starting.isServing()).isTrue();
      HttpResponse<String> ready = post(client, starting.port(), WebhookPaths.VALIDATE_TRAINJOB, review);
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(TestingAdmission.SERIALIZATION.unmarshal(ready.body(), AdmissionReview.class).getResponse()
          .getAllowed()).isTrue();
    } finally {
      starting.stop();
    }
  }

  /**
   * Many admissions at once, each on its own connection, while every handler thread is busy: all are answered, none
   * turned away (kube-apiserver does not try a webhook call again: a request dropped is an admission failed).
   */
  @Test
  void concurrentAdmissionsBeyondTheThreadsAreAllAnswered() throws Exception {
    int clients = 200;
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger admitted = new AtomicInteger();
    GeneratedCertificates certificates = new GeneratedCertificates(apiServer.newClient(), NAMESPACE, SECRET, SERVICE,
        new TestingClock(START), new RotationPolicy(), Duration.ofHours(1));
    WebhookServer busy = new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), certificates,
        Map.of(WebhookPaths.VALIDATE_TRAINJOB, request -> {
          admitted.incrementAndGet();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return TestingWebhookServer.allowed();
        }), TestingAdmission.SERIALIZATION);
    busy.start();
    try {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .sslContext(CaBundleTrust.sslContext(base64(publishedCaBundle()), SERVICE_HOST))
          .connectTimeout(Duration.ofSeconds(30)).build();
      HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + busy.port()
          + WebhookPaths.VALIDATE_TRAINJOB)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(TestingAdmission.review(TestingAdmission.create(trainJob(tj -> {
          }))))).build();
      List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
      }
      await("every handler thread busy").atMost(Duration.ofSeconds(30))
          .until(() -> admitted.get() == WebhookServer.THREADS);
      release.countDown();

      List<Integer> statuses = new ArrayList<>();
      for (CompletableFuture<HttpResponse<String>> response : responses) {
        statuses.add(response.get(60, TimeUnit.SECONDS).statusCode());
      }
      assertThat(statuses).hasSize(clients).containsOnly(200);
      assertThat(admitted).hasValue(clients);
    } finally {
      release.countDown();
      busy.stop();
    }
  }

  @Test
  void aPortInUseFailsTheStartAndLeavesNothingServing() {
    GeneratedCertificates certificates = new GeneratedCertificates(apiServer.newClient(), NAMESPACE, SECRET, SERVICE,
        new TestingClock(START), new RotationPolicy(), Duration.ofHours(1));
    WebhookServer second = new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(),
        webhookServer.port()), certificates, Map.of(), TestingAdmission.SERIALIZATION);

    assertThatThrownBy(second::start).isInstanceOf(BindException.class);
    assertThat(second.isServing()).isFalse();
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static WebhookServer server(EmbeddedApiServer apiServer, TestingClock clock) {
    return server(apiServer, clock, () -> true);
  }

  private static WebhookServer server(EmbeddedApiServer apiServer, TestingClock clock, BooleanSupplier cachesSynced) {
    return server(apiServer, clock, cachesSynced, TlsOptions.DEFAULTS);
  }

  private static WebhookServer server(EmbeddedApiServer apiServer, TestingClock clock, BooleanSupplier cachesSynced,
      TlsOptions tls) {
    RuntimeCatalog runtimes = new RuntimeCatalog(List.of(clusterRuntimeSource()));
    GeneratedCertificates certificates = new GeneratedCertificates(apiServer.newClient(), NAMESPACE, SECRET, SERVICE,
        clock, new RotationPolicy(), Duration.ofHours(1));
    return new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), certificates,
        WebhookPaths.handlers(builtInRunner(), runtimes,
            ObjectLookup.empty(), clock, TestingAdmission.SERIALIZATION),
        TestingAdmission.SERIALIZATION, cachesSynced, tls);
  }

  private static X509Certificate presented(String caBundle, int port) throws Exception {
    HttpClient client = client(caBundle, SERVICE_HOST);
    HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port
        + WebhookPaths.VALIDATE_TRAINJOB)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(TestingAdmission.review(TestingAdmission.create(trainJob(tj -> {
        }))))).build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  private static String publishedCaBundle() {
    List<String> bundles = WebhookConfigurations.caBundles(apiServer.client());
    assertThat(bundles).hasSize(4).doesNotContainNull().containsOnly(bundles.get(0));
    return bundles.get(0);
  }

  private static HttpClient client(String caBundle, String host) throws Exception {
    return HttpClient.newBuilder().sslContext(CaBundleTrust.sslContext(base64(caBundle), host))
        .connectTimeout(Duration.ofSeconds(10)).build();
  }

  private static HttpResponse<String> post(HttpClient client, String path, String contentType, String body)
      throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(HttpClient client, int port, String path, String review)
      throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(review)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("https://127.0.0.1:" + webhookServer.port() + path);
  }

  private static TrainJob trainJob(Consumer<TrainJob> edit) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("webhook/trainjob.yaml"));
    edit.accept(trainJob);
    return trainJob;
  }

  private static HasMetadata clusterRuntime() {
    return Fixtures.objects(Fixtures.resource("webhook/runtimes.yaml")).get(0);
  }

  private static RuntimeSource clusterRuntimeSource() {
    return Fixtures.runtime(Fixtures.serialization().asYaml(clusterRuntime()));
  }

  /** A runner over the built-in plugins on the test class path, as the operator loads them. */
  private static io.kftrainer.framework.runner.PhaseRunner builtInRunner() {
    return TestPipeline.of(PluginLoader.load(WebhookServerTest.class.getClassLoader()).plugins().stream()
        .map(LoadedPlugin::plugin).toList()).runner();
  }
}
