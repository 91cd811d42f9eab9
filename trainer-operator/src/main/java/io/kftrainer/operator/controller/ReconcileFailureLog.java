package io.kftrainer.operator.controller;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.runtime.EventMessages;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a TrainJob's failed builds once per change: the first failure, and each failure whose message differs from
 * the previous one, at WARN without a stack; a failure repeated by the retries at DEBUG; the stack of every failure
 * at DEBUG. A failing plugin is retried with back-off for as long as the TrainJob exists, and its Warning Event
 * already counts the repeats. A success forgets the TrainJob, so that a failure after it is news again.
 *
 * <p>The stack's messages are cleaned as the Event's ({@link EventMessages}): a plugin's exception may quote a
 * secret.
 */
final class ReconcileFailureLog {

  /** TrainJobs whose last failure is remembered; the oldest is forgotten first (a TrainJob deleted while failing). */
  private static final int REMEMBERED = 4096;
  private static final Logger LOG = LoggerFactory.getLogger(TrainJobReconciler.class);

  private final Map<String, String> lastFailure = Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > REMEMBERED;
        }
      });

  void failed(TrainJob trainJob, String message, Throwable cause) {
    String namespace = trainJob.getMetadata().getNamespace();
    String name = trainJob.getMetadata().getName();
    if (!message.equals(lastFailure.put(trainJob.getMetadata().getUid(), message))) {
      LOG.warn("Cannot reconcile the objects of TrainJob {}/{}: {}", namespace, name, message);
    } else {
      LOG.debug("Cannot reconcile the objects of TrainJob {}/{} (again): {}", namespace, name, message);
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("Failed reconcile of TrainJob {}/{}", namespace, name, cleaned(cause));
    }
  }

  /** {@code failure} and its causes with their stacks, each message cleaned. */
  private static Throwable cleaned(Throwable failure) {
    Throwable cause = failure.getCause() == null || failure.getCause() == failure ? null : cleaned(failure.getCause());
    Throwable copy = new CleanedThrowable(failure.getClass().getName() + ": "
        + EventMessages.of(String.valueOf(failure.getMessage())), cause);
    copy.setStackTrace(failure.getStackTrace());
    return copy;
  }

  void succeeded(TrainJob trainJob) {
    lastFailure.remove(trainJob.getMetadata().getUid());
  }

  /** A throwable of another class, as its class and cleaned message. */
  private static final class CleanedThrowable extends Exception {

    private static final long serialVersionUID = 1L;

    CleanedThrowable(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
