package io.kftrainer.operator.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.operator.ops.DelegatingAuth;
import io.kftrainer.statusserver.history.ConfigMapMetricHistory;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.ui.UiServer;
import io.kftrainer.ui.testing.OneNamespaceUser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The UI as the operator serves it on a cluster, on the embedded API server: the user's token reviewed, each read
 * authorized for that user by a SubjectAccessReview and made with the operator's client; a user bound in one
 * namespace sees nothing of another.
 */
class ReviewingUserApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static EmbeddedApiServer api;
  private static KubernetesClient operator;
  private static UiServer ui;
  private static String alice;

  @BeforeAll
  static void start() throws Exception {
    api = EmbeddedApiServer.start();
    operator = api.newClient();
    api.installCrds(ReviewingUserApiTest.class.getClassLoader()
        .getResourceAsStream("META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml"));
    ConfigMapMetricHistory history = new ConfigMapMetricHistory(operator, (namespace, name) -> Optional.ofNullable(
            operator.resources(TrainJob.class).inNamespace(namespace).withName(name).get())
        .map(found -> found.getMetadata().getUid()), Duration.ofHours(1), MetricHistory.POINTS_PER_SERIES);
    for (String namespace : List.of("team", "other")) {
      operator.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
          .build()).create();
      TrainJob trainJob = new TrainJob();
      trainJob.getMetadata().setName("mnist");
      trainJob.setSpec(new TrainJobSpec().withRuntimeRef(new RuntimeRef().withName("torch-distributed")));
      TrainJob created = operator.resources(TrainJob.class).inNamespace(namespace).resource(trainJob).create();
      history.record(namespace, "mnist", created.getMetadata().getUid(),
          List.of(new Metric().withName("loss").withValue("0.5")), 1_000);
    }
    history.flush();
    alice = OneNamespaceUser.create(operator, "team", "alice");
    Config config = operator.getConfiguration();
    ui = new UiServer(UiServer.Settings.loopback(0), new ReviewingUserApi(new DelegatingAuth(operator),
        URI.create(config.getMasterUrl()), HttpClient.newBuilder().sslContext(SSLUtils.sslContext(config)).build(),
        ReviewingUserApi.tokenOf(config)), history);
    ui.start();
  }

  @AfterAll
  static void stop() {
    ui.close();
    operator.close();
    api.close();
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(ui.url()).resolve(path))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aUserReadsWhatTheirRbacAllowsAndNothingOfAnotherNamespace() throws Exception {
    HttpResponse<String> own = get("/history/namespaces/team/trainjobs/mnist", alice);
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(own.body()).path("metrics").path(0).path("points")).hasSize(1);
    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs?watch=false", alice)
        .statusCode()).isEqualTo(200);

    HttpResponse<String> other = get("/history/namespaces/other/trainjobs/mnist", alice);
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(other.body()).path("message").asText()).isEqualTo("trainjobs.trainer.kubeflow.org "
        + "\"mnist\" is forbidden: User \"system:serviceaccount:team:alice\" cannot get resource \"trainjobs\" in "
        + "API group \"trainer.kubeflow.org\" in the namespace \"other\"");
    assertThat(other.body()).doesNotContain("loss");
    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/trainjobs", alice).statusCode()).isEqualTo(403);
    assertThat(get("/k8s/api/v1/namespaces/team/pods/p/log?follow=true", alice).statusCode()).isEqualTo(403);
  }

  @Test
  void aReadRefusedIsNeverMadeAndATokenNotReviewedIsUnauthorized() throws Exception {
    api.resetRequests();
    get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/other/trainjobs", alice);
    assertThat(api.requests()).extracting(ApiRequest::path)
        .noneMatch(path -> path.contains("/namespaces/other/trainjobs"));
    assertThat(get("/whoami", "forged").statusCode()).isEqualTo(401);
    assertThat(get("/k8s/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs", "forged").statusCode())
        .isEqualTo(401);
    HttpResponse<String> whoami = get("/whoami", alice);
    assertThat(JSON.readTree(whoami.body()).path("user").asText()).isEqualTo("system:serviceaccount:team:alice");
  }
}
