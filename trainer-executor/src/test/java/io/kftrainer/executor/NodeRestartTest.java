package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a restarted local does to the pods an earlier run left, before its kubelet starts: as after a reboot. */
class NodeRestartTest {

  private EmbeddedApiServer server;
  private KubernetesClient client;
  private final List<String> progress = new ArrayList<>();

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void pod(String name, PodStatus status) {
    Pod pod = client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name)
        .endMetadata().withNewSpec().withRestartPolicy("Never").addNewContainer().withName("main").withImage("x")
        .endContainer().addNewInitContainer().withName("init").withImage("x").endInitContainer().endSpec().build())
        .create();
    if (status != null) {
      pod.setStatus(status);
      client.pods().resource(pod).updateStatus();
    }
  }

  private static ContainerStatus running(String name) {
    return new ContainerStatusBuilder().withName(name).withImage("x").withReady(true).withStarted(true)
        .withRestartCount(0).withNewState().withNewRunning().withStartedAt("2026-01-01T00:00:00Z").endRunning()
        .endState().build();
  }

  private static ContainerStatus exited(String name, int code) {
    return new ContainerStatusBuilder().withName(name).withImage("x").withReady(false).withRestartCount(0)
        .withNewState().withNewTerminated().withExitCode(code).withReason(code == 0 ? "Completed" : "Error")
        .endTerminated().endState().build();
  }

  private Pod get(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  @Test
  void startedPodsFailWithTheKubeletsStateForLostContainersAndOthersAreLeftAlone() {
    pod("running", new PodStatusBuilder().withPhase("Running").withStartTime("2026-01-01T00:00:00Z")
        .addNewCondition().withType("Ready").withStatus("True").endCondition()
        .withInitContainerStatuses(exited("init", 0)).withContainerStatuses(running("main")).build());
    pod("waiting-for-a-slot", new PodStatusBuilder().withPhase("Pending").addNewCondition().withType("PodScheduled")
        .withStatus("False").withReason("Unschedulable").endCondition().build());
    pod("succeeded", new PodStatusBuilder().withPhase("Succeeded").withStartTime("2026-01-01T00:00:00Z")
        .withInitContainerStatuses(exited("init", 0)).withContainerStatuses(exited("main", 0)).build());
    String succeededVersion = get("succeeded").getMetadata().getResourceVersion();
    String waitingVersion = get("waiting-for-a-slot").getMetadata().getResourceVersion();

    assertThat(NodeRestart.failPodsOfEarlierRun(client, progress::add)).isEqualTo(1);

    Pod lost = get("running");
    assertThat(lost.getStatus().getPhase()).isEqualTo("Failed");
    ContainerStatus main = lost.getStatus().getContainerStatuses().get(0);
    assertThat(main.getState().getTerminated().getReason()).isEqualTo("ContainerStatusUnknown");
    assertThat(main.getState().getTerminated().getMessage())
        .isEqualTo("The container could not be located when the pod was terminated");
    assertThat(main.getState().getTerminated().getExitCode()).isEqualTo(137);
    assertThat(main.getReady()).isFalse();
    assertThat(main.getRestartCount()).isEqualTo(1);
    // what had ended keeps its own state
    assertThat(lost.getStatus().getInitContainerStatuses().get(0).getState().getTerminated().getReason())
        .isEqualTo("Completed");
    assertThat(lost.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
        .singleElement().satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"));
    assertThat(progress).containsExactly(
        "pod default/running: Failed (its processes ended with the previous run of local)");

    assertThat(get("succeeded").getMetadata().getResourceVersion()).isEqualTo(succeededVersion);
    assertThat(get("waiting-for-a-slot").getMetadata().getResourceVersion()).isEqualTo(waitingVersion);
  }
}
