package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Label and field selectors select exactly, through fabric8, raw HTTP and kubectl. */
class SelectorTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String JOBSET = "jobset.sigs.k8s.io/jobset-name";
  private static final String REPLICATED_JOB = "jobset.sigs.k8s.io/replicatedjob-name";

  @BeforeAll
  static void pods() {
    pod("mnist-node-0", Map.of(JOBSET, "mnist", REPLICATED_JOB, "node"));
    pod("mnist-node-1", Map.of(JOBSET, "mnist", REPLICATED_JOB, "node"));
    pod("mnist-initializer", Map.of(JOBSET, "mnist", REPLICATED_JOB, "model-initializer"));
    pod("mnist-sidecar", Map.of(JOBSET, "mnist", REPLICATED_JOB, "sidecar"));
    pod("other-node-0", Map.of(JOBSET, "other", REPLICATED_JOB, "node"));
    pod("unlabelled", Map.of());
  }

  private static void pod(String name, Map<String, String> labels) {
    API.client().pods().inNamespace("sel").resource(new PodBuilder().withNewMetadata().withName(name)
        .withLabels(labels).endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i").endContainer()
        .endSpec().build()).create();
  }

  private static List<String> names(List<? extends HasMetadata> items) {
    return items.stream().map(i -> i.getMetadata().getName()).toList();
  }

  private static List<String> select(String selector) {
    String query = java.net.URLEncoder.encode(selector, java.nio.charset.StandardCharsets.UTF_8);
    Http.Response response = new Http(API.server()).get("/api/v1/namespaces/sel/pods?labelSelector=" + query);
    assertThat(response.code()).as(response.body()).isEqualTo(200);
    List<String> names = new java.util.ArrayList<>();
    response.json().path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    return names;
  }

  @Test
  void theSdkSelectorOfATrainJobsPodsIsExact() {
    String sdk = JOBSET + "=mnist," + REPLICATED_JOB + " in (dataset-initializer, model-initializer, launcher, node)";
    assertThat(select(sdk)).containsExactly("mnist-initializer", "mnist-node-0", "mnist-node-1");
    assertThat(select(sdk.replace(", ", ","))).as("without spaces")
        .containsExactly("mnist-initializer", "mnist-node-0", "mnist-node-1");
  }

  @Test
  void setBasedRequirementsThroughFabric8() {
    List<Pod> notIn = API.client().pods().inNamespace("sel").withLabelNotIn(REPLICATED_JOB, "node", "sidecar")
        .list().getItems();
    assertThat(names(notIn)).containsExactly("mnist-initializer", "unlabelled");
    assertThat(names(API.client().pods().inNamespace("sel").withLabel(JOBSET).list().getItems()))
        .containsExactly("mnist-initializer", "mnist-node-0", "mnist-node-1", "mnist-sidecar", "other-node-0");
    assertThat(names(API.client().pods().inNamespace("sel").withoutLabel(JOBSET).list().getItems()))
        .containsExactly("unlabelled");
    assertThat(names(API.client().pods().inNamespace("sel").withLabelIn(JOBSET, "other").list().getItems()))
        .containsExactly("other-node-0");
  }

  @Test
  void fieldSelectorsAndLabelSelectorsCombine() {
    String query = "labelSelector=" + java.net.URLEncoder.encode(JOBSET + "=mnist",
        java.nio.charset.StandardCharsets.UTF_8) + "&fieldSelector=metadata.name%21%3Dmnist-sidecar";
    Http.Response response = new Http(API.server()).get("/api/v1/pods?" + query);
    assertThat(response.json().path("items").size()).isEqualTo(3);
    assertThat(response.json().path("kind").asText()).isEqualTo("PodList");
  }

  @Test
  void anInvalidSelectorIsABadRequest() {
    Http.Response response = new Http(API.server()).get("/api/v1/namespaces/sel/pods?labelSelector=a%20in%20x");
    assertThat(response.code()).isEqualTo(400);
    assertThat(response.json().path("reason").asText()).isEqualTo("BadRequest");
    assertThat(response.json().path("message").asText()).startsWith("unable to parse requirement");
  }

  @Test
  void kubectlSetBasedSelectors(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(API.server(), dir);
    assertThat(kubectl.ok("get", "pods", "-n", "sel", "-o", "name", "-l", REPLICATED_JOB + " in (model-initializer)"))
        .isEqualTo("pod/mnist-initializer\n");
    assertThat(kubectl.ok("get", "pods", "-n", "sel", "-o", "name", "-l",
        JOBSET + "=mnist," + REPLICATED_JOB + " notin (node,model-initializer)")).isEqualTo("pod/mnist-sidecar\n");
    assertThat(kubectl.ok("get", "pods", "-n", "sel", "-o", "name", "-l", "!" + JOBSET))
        .isEqualTo("pod/unlabelled\n");
    assertThat(kubectl.ok("get", "pods", "-n", "sel", "-o", "name", "-l", JOBSET + ",!" + REPLICATED_JOB))
        .isEmpty();
  }
}
