package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;

class MergePatchTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> server.installCrds(TestCrds.trainJobCrd()));

  private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
  private static final PatchContext STRATEGIC = PatchContext.of(PatchType.STRATEGIC_MERGE);

  private ConfigMap configMap(String name) {
    return API.client().configMaps().inNamespace("merge").resource(new ConfigMapBuilder().withNewMetadata()
        .withName(name).addToLabels("a", "1").addToLabels("b", "2").endMetadata()
        .addToData("keep", "x").addToData("drop", "y").build()).create();
  }

  @Test
  void nullRemovesAKeyAndMapsMerge() {
    configMap("nulls");
    ConfigMap patched = API.client().configMaps().inNamespace("merge").withName("nulls")
        .patch(MERGE, "{\"metadata\":{\"labels\":{\"b\":null,\"c\":\"3\"}},\"data\":{\"drop\":null}}");
    assertThat(patched.getMetadata().getLabels()).containsOnly(Map.entry("a", "1"), Map.entry("c", "3"));
    assertThat(patched.getData()).containsOnly(Map.entry("keep", "x"));
  }

  @Test
  void arraysAreReplaced() {
    trainJobs(API.client()).inNamespace("merge").resource(trainJob("merge", "arrays", 1)).create();
    GenericKubernetesResource patched = trainJobs(API.client()).inNamespace("merge").withName("arrays")
        .patch(MERGE, "{\"spec\":{\"trainer\":{\"args\":[\"--lr\"]}}}");
    assertThat(patched.<Object>get("spec", "trainer", "args")).isEqualTo(List.of("--lr"));
    assertThat(patched.<Object>get("spec", "trainer", "numNodes")).isEqualTo(1);
    assertThat(patched.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void aNoOpMergePatchKeepsTheResourceVersion() {
    ConfigMap created = configMap("noop");
    ConfigMap patched = API.client().configMaps().inNamespace("merge").withName("noop")
        .patch(MERGE, "{\"data\":{\"keep\":\"x\"}}");
    assertThat(patched.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
  }

  @Test
  void removingTheLastFinalizerOfADeletedObjectDeletesIt() {
    API.client().configMaps().inNamespace("merge").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("fin").addToFinalizers("example.com/keep").endMetadata().build()).create();
    API.client().configMaps().inNamespace("merge").withName("fin").delete();
    assertThat(API.client().configMaps().inNamespace("merge").withName("fin").get().getMetadata()
        .getDeletionTimestamp()).isNotNull();

    API.client().configMaps().inNamespace("merge").withName("fin").patch(MERGE,
        "{\"metadata\":{\"finalizers\":null}}");
    assertThat(API.client().configMaps().inNamespace("merge").withName("fin").get()).isNull();
  }

  @Test
  void strategicMergePatchMergesListsOfObjectsByName() {
    API.client().apps().deployments().inNamespace("merge").resource(new DeploymentBuilder().withNewMetadata()
        .withName("web").endMetadata().withNewSpec().withNewTemplate().withNewSpec()
        .addNewContainer().withName("app").withImage("app:1").withArgs("--serve").endContainer()
        .addNewContainer().withName("sidecar").withImage("sidecar:1").endContainer()
        .endSpec().endTemplate().endSpec().build()).create();

    Deployment patched = API.client().apps().deployments().inNamespace("merge").withName("web").patch(STRATEGIC,
        "{\"spec\":{\"template\":{\"spec\":{\"$setElementOrder/containers\":[{\"name\":\"app\"},{\"name\":\"sidecar\"}],"
            + "\"containers\":[{\"name\":\"app\",\"image\":\"app:2\"},{\"name\":\"sidecar\",\"$patch\":\"delete\"}]}}}}");

    var containers = patched.getSpec().getTemplate().getSpec().getContainers();
    assertThat(containers).hasSize(1);
    assertThat(containers.get(0).getImage()).isEqualTo("app:2");
    assertThat(containers.get(0).getArgs()).containsExactly("--serve");
  }

  @Test
  void jsonPatchStillWorks() {
    configMap("jsonpatch");
    ConfigMap patched = API.client().configMaps().inNamespace("merge").withName("jsonpatch")
        .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/data/keep\",\"value\":\"z\"}]");
    assertThat(patched.getData()).containsEntry("keep", "z");
  }
}
