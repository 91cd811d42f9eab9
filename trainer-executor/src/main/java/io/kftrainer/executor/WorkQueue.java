package io.kftrainer.executor;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread for every reconcile of every controller, with keys deduplicated while queued (controller-runtime's
 * work queue, simplified): the controllers share in-memory state (process table, port and address tables) without
 * locks, and one object is never reconciled twice at once.
 */
final class WorkQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

  /** What is queued: which controller, which object ({@code namespace/name}). */
  record Key(String controller, String namespace, String name) {
  }

  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "local-executor");
    t.setDaemon(true);
    return t;
  });
  private final Set<Key> queued = new LinkedHashSet<>();
  private final java.util.Map<String, Consumer<Key>> handlers = new java.util.concurrent.ConcurrentHashMap<>();

  void register(String controller, Consumer<Key> handler) {
    handlers.put(controller, handler);
  }

  void add(Key key) {
    synchronized (queued) {
      if (!queued.add(key)) {
        return;
      }
    }
    try {
      thread.execute(() -> process(key));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // stopped: a process that ends after close() has nobody to report to
    }
  }

  void addAfter(Key key, long millis) {
    try {
      thread.schedule(() -> add(key), millis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // stopped
    }
  }

  private void process(Key key) {
    synchronized (queued) {
      queued.remove(key);
    }
    try {
      handlers.get(key.controller()).accept(key);
    } catch (RuntimeException e) {
      // as a controller's rate-limited requeue: conflicts and races resolve on the next pass
      LOG.debug("reconcile of {} failed, retrying: {}", key, e.toString());
      addAfter(key, 500);
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
