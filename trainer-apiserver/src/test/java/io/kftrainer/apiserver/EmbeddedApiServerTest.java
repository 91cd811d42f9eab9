package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class EmbeddedApiServerTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private final EmbeddedApiServerExtension api = API;

  @Test
  void kubeconfigWorksForTheFabric8Client(@TempDir Path dir) throws Exception {
    Path kubeconfig = api.server().writeKubeconfig(dir.resolve("sub/kubeconfig"));
    assertThat(Files.readString(kubeconfig)).contains("server: " + api.server().url(), "namespace: default");
    Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      client.configMaps().resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata()
          .withName("via-kubeconfig").endMetadata().build()).create();
    }
    assertThat(api.client().configMaps().inNamespace("default").withName("via-kubeconfig").get()).isNotNull();
    assertThat(api.server().url()).matches("https://127\\.0\\.0\\.1:\\d+");
  }

  @Test
  void installCrdsFromADirectoryApplyAndClear(@TempDir Path dir, EmbeddedApiServer server) throws Exception {
    try (var in = TestCrds.trainJobCrd()) {
      Files.copy(in, dir.resolve("a.yaml"));
    }
    try (var in = TestCrds.clusterTrainingRuntimeCrd()) {
      Files.copy(in, dir.resolve("b.yml"));
    }
    Files.writeString(dir.resolve("notes.txt"), "ignored");
    assertThat(server.installCrds(dir)).extracting(c -> c.getMetadata().getName())
        .containsExactly("trainjobs.trainer.kubeflow.org", "clustertrainingruntimes.trainer.kubeflow.org");
    assertThat(server.installCrds(dir)).as("installing again is an apply").hasSize(2);

    server.apply(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build(),
        trainJob("team", "j", 1));
    assertThat(trainJobs(server.client()).inNamespace("team").withName("j").get()).isNotNull();

    server.clear();
    assertThat(server.client().namespaces().list().getItems()).isEmpty();
    assertThat(new Http(server).get("/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs").code())
        .as("the CRD went too").isEqualTo(404);
    assertThat(server.requests()).as("the log was cleared too").extracting(ApiRequest::method).containsOnly("GET");
    assertThat(new Http(server).get("/apis").body()).doesNotContain("trainer.kubeflow.org");
  }

  @Test
  void informersSeeAppliedChanges() {
    api.server().installCrds(TestCrds.trainJobCrd());
    List<String> events = new CopyOnWriteArrayList<>();
    SharedIndexInformer<GenericKubernetesResource> informer = trainJobs(api.client()).inNamespace("inf")
        .inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource obj) {
            events.add("add " + obj.getMetadata().getName());
          }

          @Override
          public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
            events.add("update " + newObj.getMetadata().getName() + " " + newObj.get("spec", "trainer", "numNodes"));
          }

          @Override
          public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
            events.add("delete " + obj.getMetadata().getName());
          }
        });
    try {
      trainJobs(api.client()).inNamespace("inf").resource(trainJob("inf", "x", 1)).fieldManager("t")
          .serverSideApply();
      trainJobs(api.client()).inNamespace("inf").resource(trainJob("inf", "x", 1)).fieldManager("t")
          .serverSideApply();
      trainJobs(api.client()).inNamespace("inf").resource(trainJob("inf", "x", 2)).fieldManager("t")
          .serverSideApply();
      trainJobs(api.client()).inNamespace("inf").withName("x").delete();
      await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 3);
      assertThat(events).containsExactly("add x", "update x 2", "delete x");
    } finally {
      informer.close();
    }
  }
}
