package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import java.time.Instant;
import java.util.List;

/** Told of the TrainJob controller's steps in TrainJobs' lives (the operator's metrics). */
public interface TrainJobLifecycle {

  TrainJobLifecycle NONE = new TrainJobLifecycle() {
  };

  /**
   * The TrainJob's first build: the reconcile that took its runtime snapshot, once in its life (a later reconcile,
   * also after a restart of the operator, builds from the snapshot).
   */
  default void firstBuilt(TrainJob trainJob) {
  }

  /**
   * A status the controller wrote, or found already written.
   *
   * @param observed the TrainJob as the reconcile found it
   * @param before the phase its previous status said, read before the reconcile computed the new one from it
   * @param status the status now stored
   * @param transitions the conditions that changed
   */
  default void statusWritten(TrainJob observed, TrainJobPhase before, TrainJobStatus status,
      List<Condition> transitions, Instant now) {
  }
}
