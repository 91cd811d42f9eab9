package io.kftrainer.e2e.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.TrainJobs;
import io.kftrainer.e2e.support.TrainerProcess;
import io.kftrainer.lab.LabPorts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code trainer.jar run --config FILE} with upstream's Configuration file as upstream's manifests ship it, against
 * {@code trainer.jar apiserver}: the file alone configures where the operator serves. Only the three ports (which
 * must be free on a shared machine) and the hosts (loopback, so that the test opens nothing to the network) are
 * changed in the copy; every other line is upstream's. Then the operator is ready on its health address, answers
 * admission on its webhook port (the API server calls it there), and serves HTTPS metrics, with the certificate it
 * generated for its Service, under the names upstream's dashboards use. A misspelt field is refused by name.
 */
class ConfigurationFileTest {

  private static final Path UPSTREAM_FILE = Path.of(System.getProperty("e2e.projectDir", "..")).toAbsolutePath()
      .normalize().resolve("trainer-operator/src/test/resources/config/upstream-controller-manager-config.yaml");
  private static final Duration START = Duration.ofSeconds(120);
  private static final String SERVICE_HOST = "kubeflow-trainer-controller-manager.kubeflow-system.svc";
  private static final String NAMESPACE = "config-file";

  private static final int HEALTH_PORT = LabPorts.free();
  private static final int METRICS_PORT = LabPorts.free();
  private static final int WEBHOOK_PORT = LabPorts.free();

  private static TrainerProcess apiServer;
  private static TrainerProcess operator;
  private static KubernetesClient client;

  @BeforeAll
  static void startTheOperatorFromUpstreamsFile() throws IOException {
    Path work = Files.createDirectories(Locations.workDir().resolve("config-file"));
    Path kubeconfig = work.resolve("kubeconfig");
    Files.deleteIfExists(kubeconfig);
    apiServer = TrainerProcess.start("config-file-apiserver", List.of("-Xmx1g"), List.of("apiserver", "--port", "0",
        "--kubeconfig-out", kubeconfig.toString(), "--webhook-address", "127.0.0.1:" + WEBHOOK_PORT), Map.of());
    Config config = apiServer.awaitKubeconfig(kubeconfig, START);
    config.setHttp2Disable(true);
    client = new KubernetesClientBuilder().withConfig(config).build();
    await("the shipped runtimes").atMost(START).ignoreExceptions()
        .until(() -> client.resources(ClusterTrainingRuntime.class).withName("torch-distributed").get() != null);

    Path file = Files.writeString(work.resolve("controller_manager_config.yaml"), upstreamFileOn(
        HEALTH_PORT, METRICS_PORT, WEBHOOK_PORT));
    operator = TrainerProcess.start("config-file-operator", List.of("-Xmx768m"),
        List.of("run", "--config", file.toString(), "--kubeconfig", kubeconfig.toString()), Map.of());
  }

  @AfterAll
  static void stop() {
    if (operator != null) {
      operator.close();
    }
    if (client != null) {
      client.close();
    }
    if (apiServer != null) {
      apiServer.close();
    }
  }

  /** Upstream's file with its ports and hosts moved: nothing else differs (asserted). */
  static String upstreamFileOn(int health, int metrics, int webhook) throws IOException {
    String upstream = Files.readString(UPSTREAM_FILE);
    String moved = upstream
        .replace("healthProbeBindAddress: :8081", "healthProbeBindAddress: 127.0.0.1:" + health)
        .replace("bindAddress: :8443", "bindAddress: 127.0.0.1:" + metrics)
        .replace("port: 9443\n  host: \"\"", "port: " + webhook + "\n  host: 127.0.0.1");
    assertThat(diff(upstream, moved)).as("the lines changed in upstream's file").hasSize(4);
    return moved;
  }

  @Test
  void theOperatorIsReadyOnTheHealthAddressOfTheFile() {
    awaitReady();
  }

