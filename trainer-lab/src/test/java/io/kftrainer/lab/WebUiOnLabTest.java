package io.kftrainer.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.operator.ops.DelegatingAuth;
import io.kftrainer.operator.ui.ReviewingUserApi;
import io.kftrainer.statusserver.history.ConfigMapMetricHistory;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.ui.UiServer;
import io.kftrainer.ui.testing.OneNamespaceUser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The web UI as the operator serves it on a cluster (trainer-operator's {@link ReviewingUserApi}), against the lab's
 * kube-apiserver: a ServiceAccount's token reviewed by a real TokenReview, each read by a real SubjectAccessReview
 * under real RBAC, the allowed reads made with the admin's client (the operator's in a cluster); the metric history
 * in a ConfigMap the TrainJob owns.
 */
@ExtendWith(LabExtension.class)
class WebUiOnLabTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static Lab lab;
  private static UiServer ui;
  private static String alice;

  @BeforeAll
  static void start(Lab started) throws Exception {
    lab = started;
    KubernetesClient admin = lab.admin();
    lab.applyFile(Path.of(System.getProperty("user.dir")).getParent()
        .resolve("manifests/crds/trainer.kubeflow.org_trainjobs.yaml"));
    lab.awaitServed("trainer.kubeflow.org/v1alpha1", "TrainJob", TIMEOUT);
    ConfigMapMetricHistory history = new ConfigMapMetricHistory(admin, (namespace, name) -> Optional.empty(),
        Duration.ofHours(1), MetricHistory.POINTS_PER_SERIES);
    for (String namespace : List.of("ui-team", "ui-other")) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
          .build()).serverSideApply();
      GenericKubernetesResource trainJob = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
          "TrainJob").inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
          .withApiVersion("trainer.kubeflow.org/v1alpha1").withKind("TrainJob").withNewMetadata().withName("mnist")
          .endMetadata().withAdditionalProperties(Map.of("spec", Map.of("runtimeRef",
              Map.of("name", "torch-distributed")))).build()).create();
      history.record(namespace, "mnist", trainJob.getMetadata().getUid(),
          List.of(new Metric().withName("loss").withValue("0.25")), 1_000);
    }
    history.flush();
    alice = OneNamespaceUser.create(admin, "ui-team", "alice");
    Config config = admin.getConfiguration();
    ui = new UiServer(UiServer.Settings.loopback(0), new ReviewingUserApi(new DelegatingAuth(admin),
        URI.create(config.getMasterUrl()), HttpClient.newBuilder().sslContext(SSLUtils.sslContext(config)).build(),
        ReviewingUserApi.tokenOf(config)), history);
    ui.start();
  }

  @AfterAll
  static void stop() {
    if (ui != null) {
      ui.close();
    }
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(ui.url()).resolve(path))
        .header("Authorization", "Bearer " + alice).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aUserOfOneNamespaceReadsItsTrainJobsAndTheirHistoryAndNothingOfAnother() throws Exception {
    // kube-apiserver authorizes from informers: the binding counts a moment after it is written
    await().atMost(TIMEOUT).until(() -> get("/history/namespaces/ui-team/trainjobs/mnist").statusCode() == 200);
    JsonNode history = JSON.readTree(get("/history/namespaces/ui-team/trainjobs/mnist").body());
    assertThat(history.path("metrics").path(0).path("points").path(0).path(2).asDouble()).isEqualTo(0.25);
    HttpResponse<String> own = get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/ui-team/trainjobs");
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(own.body()).path("items")).hasSize(1);

    HttpResponse<String> other = get("/history/namespaces/ui-other/trainjobs/mnist");
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(other.body()).path("message").asText()).contains(
        "User \"system:serviceaccount:ui-team:alice\" cannot get resource \"trainjobs\"");
    assertThat(other.body()).doesNotContain("0.25");
    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/trainjobs").statusCode()).isEqualTo(403);
    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/ui-other/trainjobs?watch=1").statusCode())
        .isEqualTo(403);
    HttpResponse<String> whoami = get("/whoami");
    assertThat(JSON.readTree(whoami.body()).path("user").asText()).isEqualTo("system:serviceaccount:ui-team:alice");
  }
}
