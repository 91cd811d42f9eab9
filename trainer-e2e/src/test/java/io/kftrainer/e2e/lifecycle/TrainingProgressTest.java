package io.kftrainer.e2e.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Kubectl;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: training progress, as a user of {@code local} sees it. The shipped torch example (DDP, two nodes of two
 * processes, Debian's python3-torch) runs as processes of this machine and reports its progress and loss to the
 * status server through the TrainJobStatus plugin's env, projected token and CA, exactly as it would on a cluster.
 * The TrainJob reaches 100% with a loss that fell; the server refuses a request without a token (401) and one with
 * another TrainJob's token (403); {@code kubectl get trainjobs} shows the Progress column.
 */
class TrainingProgressTest {

  private static final Duration TRAINING = Duration.ofSeconds(240);
  private static final String NAME = "torch-progress";

  private static LocalOperator local;
  private static KubernetesClient client;
  private static String namespace;
  private static final List<TrainerStatus> REPORTS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void train() throws Exception {
    assumeTrue(Command.of(List.of("/usr/bin/python3", "-c", "import torch")).run().exitCode() == 0,
        "python3-torch is not installed (apt-get install python3-torch)");
    local = LocalOperator.startExecuting("training-progress", List.of());
    client = local.client();
    namespace = local.createNamespace("progress");
    await().atMost(Duration.ofSeconds(30)).until(() ->
        client.serviceAccounts().inNamespace(namespace).withName("default").get() != null);
    Watch watch = client.resources(TrainJob.class).inNamespace(namespace).withName(NAME).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, TrainJob trainJob) {
        TrainerStatus status = trainJob.getStatus() == null ? null : trainJob.getStatus().getTrainerStatus();
        if (status != null && (REPORTS.isEmpty() || !REPORTS.get(REPORTS.size() - 1).equals(status))) {
          REPORTS.add(status);
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
    try (watch) {
      String example = Files.readString(Locations.examplesDir().resolve("torch-trainjob.yaml"))
          .replace("name: torch-cpu", "name: " + NAME);
      TrainJob trainJob = client.getKubernetesSerialization().unmarshal(example, TrainJob.class);
      client.resources(TrainJob.class).inNamespace(namespace).resource(trainJob).create();
      await().atMost(TRAINING).untilAsserted(() -> assertThat(conditionTypes())
          .as("conditions of %s; local mode's output:%n%s", NAME, local.logTail(40)).contains("Complete"));
    }
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void theTrainJobReachesOneHundredPercentWithALossThatFell() throws Exception {
    TrainerStatus last = client.resources(TrainJob.class).inNamespace(namespace).withName(NAME).get().getStatus()
        .getTrainerStatus();
    assertThat(last.getProgressPercentage()).isEqualTo(100);
    assertThat(REPORTS).as("reports seen by a watch").hasSizeGreaterThanOrEqualTo(3);
    assertThat(REPORTS).extracting(TrainerStatus::getProgressPercentage).isSorted();
    double first = loss(REPORTS.get(0));
    assertThat(loss(last)).isLessThan(first / 4);
    assertThat(Files.readString(local.log())).contains("trainjob " + namespace + "/" + NAME + ": 100% "
        + "loss=" + last.getMetrics().get(0).getValue());
  }

  @Test
  void theStatusServerRefusesNoTokenWith401AndAnotherTrainJobsTokenWith403() throws Exception {
    List<EnvVar> env = client.resources(JobSet.class).inNamespace(namespace).withName(NAME).get().getSpec()
        .getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
    String url = env.stream().filter(e -> e.getName().equals("KUBEFLOW_TRAINER_SERVER_URL")).findFirst()
        .orElseThrow().getValue();
    ConfigMap ca = client.configMaps().inNamespace(namespace).withName(NAME + "-tls-config").get();
    HttpClient http = HttpClient.newBuilder().sslContext(trusting(ca.getData().get("ca.crt"))).build();
    String otherTrainJobsToken = client.serviceAccounts().inNamespace(namespace).withName("default")
        .tokenRequest(new TokenRequestBuilder().withNewSpec()
            .withAudiences("trainer.kubeflow.org/v1alpha1/namespaces/" + namespace + "/trainjobs/other/status")
            .endSpec().build())
        .getStatus().getToken();
    String body = "{\"trainerStatus\": {\"progressPercentage\": 1, \"lastUpdatedTime\": \"2026-01-01T00:00:00Z\"}}";

    HttpResponse<String> noToken = http.send(HttpRequest.newBuilder(URI.create(url))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> otherToken = http.send(HttpRequest.newBuilder(URI.create(url))
        .header("Authorization", "Bearer " + otherTrainJobsToken)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(noToken.statusCode()).isEqualTo(401);
    assertThat(noToken.body()).contains("\"reason\":\"Unauthorized\"");
    assertThat(otherToken.statusCode()).isEqualTo(403);
    assertThat(otherToken.body()).contains("\"reason\":\"Forbidden\"");
    assertThat(client.resources(TrainJob.class).inNamespace(namespace).withName(NAME).get().getStatus()
        .getTrainerStatus().getProgressPercentage()).isEqualTo(100);
  }

  @Test
  void kubectlGetTrainJobsShowsTheProgressColumn() {
    assumeTrue(Kubectl.isInstalled(), "kubectl is not installed");

    Command.Result result = local.kubectl().run("get", "trainjobs", "-n", namespace);

    assertThat(result.exitCode()).as(result.describe()).isZero();
    List<String> lines = result.stdout().lines().toList();
    assertThat(lines.get(0).split("\\s+")).containsExactly("NAME", "STATE", "RESTARTS", "PROGRESS", "AGE");
    assertThat(lines.get(1).split("\\s+")).startsWith(NAME, "Complete", "100");
  }

  private static List<String> conditionTypes() {
    TrainJob trainJob = client.resources(TrainJob.class).inNamespace(namespace).withName(NAME).get();
    return trainJob == null || trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null
        ? List.of() : trainJob.getStatus().getConditions().stream().map(c -> c.getType()).toList();
  }

  private static double loss(TrainerStatus status) {
    return status.getMetrics().stream().filter(m -> m.getName().equals("loss")).map(Metric::getValue)
        .mapToDouble(Double::parseDouble).findFirst().orElseThrow();
  }

  private static SSLContext trusting(String caPem) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    int i = 0;
    for (var certificate : CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
      store.setCertificateEntry("ca-" + i++, certificate);
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }
}
