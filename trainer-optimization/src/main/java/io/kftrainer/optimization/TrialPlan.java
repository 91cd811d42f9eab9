package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.List;

/**
 * What one reconcile of an OptimizationJob does, decided by {@link TrialPlanner}, in the order the operator must do
 * it: write {@code status} (its conditions from {@code phase}), and only once that write succeeded create the new
 * trials' TrainJobs and delete the early-stopped ones, then record the events. Creating a trial before its record
 * is stored could leave a TrainJob the history does not know of; the other way round, a crash leaves a record
 * without TrainJob, which the next plan closes as {@code TrainJobDeleted} (KEP-3744).
 *
 * @param status the new status, its {@code conditions} as they were (the operator applies {@code phase})
 * @param phase where the OptimizationJob stands now
 * @param creations the trial TrainJobs to create, after the status write
 * @param deletions the names of the trial TrainJobs to delete (stopped early), after the status write
 * @param events the Events about trials, after the status write
 */
public record TrialPlan(OptimizationJobStatus status, OptimizationPhase phase, List<TrainJob> creations,
    List<String> deletions, List<TrialEvent> events) {

  public TrialPlan {
    creations = List.copyOf(creations);
    deletions = List.copyOf(deletions);
    events = List.copyOf(events);
  }
}
