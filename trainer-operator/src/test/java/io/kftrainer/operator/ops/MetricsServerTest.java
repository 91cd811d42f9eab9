package io.kftrainer.operator.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kftrainer.apiserver.AdmissionHook;
import io.kftrainer.apiserver.AdmissionResponse;
import io.kftrainer.apiserver.CaBundleTrust;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.webhook.TlsOptions;
import io.kftrainer.webhook.cert.CertificateAuthority;
import io.kftrainer.webhook.cert.CertificateIssuer;
import io.kftrainer.webhook.cert.Pem;
import io.kftrainer.webhook.cert.ServingCertificate;
import io.kftrainer.webhook.cert.SwappableKeyManager;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} as upstream's manager serves it: Prometheus text over plain HTTP or over HTTPS with a serving
 * certificate and the {@code tls} options, and with {@code metrics.auth} every scrape checked by the API server.
 * For the latter the embedded API server plays the cluster's authenticator and RBAC through admission hooks on
 * TokenReviews and SubjectAccessReviews: two known tokens, and {@code get} on {@code /metrics} granted to the
 * Prometheus service account only.
 */
class MetricsServerTest {

  private static final String SERVER_NAME = "kubeflow-trainer-controller-manager.kubeflow-system.svc";
  private static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";
  private static final Map<String, String> USERS_BY_TOKEN = Map.of("scraper-token", PROMETHEUS,
      "alice-token", "alice");

  private static EmbeddedApiServer apiServer;
  private static final AtomicInteger TOKEN_REVIEWS = new AtomicInteger();
  private static final List<Map<String, Object>> ACCESS_REVIEWS = Collections.synchronizedList(new ArrayList<>());
  private static CertificateAuthority ca;
  private static SwappableKeyManager keyManager;

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private MetricsServer server;

  @BeforeAll
  static void startCluster() {
    apiServer = EmbeddedApiServer.start();
    apiServer.addAdmissionHook(AdmissionHook.mutating("authentication.k8s.io", "TokenReview",
        request -> AdmissionResponse.mutate(authenticate(request.object()))));
    apiServer.addAdmissionHook(AdmissionHook.mutating("authorization.k8s.io", "SubjectAccessReview",
        request -> AdmissionResponse.mutate(authorize(request.object()))));
    CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
    ca = issuer.newAuthority();
    ServingCertificate certificate = issuer.issue(ca, List.of(SERVER_NAME), List.of(ca.certificate()));
    keyManager = new SwappableKeyManager();
    keyManager.swap(certificate);
  }

  @AfterAll
  static void stopCluster() {
    apiServer.close();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
    TOKEN_REVIEWS.set(0);
    ACCESS_REVIEWS.clear();
  }

  @Test
  void plainHttpServesPrometheusTextWithJvmMetrics() throws Exception {
    server = start(MetricsServer.plainHttp(loopback(), registry));

    HttpResponse<String> response = send(HttpClient.newHttpClient(), "http", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body()).contains("# TYPE jvm_memory_used_bytes gauge", "jvm_threads_live_threads",
        "jvm_classes_loaded_classes", "process_uptime_seconds", "system_cpu_count");
  }

