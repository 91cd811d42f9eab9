package io.kftrainer.local;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.HashSet;
import java.util.Set;

/**
 * Forgets the metric history of deleted TrainJobs, as the garbage collector deletes a cluster's history ConfigMap
 * with its TrainJob: those deleted while {@code local} ran, and at start those an earlier run left of TrainJobs
 * that no longer exist.
 */
final class MetricHistoryCleanup implements ResourceEventHandler<TrainJob> {

  private final SqliteMetricHistory history;
  private final Set<String> listed = new HashSet<>();
  private boolean synced;

  MetricHistoryCleanup(SqliteMetricHistory history) {
    this.history = history;
  }

  @Override
  public synchronized void onAdd(TrainJob trainJob) {
    if (!synced) {
      listed.add(trainJob.getMetadata().getNamespace() + "/" + trainJob.getMetadata().getName());
    }
  }

  @Override
  public void onUpdate(TrainJob before, TrainJob after) {
  }

  @Override
  public void onDelete(TrainJob trainJob, boolean finalStateUnknown) {
    history.delete(trainJob.getMetadata().getNamespace(), trainJob.getMetadata().getName());
  }

  /** Called once the informer has listed every TrainJob. */
  synchronized void synced() {
    synced = true;
    history.retainOnly(Set.copyOf(listed));
    listed.clear();
  }
}
