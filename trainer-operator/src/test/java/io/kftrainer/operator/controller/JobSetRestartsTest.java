package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** Why a pod failed, as the restart Events say it: exit codes, OOMKilled, preemptions and evictions. */
class JobSetRestartsTest {

  @Test
  void anExitCodeIsSaidWithItsReasonUnlessItIsThePlainError() {
    assertThat(JobSetRestarts.reason(terminated(1, "Error"))).isEqualTo("exit code 1");
    assertThat(JobSetRestarts.reason(terminated(143, "Completed"))).isEqualTo("exit code 143 (Completed)");
    assertThat(JobSetRestarts.reason(terminated(137, null))).isEqualTo("exit code 137");
  }

  @Test
  void anOutOfMemoryKillIsOomKilled() {
    assertThat(JobSetRestarts.reason(terminated(137, "OOMKilled"))).isEqualTo("OOMKilled (exit code 137)");
  }

  @Test
  void aDisruptionIsAPreemptionOrAnEvictionWithItsReason() {
    assertThat(JobSetRestarts.reason(disrupted("PreemptionByScheduler", "Preempted by a higher-priority pod")))
        .isEqualTo("preempted (PreemptionByScheduler): Preempted by a higher-priority pod");
    assertThat(JobSetRestarts.reason(disrupted("EvictionByEvictionAPI", "Eviction API: evicting")))
        .isEqualTo("evicted (EvictionByEvictionAPI): Eviction API: evicting");
    assertThat(JobSetRestarts.reason(disrupted("DeletionByTaintManager", null)))
        .isEqualTo("evicted (DeletionByTaintManager)");
  }

  @Test
  void theKubeletsEvictionIsEvicted() {
    Pod pod = new PodBuilder().withNewStatus().withPhase("Failed").withReason("Evicted")
        .withMessage("The node was low on resource: memory.").endStatus().build();
    assertThat(JobSetRestarts.reason(pod)).isEqualTo("evicted: The node was low on resource: memory.");
  }

  @Test
  void aFailureOfEachAttemptIsKeptTheFirstOne() {
    JobSetRestarts restarts = new JobSetRestarts(null, null, JobSetRestarts.Listener.NONE);
    restarts.record(labelled(terminated(137, "Error"), "first", 0));
    restarts.record(labelled(terminated(1, "Error"), "second", 0));
    restarts.record(labelled(terminated(2, "Error"), "next", 1));

    assertThat(restarts.failure("uid", 0)).get().extracting(JobSetRestarts.PodFailure::pod).isEqualTo("first");
    assertThat(restarts.failure("uid", 1)).get().extracting(JobSetRestarts.PodFailure::reason)
        .isEqualTo("exit code 2");
    assertThat(restarts.failure("uid", 2)).isEmpty();
    assertThat(restarts.failure("other", 0)).isEmpty();
  }

  private static Pod labelled(Pod pod, String name, int attempt) {
    return new PodBuilder(pod).withNewMetadata().withNamespace("ns").withName(name)
        .addToLabels("jobset.sigs.k8s.io/jobset-uid", "uid")
        .addToLabels("jobset.sigs.k8s.io/restart-attempt", String.valueOf(attempt)).endMetadata()
        .withNewSpec().withNodeName("node-1").endSpec().build();
  }

  private static Pod terminated(int exitCode, String reason) {
    return new PodBuilder().withNewStatus().withPhase("Failed")
        .addNewContainerStatus().withName("node").withNewState().withNewTerminated().withExitCode(exitCode)
        .withReason(reason).endTerminated().endState().endContainerStatus().endStatus().build();
  }

  private static Pod disrupted(String reason, String message) {
    return new PodBuilder().withNewStatus().withPhase("Failed")
        .addNewCondition().withType("DisruptionTarget").withStatus("True").withReason(reason).withMessage(message)
        .endCondition()
        .addNewContainerStatus().withName("node").withNewState().withNewTerminated().withExitCode(137)
        .withReason("Error").endTerminated().endState().endContainerStatus().endStatus().build();
  }
}
