package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Status writes from the controller's copy, falling back to the latest object when that copy is stale. */
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

    new StatusUpdates(client).write(seen, p -> p.setStatus(new PodStatusBuilder().withPhase("Running").build()));

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

    new StatusUpdates(client).write(seen, p -> p.setStatus(new PodStatusBuilder().withPhase("Succeeded").build()));

    Pod now = stored("stale");
    assertThat(now.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(now.getMetadata().getLabels()).containsEntry("edited", "yes");
  }

  @Test
  void aDeletedObjectIsLeftAlone() {
    Pod seen = create("deleted");
    client.resource(seen).delete();

    new StatusUpdates(client).write(seen, p -> p.setStatus(new PodStatusBuilder().withPhase("Failed").build()));

    assertThat(stored("deleted")).isNull();
  }
}
