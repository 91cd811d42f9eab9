package io.kftrainer.framework.spi;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeInfo;

/**
 * What a build-phase plugin sees: the TrainJob (read-only), the runtime info being built (the one thing it may
 * change) and the observed cluster objects.
 */
public final class BuildContext {

  private final TrainJob trainJob;
  private final RuntimeInfo info;
  private final ObjectLookup cluster;

  public BuildContext(TrainJob trainJob, RuntimeInfo info, ObjectLookup cluster) {
    this.trainJob = trainJob;
    this.info = info;
    this.cluster = cluster;
  }

  /** The TrainJob being built. Read-only: anything a later phase needs belongs in {@link #info()}. */
  public TrainJob trainJob() {
    return trainJob;
  }

  public RuntimeInfo info() {
    return info;
  }

  public ObjectLookup cluster() {
    return cluster;
  }
}
