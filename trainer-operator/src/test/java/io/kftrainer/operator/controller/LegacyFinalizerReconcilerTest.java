package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.testkit.Fixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runtimes that an operator up to upstream v2.2 marked with {@code trainer.kubeflow.org/resource-in-use} lose that
 * finalizer (upstream #3716) with one patch each, also while being deleted (then they go away); other finalizers
 * stay, and unmarked runtimes see no write at all.
 */
class LegacyFinalizerReconcilerTest {

  private static final String NS = "legacy";
  private static final String OTHER_FINALIZER = "example.com/keep";

  @TempDir
  static Path pluginsDir;

  private static TestCluster cluster;

  @BeforeAll
  static void startWithRuntimesOfAnOlderVersion() {
    cluster = TestCluster.start();
    cluster.createRuntimes(NS);
    TrainingRuntime marked = runtime("marked");
    marked.getMetadata().setFinalizers(List.of(OTHER_FINALIZER, LegacyFinalizerReconciler.FINALIZER));
    cluster.client().resource(marked).create();
    ClusterTrainingRuntime deleting = clusterRuntime("deleting");
    deleting.getMetadata().setFinalizers(List.of(LegacyFinalizerReconciler.FINALIZER));
    cluster.client().resource(deleting).create();
    cluster.client().resource(deleting).delete();
    assertThat(cluster.client().resources(ClusterTrainingRuntime.class).withName("deleting").get())
        .as("held by its finalizer").isNotNull();
    cluster.startOperator(TestCluster.config(pluginsDir));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void theLegacyFinalizerIsRemovedWithOnePatchAndTheOthersStay() {
    await().atMost(TestCluster.TIMEOUT).untilAsserted(() ->
        assertThat(cluster.runtime(NS, "marked").getMetadata().getFinalizers()).containsExactly(OTHER_FINALIZER));

    assertThat(writesTo("/namespaces/" + NS + "/trainingruntimes/marked")).singleElement()
        .satisfies(patch -> assertThat(patch.method()).isEqualTo("PATCH"));
  }

  @Test
  void aRuntimeBeingDeletedIsReleasedAndGoesAway() {
    await().atMost(TestCluster.TIMEOUT).until(() ->
        cluster.client().resources(ClusterTrainingRuntime.class).withName("deleting").get() == null);
  }

  @Test
  void theFinalizerAddedLaterIsRemovedTooAlthoughTheGenerationDoesNotChange() {
    TrainingRuntime late = cluster.client().resource(runtime("late")).create();
    long generation = late.getMetadata().getGeneration();
    cluster.client().resources(TrainingRuntime.class).inNamespace(NS).withName("late")
        .edit(runtime -> {
          runtime.getMetadata().setFinalizers(List.of(LegacyFinalizerReconciler.FINALIZER));
          return runtime;
        });

    await().atMost(TestCluster.TIMEOUT).untilAsserted(() ->
        assertThat(cluster.runtime(NS, "late").getMetadata().getFinalizers()).isNullOrEmpty());
    assertThat(cluster.runtime(NS, "late").getMetadata().getGeneration()).isEqualTo(generation);
  }

  @Test
  void unmarkedRuntimesAreNeverWritten() {
    await().atMost(TestCluster.TIMEOUT).untilAsserted(() ->
        assertThat(cluster.runtime(NS, "marked").getMetadata().getFinalizers()).containsExactly(OTHER_FINALIZER));

    assertThat(writesTo("/namespaces/" + NS + "/trainingruntimes/torch")).isEmpty();
    assertThat(writesTo("/namespaces/" + NS + "/trainingruntimes/mpi")).isEmpty();
  }

  /** The writes to one object (PATCH, PUT, DELETE; a create is a POST to its collection). */
  private static List<ApiRequest> writesTo(String path) {
    return cluster.server().writes().stream().filter(request -> request.path().endsWith(path)).toList();
  }

  private static TrainingRuntime runtime(String name) {
    TrainingRuntime runtime = Fixtures.objects(Fixtures.resource("controller/runtimes.yaml")).stream()
        .filter(TrainingRuntime.class::isInstance).map(TrainingRuntime.class::cast).findFirst().orElseThrow();
    runtime.getMetadata().setName(name);
    runtime.getMetadata().setNamespace(NS);
    runtime.getMetadata().setResourceVersion(null);
    return runtime;
  }

  private static ClusterTrainingRuntime clusterRuntime(String name) {
    TrainingRuntime namespaced = runtime(name);
    ClusterTrainingRuntime runtime = new ClusterTrainingRuntime();
    runtime.setMetadata(new ObjectMetaBuilder().withName(name).build());
    runtime.setSpec(namespaced.getSpec());
    return runtime;
  }
}
