package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Garbage collection through ownerReferences with each propagation policy, and of a deleted CRD's objects. */
class GarbageCollectorTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static KubernetesClient client() {
    return API.client();
  }

  private static ConfigMap owner(String ns) {
    return client().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("owner")
        .endMetadata().build()).create();
  }

  private static OwnerReference ref(ConfigMap owner) {
    return new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap").withName("owner")
        .withUid(owner.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build();
  }

  private static Secret dependent(String ns, String name, OwnerReference... refs) {
    return client().secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName(name)
        .withOwnerReferences(refs).endMetadata().build()).create();
  }

  private static Secret secret(String ns, String name) {
    return client().secrets().inNamespace(ns).withName(name).get();
  }

  @Test
  void backgroundDeletesDependentsAfterTheOwner() {
    ConfigMap owner = owner("bg");
    dependent("bg", "child", ref(owner));
    ConfigMap other = client().configMaps().inNamespace("bg").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("other").endMetadata().build()).create();
    OwnerReference otherRef = new OwnerReferenceBuilder(ref(other)).withName("other").withController(false).build();
    dependent("bg", "shared", ref(owner), otherRef);
    client().configMaps().inNamespace("bg").withName("owner").withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
    await().atMost(Duration.ofSeconds(10)).until(() -> secret("bg", "child") == null);
    await().atMost(Duration.ofSeconds(10)).until(() -> secret("bg", "shared").getMetadata().getOwnerReferences()
        .size() == 1);
    assertThat(secret("bg", "shared").getMetadata().getOwnerReferences()).extracting(OwnerReference::getName)
        .containsExactly("other");
  }

  @Test
  void theObjectsOfADeletedCrdGoWithIt() {
    var crds = client().apiextensions().v1().customResourceDefinitions();
    crds.load(TestCrds.clusterTrainingRuntimeCrd()).create();
    var runtimes = client().genericKubernetesResources(TestCrds.API_VERSION, "ClusterTrainingRuntime");
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> runtimes.list() != null);
    runtimes.resource(Serialization.unmarshal("apiVersion: " + TestCrds.API_VERSION
        + "\nkind: ClusterTrainingRuntime\nmetadata: {name: kept-nowhere}\nspec: {mlPolicy: {numNodes: 1}}\n",
        GenericKubernetesResource.class)).create();
    ConfigMap dependent = client().configMaps().inNamespace("crd").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("of-runtime").withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(TestCrds.API_VERSION)
            .withKind("ClusterTrainingRuntime").withName("kept-nowhere")
            .withUid(runtimes.withName("kept-nowhere").get().getMetadata().getUid()).build())
        .endMetadata().build()).create();
    assertThat(dependent).isNotNull();

    crds.withName("clustertrainingruntimes." + TestCrds.GROUP).delete();
    await().atMost(Duration.ofSeconds(10)).until(() -> client().configMaps().inNamespace("crd")
        .withName("of-runtime").get() == null);
    crds.load(TestCrds.clusterTrainingRuntimeCrd()).create();
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> runtimes.list().getItems().isEmpty());
  }

  @Test
  void anObjectCreatedAfterItsOwnerWentIsCollected() {
    ConfigMap owner = owner("late");
    OwnerReference stale = ref(owner);
    client().configMaps().inNamespace("late").withName("owner").delete();
    await().atMost(Duration.ofSeconds(10)).until(() -> client().configMaps().inNamespace("late").withName("owner")
        .get() == null);

    // a controller acting on a stale cache: the owner is gone by the time its dependent is created
    dependent("late", "stale-child", stale);
    dependent("late", "unowned");

    await().atMost(Duration.ofSeconds(10)).until(() -> secret("late", "stale-child") == null);
    assertThat(secret("late", "unowned")).isNotNull();
  }

  @Test
  void foregroundKeepsTheOwnerUntilItsDependentsAreGone() {
    ConfigMap owner = owner("fg");
    Secret child = dependent("fg", "child", ref(owner));
    client().secrets().inNamespace("fg").withName("child").edit(s -> new SecretBuilder(s).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    client().configMaps().inNamespace("fg").withName("owner").withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    ConfigMap deleting = client().configMaps().inNamespace("fg").withName("owner").get();
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(deleting.getMetadata().getFinalizers()).contains("foregroundDeletion");
    await().atMost(Duration.ofSeconds(10)).until(() -> secret("fg", "child").getMetadata().getDeletionTimestamp()
        != null);
    assertThat(client().configMaps().inNamespace("fg").withName("owner").get()).as("waits for the child").isNotNull();

    client().secrets().inNamespace("fg").withName("child").edit(s -> new SecretBuilder(s).editMetadata()
        .withFinalizers().endMetadata().build());
    await().atMost(Duration.ofSeconds(10))
        .until(() -> client().configMaps().inNamespace("fg").withName("owner").get() == null);
    assertThat(child.getMetadata().getUid()).isNotNull();
  }

  @Test
  void orphanKeepsDependentsWithoutTheReference() {
    ConfigMap owner = owner("or");
    dependent("or", "child", ref(owner));
    client().configMaps().inNamespace("or").withName("owner").withPropagationPolicy(DeletionPropagation.ORPHAN)
        .delete();
    await().atMost(Duration.ofSeconds(10))
        .until(() -> client().configMaps().inNamespace("or").withName("owner").get() == null);
    assertThat(secret("or", "child").getMetadata().getOwnerReferences()).isEmpty();
  }
}
