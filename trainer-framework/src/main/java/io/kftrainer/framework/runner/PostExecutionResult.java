package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The TrainJob status the post-execution phase computed.
 *
 * @param status the new status (a copy: the TrainJob's own is not changed)
 * @param transitions the conditions that changed, in the order they changed (one Event each)
 * @param deadlineExceeded whether {@code activeDeadlineSeconds} ran out in this reconcile: the operator deletes
 *     the running workload
 * @param requeueAfter when to look again because a deadline will pass
 */
public record PostExecutionResult(TrainJobStatus status, List<Condition> transitions, boolean deadlineExceeded,
    Optional<Duration> requeueAfter) {

  public PostExecutionResult {
    transitions = List.copyOf(transitions);
  }
}
