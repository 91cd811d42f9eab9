package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import java.time.Instant;
import java.util.List;

/** Told of each TrainJob status the controller wrote, or found already written (the operator's metrics). */
@FunctionalInterface
public interface StatusWritten {

  StatusWritten NONE = (observed, before, status, transitions, now) -> { };

  /**
   * @param observed the TrainJob as the reconcile found it
   * @param before what its previous status said: whether it had one, and the phase
   * @param status the status now stored
   * @param transitions the conditions that changed
   */
  void written(TrainJob observed, Before before, TrainJobStatus status, List<Condition> transitions, Instant now);

  /** What the status before the reconcile said, read before the reconcile computes the next one from it. */
  record Before(boolean hadStatus, TrainJobPhase phase) {

    public static Before of(TrainJobStatus status) {
      boolean had = status != null && ((status.getConditions() != null && !status.getConditions().isEmpty())
          || (status.getJobsStatus() != null && !status.getJobsStatus().isEmpty()));
      return new Before(had, TrainJobPhase.of(status));
    }
  }
}
