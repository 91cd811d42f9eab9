package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.apiserver.EmbeddedApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Status writes from the controller's copy, falling back to the latest object when that copy is stale, unless a
 * status computed from an older one would undo a newer write.
 */
class StatusUpdatesTest {

  private static EmbeddedApiServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    server = EmbeddedApiServer.start();
    client = server.newClient();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Pod create(String name) {
    return client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name)
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
        .build()).create();
  }

  private static Pod stored(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  @Test
  void aCurrentCopyIsWrittenInOneRequestAndLeftUnchanged() {
    Pod seen = create("current");
    server.resetRequests();

    StatusUpdates.ofObservedState(client).write(seen, p -> p.setStatus(new PodStatusBuilder().withPhase("Running")
        .build()));

    assertThat(server.requests()).hasSize(1);
    assertThat(stored("current").getStatus().getPhase()).isEqualTo("Running");
    assertThat(seen.getStatus() == null || seen.getStatus().getPhase() == null).isTrue();
  }

  @Test
  void aStaleCopyIsWrittenOnTheLatestObjectKeepingItsOtherChanges() {
    Pod seen = create("stale");
    Pod edited = stored("stale");
    edited.getMetadata().setLabels(java.util.Map.of("edited", "yes"));
    client.resource(edited).update();

    StatusUpdates.ofObservedState(client).write(seen, p -> p.setStatus(new PodStatusBuilder()
        .withPhase("Succeeded").build()));

    Pod now = stored("stale");
    assertThat(now.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(now.getMetadata().getLabels()).containsEntry("edited", "yes");
  }

  @Test
  void accumulatingAStaleCopyIsWrittenOnTheLatestObjectWhenOnlyItsMetadataMoved() {
    Pod seen = create("accumulated-metadata");
    Pod edited = stored("accumulated-metadata");
    edited.getMetadata().setLabels(java.util.Map.of("edited", "yes"));
    client.resource(edited).update();

    StatusUpdates.ofAccumulatedState(client).write(seen, p -> p.setStatus(new PodStatusBuilder()
        .withPhase("Succeeded").build()));

    assertThat(stored("accumulated-metadata").getStatus().getPhase()).isEqualTo("Succeeded");
  }

  /**
   * The lost update behind a JobSet's {@code restarts} read back absent: a reconcile on the cache's older copy
   * computed a status without the newer write and, on the conflict, wrote it over that write.
   */
  @Test
  void accumulatingAStatusComputedFromAnOlderStatusIsNotWrittenOverANewerOne() {
    Pod seen = create("accumulated-status");
    Pod newer = stored("accumulated-status");
    newer.setStatus(new PodStatusBuilder().withPhase("Running").withMessage("restarts: 1").build());
    client.resource(newer).updateStatus();

    assertThatThrownBy(() -> StatusUpdates.ofAccumulatedState(client).write(seen, p -> p.setStatus(
        new PodStatusBuilder().withPhase("Running").build())))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(stored("accumulated-status").getStatus().getMessage()).as("the newer write kept")
        .isEqualTo("restarts: 1");
  }

  @Test
  void aDeletedObjectIsLeftAlone() {
    Pod seen = create("deleted");
    client.resource(seen).delete();

    StatusUpdates.ofObservedState(client).write(seen, p -> p.setStatus(new PodStatusBuilder().withPhase("Failed")
        .build()));

    assertThat(stored("deleted")).isNull();
  }
}
