package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the kubelet finds when it starts again on a node that rebooted, for {@code local} started again on a data
 * directory: the pods an earlier run had started have lost their processes. Each becomes {@code Failed}, and each of
 * its containers that had not ended gets the kubelet's state for a container it can no longer find: terminated,
 * reason {@code ContainerStatusUnknown}, message "The container could not be located when the pod was terminated",
 * exit code 137. Their Jobs and JobSets then react as to any failed pod: a replacement within the Job's
 * {@code backoffLimit}, else the Job's failure and the JobSet's failure policy, and the TrainJob follows.
 *
 * <p>Pods the earlier run had not started (Pending without a {@code startTime}, e.g. waiting for a slot) are left
 * to the kubelet, which starts them as usual; pods that had ended keep their status.
 */
final class NodeRestart {

  static final String REASON = "ContainerStatusUnknown";
  static final String MESSAGE = "The container could not be located when the pod was terminated";
  static final int EXIT_CODE = 137;

  private NodeRestart() {
  }

  /** Marks the pods an earlier run left started as {@code Failed}; returns how many. */
  static int failPodsOfEarlierRun(KubernetesClient client, Consumer<String> progress) {
    int failed = 0;
    for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
      if (!startedAndNotEnded(pod)) {
        continue;
      }
      Pod lost = new io.fabric8.kubernetes.api.model.PodBuilder(pod).withStatus(lostStatus(pod.getStatus())).build();
      try {
        client.pods().resource(lost).updateStatus();
        failed++;
        progress.accept("pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
            + ": Failed (its processes ended with the previous run of local)");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404 && e.getCode() != 409) {
          throw e; // 404, 409: deleted or changed meanwhile, by a controller that sees it anyway
        }
      }
    }
    return failed;
  }

  private static boolean startedAndNotEnded(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status == null || status.getStartTime() == null) {
      return false;
    }
    return !"Succeeded".equals(status.getPhase()) && !"Failed".equals(status.getPhase());
  }

  private static PodStatus lostStatus(PodStatus old) {
    List<PodCondition> conditions = new ArrayList<>();
    String now = Instant.now().toString();
    for (PodCondition condition : Optional.ofNullable(old.getConditions()).orElse(List.of())) {
      boolean readiness = condition.getType().equals("Ready") || condition.getType().equals("ContainersReady");
      conditions.add(readiness && !"False".equals(condition.getStatus())
          ? new PodConditionBuilder(condition).withStatus("False").withReason("PodFailed").withMessage(null)
              .withLastTransitionTime(now).build()
          : condition);
    }
    return new PodStatusBuilder(old).withPhase("Failed").withConditions(conditions)
        .withInitContainerStatuses(lost(old.getInitContainerStatuses()))
        .withContainerStatuses(lost(old.getContainerStatuses())).build();
  }

  private static List<ContainerStatus> lost(List<ContainerStatus> statuses) {
    List<ContainerStatus> result = new ArrayList<>();
    for (ContainerStatus status : Optional.ofNullable(statuses).orElse(List.of())) {
      boolean ended = status.getState() != null && status.getState().getTerminated() != null;
      if (ended) {
        result.add(status);
        continue;
      }
      ContainerState unknown = new ContainerStateBuilder().withNewTerminated().withReason(REASON)
          .withMessage(MESSAGE).withExitCode(EXIT_CODE).endTerminated().build();
      boolean wasRunning = status.getState() != null && status.getState().getRunning() != null;
      result.add(new ContainerStatusBuilder(status).withState(unknown).withReady(false).withStarted(false)
          // the kubelet counts the lost instance as a restart of a container that had run
          .withRestartCount(Optional.ofNullable(status.getRestartCount()).orElse(0) + (wasRunning ? 1 : 0))
          .build());
    }
    return result;
  }
}