  @Test
  void theApiServerCallsTheWebhooksOnThePortOfTheFile() {
    awaitReady();
    TrainJob orphan = client.getKubernetesSerialization().unmarshal("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: orphan, namespace: %s}
        spec: {runtimeRef: {name: no-such-runtime}}
        """.formatted(NAMESPACE), TrainJob.class);
    ensureNamespace();

    assertThatThrownBy(() -> client.resource(orphan).create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getMessage())
            .contains("admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request",
                "spec.runtimeRef: Not found: \"no-such-runtime\""));
  }

  @Test
  void metricsAreHttpsWithTheServiceCertificateAndUpstreamsNames() throws Exception {
    awaitReady();
    ensureNamespace();
    TrainJobs trainJobs = new TrainJobs(client, NAMESPACE);
    trainJobs.create(client.getKubernetesSerialization().unmarshal("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: scraped, namespace: %s}
        spec: {runtimeRef: {name: torch-distributed}}
        """.formatted(NAMESPACE), TrainJob.class));
    trainJobs.awaitJobSet("scraped");
    SSLContext tls = trustingOnly(caOfTheOperatorsSecret());

    String metrics = await("controller-runtime's metrics").atMost(TrainJobs.REACTION).until(() -> scrape(tls),
        body -> body.contains(
            "controller_runtime_reconcile_total{controller=\"trainjob_controller\",result=\"success\"}"));

