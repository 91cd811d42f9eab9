package io.kftrainer.executor;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's work queue (controller-runtime's, simplified): each controller reconciles on one thread of its own,
 * with keys deduplicated while queued. A controller's in-memory state (the kubelet's process, port and address
 * tables, the Job controller's expectations) is touched by its thread only and needs no lock, and one object is
 * never reconciled twice at once. The controllers do not wait for each other, as on a cluster, where the kubelet
 * and kube-controller-manager are processes of their own: a pod starts while its Job's status is being written
 * (with one thread for all, the nodes of a JobSet waited 25 to 30 ms for it).
 */
final class WorkQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

  /** What is queued: which controller, which object ({@code namespace/name}). */
  record Key(String controller, String namespace, String name) {
  }

  private record Controller(ScheduledExecutorService thread, Consumer<Key> reconcile) {
  }

  private final Map<String, Controller> controllers = new ConcurrentHashMap<>();
  private final Set<Key> queued = new HashSet<>();

  /** Registers {@code controller}'s reconcile, run on a thread of its own named after it. */
  void register(String controller, Consumer<Key> reconcile) {
    ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "local-executor-" + controller);
      t.setDaemon(true);
      return t;
    });
    if (controllers.putIfAbsent(controller, new Controller(thread, reconcile)) != null) {
      thread.shutdown();
      throw new IllegalStateException("controller " + controller + " is registered already");
    }
  }

  void add(Key key) {
    Controller controller = controllerOf(key);
    synchronized (queued) {
      if (!queued.add(key)) {
        return;
      }
    }
    try {
      controller.thread().execute(() -> process(controller, key));
    } catch (RejectedExecutionException e) {
      // stopped: a process that ends after close() has nobody to report to
    }
  }

  void addAfter(Key key, long millis) {
    try {
      controllerOf(key).thread().schedule(() -> add(key), millis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // stopped
    }
  }

  private Controller controllerOf(Key key) {
    Controller controller = controllers.get(key.controller());
    if (controller == null) {
      throw new IllegalArgumentException("no controller " + key.controller() + " is registered");
    }
    return controller;
  }

  private void process(Controller controller, Key key) {
    synchronized (queued) {
      queued.remove(key);
    }
    try {
      controller.reconcile().accept(key);
    } catch (RuntimeException e) {
      // as a controller's rate-limited requeue: conflicts and races resolve on the next pass
      LOG.debug("reconcile of {} failed, retrying: {}", key, e.toString());
      addAfter(key, 500);
    }
  }

  @Override
  public void close() {
    controllers.values().forEach(controller -> controller.thread().shutdownNow());
  }
}