  @Test
  void openMetricsIsServedWhenAskedFor() throws Exception {
    server = start(MetricsServer.plainHttp(loopback(), registry));

    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri("http"))
        .header("Accept", "application/openmetrics-text; version=1.0.0").build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.headers().firstValue("Content-Type"))
        .contains("application/openmetrics-text; version=1.0.0; charset=utf-8");
    assertThat(response.body()).endsWith("# EOF\n");
  }

  @Test
  void onlyGetIsAllowed() throws Exception {
    server = start(MetricsServer.plainHttp(loopback(), registry));

    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri("http"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
  }

  @Test
  void aRegistryThatIsNotPrometheusHasNothingToScrape() throws Exception {
    server = start(MetricsServer.plainHttp(loopback(), new SimpleMeterRegistry()));

    assertThat(send(HttpClient.newHttpClient(), "http", null).statusCode()).isEqualTo(404);
  }

  @Test
  void httpsPresentsTheServingCertificateToAClientThatTrustsItsCa() throws Exception {
    server = start(secure(TlsOptions.DEFAULTS, Optional.empty()));

    HttpResponse<String> response = send(trustingClient(), "https", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.sslSession().orElseThrow().getPeerCertificates()[0])
        .isEqualTo(keyManager.current().orElseThrow().certificate());
    assertThat(response.body()).contains("jvm_memory_used_bytes");
    assertThatThrownBy(() -> send(HttpClient.newHttpClient(), "http", null)).isInstanceOf(IOException.class);
  }

  @Test
  void theTlsOptionsDecideTheProtocolsAndSuites() throws Exception {
    server = start(secure(new TlsOptions(Optional.of("1.3"), List.of(), List.of()), Optional.empty()));

    assertThatThrownBy(() -> send(trustingClient("TLSv1.2"), "https", null)).isInstanceOf(SSLHandshakeException.class);
    HttpResponse<String> response = send(trustingClient("TLSv1.3"), "https", null);
    assertThat(response.sslSession().orElseThrow().getProtocol()).isEqualTo("TLSv1.3");
  }

  @Test
  void cipherSuitesRestrictTls12() throws Exception {
    String suite = "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384";
    server = start(secure(new TlsOptions(Optional.empty(), List.of(suite), List.of()), Optional.empty()));

    HttpResponse<String> response = send(trustingClient("TLSv1.2"), "https", null);

    assertThat(response.sslSession().orElseThrow().getCipherSuite()).isEqualTo(suite);
  }

  @Test
  void withAuthAScrapeWithoutATokenIsUnauthorized() throws Exception {
    server = start(secure(TlsOptions.DEFAULTS, Optional.of(new DelegatingAuth(apiServer.client()))));

    HttpResponse<String> response = send(trustingClient(), "https", null);

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.body()).isEqualTo("Unauthorized\n");
    assertThat(TOKEN_REVIEWS).hasValue(0);
  }

  @Test
  void withAuthATokenTheApiServerRejectsIsUnauthorized() throws Exception {
    server = start(secure(TlsOptions.DEFAULTS, Optional.of(new DelegatingAuth(apiServer.client()))));

    HttpResponse<String> response = send(trustingClient(), "https", "Bearer stolen-token");

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.body()).isEqualTo("Unauthorized\n").doesNotContain("stolen-token");
    assertThat(TOKEN_REVIEWS).hasValue(1);
    assertThat(ACCESS_REVIEWS).isEmpty();
  }

  @Test
  void withAuthAUserWithoutTheRightIsForbidden() throws Exception {
    server = start(secure(TlsOptions.DEFAULTS, Optional.of(new DelegatingAuth(apiServer.client()))));

    HttpResponse<String> response = send(trustingClient(), "https", "Bearer alice-token");

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.body()).isEqualTo("Authorization denied for user alice\n");
  }

  @Test
  void withAuthAUserAllowedGetOnMetricsScrapesAndTheAnswersAreCached() throws Exception {
    server = start(secure(TlsOptions.DEFAULTS, Optional.of(new DelegatingAuth(apiServer.client()))));

    HttpResponse<String> first = send(trustingClient(), "https", "Bearer scraper-token");
    HttpResponse<String> second = send(trustingClient(), "https", "Bearer scraper-token");

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).contains("jvm_memory_used_bytes");
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(TOKEN_REVIEWS).as("token reviews").hasValue(1);
    assertThat(ACCESS_REVIEWS).as("access reviews").singleElement().satisfies(spec -> {
      assertThat(spec).containsEntry("user", PROMETHEUS)
          .containsEntry("groups", List.of("system:serviceaccounts", "system:authenticated"))
          .containsEntry("nonResourceAttributes", Map.of("verb", "get", "path", "/metrics"));
    });
  }

  // ---------------------------------------------------------------------------------------------------------------

  private MetricsServer secure(TlsOptions tls, Optional<DelegatingAuth> auth) {
    return new MetricsServer(loopback(), Optional.of(keyManager::serverContext), tls, auth, registry);
  }

  private static MetricsServer start(MetricsServer server) throws IOException {
    server.start();
    return server;
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress("127.0.0.1", 0);
  }

  private URI uri(String scheme) {
    return URI.create(scheme + "://127.0.0.1:" + server.port() + MetricsServer.METRICS);
  }

  private HttpResponse<String> send(HttpClient client, String scheme, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(scheme));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A client that trusts only the test CA and wants the Service's name in the certificate, as Prometheus would. */
  private static HttpClient trustingClient(String... protocols) throws Exception {
    SSLContext context = CaBundleTrust.sslContext(Base64.getEncoder().encodeToString(
        Pem.encode(List.of(ca.certificate())).getBytes(StandardCharsets.US_ASCII)), SERVER_NAME);
    HttpClient.Builder builder = HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_1_1);
    if (protocols.length > 0) {
      SSLParameters parameters = context.getDefaultSSLParameters();
      parameters.setProtocols(protocols);
      builder.sslParameters(parameters);
    }
    return builder.build();
  }

  /** The cluster's authenticator: a known token is its user, with the service-account groups; others fail. */
  @SuppressWarnings("unchecked")
  private static GenericKubernetesResource authenticate(GenericKubernetesResource review) {
    TOKEN_REVIEWS.incrementAndGet();
    String token = String.valueOf(((Map<String, Object>) review.getAdditionalProperties().get("spec")).get("token"));
    String user = USERS_BY_TOKEN.get(token);
    review.setAdditionalProperty("status", user == null ? Map.of("authenticated", false, "error", "invalid token")
        : Map.of("authenticated", true, "user", Map.of("username", user, "uid", "uid-" + user,
            "groups", List.of("system:serviceaccounts", "system:authenticated"))));
    return review;
  }

  /** The cluster's RBAC: get on the non-resource URL /metrics for Prometheus only. */
  @SuppressWarnings("unchecked")
  private static GenericKubernetesResource authorize(GenericKubernetesResource review) {
    Map<String, Object> spec = (Map<String, Object>) review.getAdditionalProperties().get("spec");
    ACCESS_REVIEWS.add(spec);
    Map<String, Object> attributes = (Map<String, Object>) spec.get("nonResourceAttributes");
    boolean allowed = PROMETHEUS.equals(spec.get("user")) && attributes != null
        && "get".equals(attributes.get("verb")) && "/metrics".equals(attributes.get("path"));
    review.setAdditionalProperty("status", allowed ? Map.of("allowed", true)
        : Map.of("allowed", false, "reason", "no RBAC rule allows it"));
    return review;
  }
}