    assertThat(metrics).contains("# TYPE controller_runtime_reconcile_errors_total counter",
        "# TYPE controller_runtime_reconcile_time_seconds histogram",
        "controller_runtime_active_workers{controller=\"trainjob_controller\"}",
        "workqueue_depth{controller=\"trainjob_controller\",name=\"trainjob_controller\",priority=\"0\"}",
        "# TYPE workqueue_adds_total counter",
        "# TYPE workqueue_queue_duration_seconds histogram",
        "rest_client_requests_total{code=\"200\"");
    assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + METRICS_PORT + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()))
        .as("no plain HTTP").isInstanceOf(IOException.class);
  }

  @Test
  void aMisspeltFieldIsRefusedByNameAndRunExitsNonZero() throws Exception {
    Path misspelt = Files.writeString(Locations.workDir().resolve("config-file/misspelt.yaml"),
        Files.readString(UPSTREAM_FILE).replace("healthProbeBindAddress:", "healthProbeBindAdress:"));

    TrainerProcess refused = TrainerProcess.start("config-file-misspelt", List.of(), List.of("run", "--config",
        misspelt.toString(), "--kubeconfig", Locations.workDir().resolve("config-file/kubeconfig").toString()),
        Map.of());
    await("run to exit").atMost(START).until(() -> !refused.isAlive());

    assertThat(refused.exitValue()).isEqualTo(1);
    assertThat(Files.readString(refused.log())).contains("Error: invalid configuration " + misspelt + ":\n"
        + "  unknown field \"health.healthProbeBindAdress\"");
  }

  @Test
  void aPortInUseStopsRunWithItsCauseAndANonZeroExit() throws Exception {
    awaitReady();
    Path file = Files.writeString(Locations.workDir().resolve("config-file/taken-port.yaml"),
        upstreamFileOn(HEALTH_PORT, LabPorts.free(), LabPorts.free()));

    TrainerProcess second = TrainerProcess.start("config-file-taken-port", List.of(), List.of("run", "--config",
        file.toString(), "--kubeconfig", Locations.workDir().resolve("config-file/kubeconfig").toString(),
        "--leader-elect=false"), Map.of());
    await("run to exit").atMost(START).until(() -> !second.isAlive());

    assertThat(second.exitValue()).as(second.logTail(30)).isEqualTo(1);
    assertThat(Files.readString(second.log())).contains("health-server", "Address already in use");
  }

  /**
   * An installation whose RBAC leaves out the Lease (a hand-written ClusterRole, a namespace-scoped install): run
   * exits 1, and its first error line says why, at the default log level.
   */
  @Test
  void aLeaseTheRbacDoesNotCoverStopsRunWithItsCauseAndANonZeroExit() throws Exception {
    ensureNamespace();
    client.serviceAccounts().inNamespace(NAMESPACE).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("no-lease").endMetadata().build()).serverSideApply();
    // everything an operator reads and writes, except coordination.k8s.io
    client.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName("no-lease")
        .endMetadata().addNewRule().withApiGroups("", "apps", "batch", "trainer.kubeflow.org", "jobset.x-k8s.io",
            "admissionregistration.k8s.io", "apiextensions.k8s.io", "events.k8s.io", "authentication.k8s.io",
            "authorization.k8s.io", "scheduling.k8s.io", "scheduling.x-k8s.io", "scheduling.volcano.sh",
            "node.k8s.io")
        .withResources("*").withVerbs("*").endRule().build()).serverSideApply();
    client.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
        .withName("no-lease").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "no-lease")
        .addNewSubject().withKind("ServiceAccount").withName("no-lease").withNamespace(NAMESPACE).endSubject()
        .build()).serverSideApply();
    String token = client.serviceAccounts().inNamespace(NAMESPACE).withName("no-lease")
        .tokenRequest(new TokenRequestBuilder().withNewSpec().endSpec().build()).getStatus().getToken();
    Path admin = Locations.workDir().resolve("config-file/kubeconfig");
    Path kubeconfig = Files.writeString(Locations.workDir().resolve("config-file/no-lease.kubeconfig"),
        Files.readString(admin).replaceAll("(?m)^(\\s*token: ).*$", "$1" + token));
    Path file = Files.writeString(Locations.workDir().resolve("config-file/no-lease.yaml"),
        upstreamFileOn(LabPorts.free(), LabPorts.free(), LabPorts.free()));

    // the operator's namespace as the running operator's: the same webhook Secret, so the same CA in the webhooks
    TrainerProcess refused = TrainerProcess.start("config-file-no-lease", List.of(), List.of("run", "--config",
        file.toString(), "--kubeconfig", kubeconfig.toString()), Map.of());
    await("run to exit").atMost(START).until(() -> !refused.isAlive());

    assertThat(refused.exitValue()).as(refused.logTail(30)).isEqualTo(1);
    assertThat(Files.readString(refused.log()).lines().filter(line -> line.contains(" ERROR ")
        && line.contains("The operator could not start: ")).findFirst()).as(refused.logTail(30))
        .hasValueSatisfying(line -> assertThat(line).containsIgnoringCase("lease"));
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static void awaitReady() {
    await("ready on 127.0.0.1:" + HEALTH_PORT).atMost(START).pollInterval(Duration.ofMillis(200))
        .ignoreExceptionsInstanceOf(IOException.class)
        .until(() -> {
          operator.assertAlive();
          return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HEALTH_PORT
              + "/readyz")).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        });
  }

  private static synchronized void ensureNamespace() {
    if (client.namespaces().withName(NAMESPACE).get() == null) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata()
          .withName(NAMESPACE).endMetadata().build()).create();
    }
  }

  /** The CA the operator generated and keeps in its Secret, as a Prometheus scrape config would trust it. */
  private static X509Certificate caOfTheOperatorsSecret() throws Exception {
    Secret secret = await("the webhook certificate Secret").atMost(START).until(() -> client.secrets()
        .inNamespace("kubeflow-system").withName("kubeflow-trainer-webhook-cert").get(), Objects::nonNull);
    byte[] pem = Base64.getDecoder().decode(secret.getData().get("ca.crt"));
    try (InputStream in = new ByteArrayInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  private static SSLContext trustingOnly(X509Certificate ca) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("ca", ca);
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  /**
   * GET /metrics over HTTPS, trusting only the operator's CA and requiring the certificate to name the Service (as
   * Prometheus with {@code tls_config.server_name}), although the test connects to 127.0.0.1.
   */
  private static String scrape(SSLContext tls) throws IOException {
    HttpsURLConnection connection = (HttpsURLConnection) URI.create("https://127.0.0.1:" + METRICS_PORT + "/metrics")
        .toURL().openConnection();
    connection.setSSLSocketFactory(tls.getSocketFactory());
    connection.setHostnameVerifier((host, session) -> {
      try {
        Collection<List<?>> names = ((X509Certificate) session.getPeerCertificates()[0])
            .getSubjectAlternativeNames();
        return names != null && names.stream().anyMatch(name -> SERVICE_HOST.equals(name.get(1)));
      } catch (Exception e) {
        return false;
      }
    });
    try (InputStream body = connection.getInputStream()) {
      assertThat(connection.getResponseCode()).isEqualTo(HttpURLConnection.HTTP_OK);
      return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }

  private static List<String> diff(String before, String after) {
    List<String> a = before.lines().toList();
    List<String> b = after.lines().toList();
    assertThat(b).hasSameSizeAs(a);
    return IntStream.range(0, a.size()).filter(i -> !a.get(i).equals(b.get(i)))
        .mapToObj(b::get).toList();
  }

}
