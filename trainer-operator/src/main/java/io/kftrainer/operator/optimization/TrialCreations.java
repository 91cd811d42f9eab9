package io.kftrainer.operator.optimization;

import io.kftrainer.optimization.CreationFailure;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this operator process knows of the trial TrainJobs it is creating, per OptimizationJob uid (the
 * expectations of upstream's Job controller, KEP-3744): a creation is pending from the moment its record is stored
 * until the TrainJob is created (and so in the informer's cache) or shows in the informer, and a creation the API
 * server refused for good is remembered until the trial's record says so. A pending creation whose request failed is sent again; a trial without TrainJob that is
 * not pending was deleted (or lost with a previous process) and is never created again.
 *
 * <p>In memory only, on purpose: after a restart nothing is pending, so a record the previous process wrote without
 * creating its TrainJob is closed as {@code TrainJobDeleted} rather than guessed about. An entry lives while its
 * OptimizationJob has a create that failed and is to be sent again, or a refusal to record: a handful of names at
 * most, for the few seconds until the next reconcile.
 */
final class TrialCreations {

  private record State(Set<String> pending, Map<String, CreationFailure> failed) {
  }

  private final Map<String, State> byOptimizationJob = new ConcurrentHashMap<>();

  /** A trial TrainJob is about to be created: pending until seen. */
  void expect(String uid, String name) {
    state(uid).pending().add(name);
  }

  /** The trial's TrainJob was created. */
  void created(String uid, String name) {
    State state = byOptimizationJob.get(uid);
    if (state != null) {
      state.pending().remove(name);
      removeIfEmpty(uid, state);
    }
  }

  /** The API server refused the trial's TrainJob for good. */
  void refused(String uid, String name, CreationFailure failure) {
    State state = state(uid);
    state.pending().remove(name);
    state.failed().put(name, failure);
  }

  /**
   * The trials of {@code uid} whose creation is pending and not among {@code seen} (the TrainJobs in the cache);
   * those seen are no longer pending.
   */
  Set<String> pending(String uid, Set<String> seen) {
    State state = byOptimizationJob.get(uid);
    if (state == null) {
      return Set.of();
    }
    state.pending().removeAll(seen);
    return Set.copyOf(state.pending());
  }

  /** The refusals not yet recorded in the OptimizationJob's status. */
  Map<String, CreationFailure> refusals(String uid) {
    State state = byOptimizationJob.get(uid);
    return state == null ? Map.of() : Map.copyOf(state.failed());
  }

  /** The status that records {@code recorded} refusals is stored: they need not be remembered any more. */
  void recorded(String uid, Set<String> recorded) {
    State state = byOptimizationJob.get(uid);
    if (state == null) {
      return;
    }
    state.failed().keySet().removeAll(recorded);
    removeIfEmpty(uid, state);
  }

  private void removeIfEmpty(String uid, State state) {
    if (state.pending().isEmpty() && state.failed().isEmpty()) {
      byOptimizationJob.remove(uid);
    }
  }

  /** How many OptimizationJobs have an entry (for tests: entries do not pile up). */
  int size() {
    return byOptimizationJob.size();
  }

  private State state(String uid) {
    return byOptimizationJob.computeIfAbsent(uid, u -> new State(new HashSet<>(), new HashMap<>()));
  }
}
