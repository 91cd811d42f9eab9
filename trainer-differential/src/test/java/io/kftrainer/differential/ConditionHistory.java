package io.kftrainer.differential;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;

/**
 * A TrainJob as last written and its conditions each time a write changed them, from a watch opened before the
 * TrainJob is created. A poll misses a state that lasts less than its interval, and on a busy machine a poll can be
 * seconds late: the same writes then read as different histories on the two sides. A watch is sent every write, in
 * order.
 */
final class ConditionHistory implements Watcher<GenericKubernetesResource>, AutoCloseable {

  /** The TrainJob as last written (null before it exists) and its conditions up to that write. */
  record Seen(GenericKubernetesResource trainJob, List<String> conditions) {
  }

  private final List<String> conditions = new ArrayList<>();
  private GenericKubernetesResource latest;
  private Watch watch;
  private String closedBy;

  private ConditionHistory() {
  }

  /** Watches the TrainJob {@code name} of {@code namespace}, which may not exist yet. */
  static ConditionHistory watch(KubernetesClient admin, String namespace, String name) {
    ConditionHistory history = new ConditionHistory();
    history.watch = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob")
        .inNamespace(namespace).withName(name).watch(history);
    return history;
  }

  @Override
  public synchronized void eventReceived(Action action, GenericKubernetesResource trainJob) {
    if (action != Action.ADDED && action != Action.MODIFIED) {
      return;
    }
    latest = trainJob;
    String now = ControllerRun.conditions(trainJob);
    // the TrainJob as created, before the controller's first status, is not part of the history
    boolean unwritten = conditions.isEmpty() && now.equals("[]");
    if (!unwritten && (conditions.isEmpty() || !conditions.get(conditions.size() - 1).equals(now))) {
      conditions.add(now);
    }
  }

  @Override
  public synchronized void onClose(WatcherException cause) {
    closedBy = cause.getMessage();
  }

  /** What the watch has delivered so far; fails if the watch closed. */
  synchronized Seen seen() {
    if (closedBy != null) {
      throw new IllegalStateException("the TrainJob's watch closed: " + closedBy);
    }
    return new Seen(latest, List.copyOf(conditions));
  }

  @Override
  public void close() {
    watch.close();
  }
}
