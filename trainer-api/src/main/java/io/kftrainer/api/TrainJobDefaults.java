package io.kftrainer.api;

import io.kftrainer.api.Copies;
import io.kftrainer.api.v1alpha1.TrainJob;

/**
 * A TrainJob as the API server stores it: with the defaults of the TrainJob CRD set. Those are
 * {@code spec.runtimeRef.apiGroup} = {@code trainer.kubeflow.org}, {@code spec.runtimeRef.kind} =
 * {@code ClusterTrainingRuntime}, {@code spec.managedBy} = {@code trainer.kubeflow.org/trainjob-controller} and
 * {@code spec.suspend} = false ({@link CrdDefaults}).
 *
 * <p>Validation and the build expect a defaulted TrainJob; {@code render}, which has no API server, defaults
 * before it validates, and so can any code that receives a TrainJob the API server has not seen.
 */
public final class TrainJobDefaults {

  private TrainJobDefaults() {
  }

  /** A defaulted copy; {@code trainJob} is left unchanged. */
  public static TrainJob defaulted(TrainJob trainJob) {
    TrainJob copy = Copies.deepCopy(trainJob);
    CrdDefaults.applyTo(copy);
    return copy;
  }
}
