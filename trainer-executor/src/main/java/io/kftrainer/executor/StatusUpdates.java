package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The status writes of the executor's controllers (kubelet, Job, JobSet): the object as the controller's informer
 * last saw it, with the new status, to the status subresource; only when that copy is stale (409 Conflict) is the
 * latest read. Reading the object before every write cost a round trip per link of the chain from a process's exit
 * to the TrainJob's {@code Complete} (pod, Job, JobSet). An object deleted meanwhile is left alone; a second
 * conflict is the caller's (the work queue retries).
 *
 * <p>What happens on a conflict depends on what the status is computed from:
 * <ul>
 *   <li>{@link #ofObservedState}: from what the controller observes itself (the kubelet's processes, a bound
 *       volume): written on the latest object.</li>
 *   <li>{@link #ofAccumulatedState}: from the previous status too (a JobSet's {@code restarts}, a Job's failed
 *       pods, which are gone once deleted): written on the latest object only when its status is the one the
 *       computation started from (only its metadata or spec moved). Otherwise the status was computed from a stale
 *       one and would undo a newer write (a JobSet's {@code restarts} read back absent after a restart, when a
 *       reconcile on the cache's older copy overwrote it): the conflict goes to the caller, whose reconcile runs
 *       again on the newer copy.</li>
 * </ul>
 */
final class StatusUpdates {

  private final KubernetesClient client;
  private final boolean accumulated;

  private StatusUpdates(KubernetesClient client, boolean accumulated) {
    this.client = client;
    this.accumulated = accumulated;
  }

  static StatusUpdates ofObservedState(KubernetesClient client) {
    return new StatusUpdates(client, false);
  }

  static StatusUpdates ofAccumulatedState(KubernetesClient client) {
    return new StatusUpdates(client, true);
  }

  /**
   * Writes the status {@code setStatus} sets on a copy of {@code seen} (which is not changed).
   *
   * @throws KubernetesClientException 409 when, accumulating, the latest status is not {@code seen}'s
   */
  <T extends HasMetadata> void write(T seen, Consumer<T> setStatus) {
    T copy = client.getKubernetesSerialization().clone(seen);
    setStatus.accept(copy);
    try {
      client.resource(copy).updateStatus();
      return;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return;
      }
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      T latest = client.resource(seen).get();
      if (latest != null && accumulated && !Objects.equals(status(latest), status(seen))) {
        throw e;
      }
      copy = latest;
    }
    if (copy == null) {
      return;
    }
    setStatus.accept(copy);
    try {
      client.resource(copy).updateStatus();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
  }

  private Object status(HasMetadata object) {
    return client.getKubernetesSerialization().convertValue(object, Map.class).get("status");
  }
}
