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
 * @param deadlineExceeded whether the TrainJob failed because {@code activeDeadlineSeconds} ran out, in this
 *     reconcile or an earlier one: its workload must not run, and the operator deletes it (again if need be). The
 *     post-execution phase decides this once; callers read it rather than the conditions
 * @param requeueAfter when to look again because a deadline will pass
 */
public record PostExecutionResult(TrainJobStatus status, List<Condition> transitions, boolean deadlineExceeded,
    Optional<Duration> requeueAfter) {

  public PostExecutionResult {
    transitions = List.copyOf(transitions);
  }
}
