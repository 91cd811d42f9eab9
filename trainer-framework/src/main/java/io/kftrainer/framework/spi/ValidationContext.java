package io.kftrainer.framework.spi;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.Optional;

/**
 * What a {@link CustomValidation} sees: the TrainJob being created or updated, the previous version on update,
 * the runtime info built from its runtime (before any enforce step), and the observed cluster objects.
 * All read-only.
 */
public final class ValidationContext {

  private final TrainJob trainJob;
  private final TrainJob oldTrainJob;
  private final RuntimeInfo info;
  private final ObjectLookup cluster;

  public ValidationContext(TrainJob trainJob, TrainJob oldTrainJob, RuntimeInfo info, ObjectLookup cluster) {
    this.trainJob = trainJob;
    this.oldTrainJob = oldTrainJob;
    this.info = info;
    this.cluster = cluster;
  }

  public TrainJob trainJob() {
    return trainJob;
  }

  /** The stored TrainJob on update; empty on create. */
  public Optional<TrainJob> oldTrainJob() {
    return Optional.ofNullable(oldTrainJob);
  }

  public boolean isUpdate() {
    return oldTrainJob != null;
  }

  public RuntimeInfo info() {
    return info;
  }

  public ObjectLookup cluster() {
    return cluster;
  }
}
