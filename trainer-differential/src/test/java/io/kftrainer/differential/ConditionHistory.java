package io.kftrainer.differential;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * A TrainJob's conditions each time a write changed them, from a watch opened before the TrainJob is created. A
 * poll misses a state that lasts less than its interval, and on a busy machine a poll can be seconds late: the same
 * writes then read as different histories on the two sides. A watch is sent every write, in order.
 */
final class ConditionHistory implements Watcher<GenericKubernetesResource>, AutoCloseable {

  private static final Duration CATCH_UP = Duration.ofSeconds(30);

  /** Each event's resourceVersion and conditions, in the order the watch sent them. */
  private final List<String[]> events = new ArrayList<>();
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
    events.add(new String[] {trainJob.getMetadata().getResourceVersion(), ControllerRun.conditions(trainJob)});
  }

  @Override
  public synchronized void onClose(WatcherException cause) {
    closedBy = cause.getMessage();
  }

  /** The conditions each time they changed, up to the TrainJob's {@code resourceVersion}. */
  List<String> through(String resourceVersion) {
    Awaitility.await("the watch's event of resourceVersion " + resourceVersion).atMost(CATCH_UP)
        .pollInterval(Duration.ofMillis(20)).until(() -> {
          synchronized (this) {
            if (closedBy != null) {
              throw new IllegalStateException("the TrainJob's watch closed: " + closedBy);
            }
            return events.stream().anyMatch(e -> e[0].equals(resourceVersion));
          }
        });
    List<String> conditions = new ArrayList<>();
    synchronized (this) {
      for (String[] event : events) {
        String now = event[1];
        // the TrainJob as created, before the controller's first status, is not part of the history
        boolean unwritten = conditions.isEmpty() && now.equals("[]");
        if (!unwritten && (conditions.isEmpty() || !conditions.get(conditions.size() - 1).equals(now))) {
          conditions.add(now);
        }
        if (event[0].equals(resourceVersion)) {
          break;
        }
      }
    }
    return conditions;
  }

  @Override
  public void close() {
    watch.close();
  }
}
