package io.kftrainer.framework.spi;

import io.kftrainer.api.v1alpha1.TrainJob;

/** What a {@link TerminalCondition} sees: the TrainJob with its current status, and its observed children. */
public final class StatusContext {

  private final TrainJob trainJob;
  private final ObjectLookup cluster;

  public StatusContext(TrainJob trainJob, ObjectLookup cluster) {
    this.trainJob = trainJob;
    this.cluster = cluster;
  }

  public TrainJob trainJob() {
    return trainJob;
  }

  public ObjectLookup cluster() {
    return cluster;
  }
}
