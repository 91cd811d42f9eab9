package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.function.Consumer;

/**
 * The status writes of the executor's controllers (kubelet, Job, JobSet): the object as the controller's informer
 * last saw it, with the new status, to the status subresource; only when that copy is stale (409 Conflict) is the
 * latest read and the status written on it. Reading the object before every write cost a round trip per link of
 * the chain from a process's exit to the TrainJob's {@code Complete} (pod, Job, JobSet). An object deleted
 * meanwhile is left alone; a second conflict is the caller's (the work queue retries).
 */
final class StatusUpdates {

  private final KubernetesClient client;

  StatusUpdates(KubernetesClient client) {
    this.client = client;
  }

  /** Writes the status {@code setStatus} sets on a copy of {@code seen} (which is not changed). */
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
    }
    T latest = client.resource(seen).get();
    if (latest == null) {
      return;
    }
    setStatus.accept(latest);
    try {
      client.resource(latest).updateStatus();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
  }
}
