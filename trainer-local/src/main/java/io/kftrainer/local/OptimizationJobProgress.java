package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationResult;
import io.kftrainer.api.v1alpha1.TrialResult;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.optimization.TrialPlanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What local mode shows of an OptimizationJob, read from its status (the trial history): one line when a trial
 * starts, with its parameter values, one when it ends, with its objective value and the best so far, and one when
 * the OptimizationJob ends, e.g.
 *
 * <pre>
 * optimizationjob default/lr: trial lr-trial-0 started: lr=0.00316228
 * optimizationjob default/lr: trial lr-trial-0 Succeeded: loss=0.0412 (best so far)
 * optimizationjob default/lr: trial lr-trial-1 Failed (TrainJobFailed); best so far loss=0.0412 by lr-trial-0
 * optimizationjob default/lr: trial lr-trial-3 EarlyStopped (MedianStop): loss=0.91 at 50%; best so far ...
 * optimizationjob default/lr: Complete (MaxTrialsReached): 6 of 6 trials ended (5 Succeeded, 1 EarlyStopped); ...
 * </pre>
 *
 * A trial that started and ended between two updates gets both lines. Called by the OptimizationJob informer's
 * thread; keeps per OptimizationJob uid the trial states and conditions already shown.
 */
final class OptimizationJobProgress implements ResourceEventHandler<OptimizationJob> {

  private record Shown(Map<String, String> trials, Map<String, String> conditions) {
  }

  private final Consumer<String> out;
  private final Map<String, Shown> shown = new HashMap<>();

  OptimizationJobProgress(Consumer<String> out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /**
   * Takes what {@code jobs} show now as shown, without a line (those an earlier run of local left); returns their
   * summary, e.g. {@code 1 OptimizationJob (1 Complete)}, or empty when there are none.
   */
  synchronized String remember(List<OptimizationJob> jobs) {
    Map<String, Integer> states = new java.util.TreeMap<>();
    for (OptimizationJob job : jobs) {
      Shown before = shown.computeIfAbsent(job.getMetadata().getUid(), uid -> new Shown(new HashMap<>(),
          new HashMap<>()));
      String state = "running";
      if (job.getStatus() != null) {
        Optional.ofNullable(job.getStatus().getTrials()).orElse(List.of())
            .forEach(trial -> before.trials().put(trial.getTrainJobName(), trial.getState()));
        for (Condition condition : Optional.ofNullable(job.getStatus().getConditions()).orElse(List.of())) {
          before.conditions().put(condition.getType(), condition.getStatus() + "/" + condition.getReason());
          if (Conditions.TRUE.equals(condition.getStatus())
              && (OptimizationConstants.CONDITION_COMPLETE.equals(condition.getType())
              || OptimizationConstants.CONDITION_FAILED.equals(condition.getType()))) {
            state = condition.getType();
          }
        }
      }
      states.merge(state, 1, Integer::sum);
    }
    return TrainJobProgress.summary(jobs.size(), "OptimizationJob", states);
  }

  @Override
  public void onAdd(OptimizationJob job) {
    report(job);
  }

  @Override
  public void onUpdate(OptimizationJob oldJob, OptimizationJob job) {
    report(job);
  }

  @Override
  public synchronized void onDelete(OptimizationJob job, boolean deletedFinalStateUnknown) {
    shown.remove(job.getMetadata().getUid());
    out.accept(prefix(job) + "deleted");
  }

  private synchronized void report(OptimizationJob job) {
    Shown before = shown.computeIfAbsent(job.getMetadata().getUid(), uid -> new Shown(new HashMap<>(),
        new HashMap<>()));
    if (job.getStatus() == null) {
      return;
    }
    String metric = job.getSpec() == null || job.getSpec().getObjectives() == null
        || job.getSpec().getObjectives().isEmpty() ? null : job.getSpec().getObjectives().get(0).getMetric();
    List<String> lines = new ArrayList<>();
    List<TrialResult> trials = job.getStatus().getTrials() == null ? List.of() : job.getStatus().getTrials();
    for (TrialResult trial : trials) {
      String name = trial.getTrainJobName();
      String previous = before.trials().put(name, trial.getState());
      if (previous == null) {
        lines.add("trial " + name + " started: " + TrialPlanner.describe(trial.getParameters()));
      }
      if (!OptimizationConstants.TRIAL_RUNNING.equals(trial.getState()) && !trial.getState().equals(previous)) {
        lines.add(ended(trial, metric) + bestSoFar(job.getStatus().getResult(), name, metric));
      }
    }
    for (Condition condition : job.getStatus().getConditions() == null ? List.<Condition>of()
        : job.getStatus().getConditions()) {
      boolean terminal = OptimizationConstants.CONDITION_COMPLETE.equals(condition.getType())
          || OptimizationConstants.CONDITION_FAILED.equals(condition.getType());
      String state = condition.getStatus() + "/" + condition.getReason();
      if (terminal && Conditions.TRUE.equals(condition.getStatus())
          && !state.equals(before.conditions().put(condition.getType(), state))) {
        lines.add(condition.getType() + " (" + condition.getReason() + "): " + condition.getMessage());
      }
    }
    lines.forEach(line -> out.accept(prefix(job) + line));
  }

  /** "trial x Succeeded: loss=0.04", "trial x Failed (TrainJobFailed)", "... EarlyStopped (MedianStop): loss=.. at 50%". */
  private static String ended(TrialResult trial, String metric) {
    StringBuilder line = new StringBuilder("trial ").append(trial.getTrainJobName()).append(' ')
        .append(trial.getState());
    if (trial.getReason() != null) {
      line.append(" (").append(trial.getReason()).append(')');
    }
    objective(trial.getMetrics(), metric).ifPresent(value -> line.append(": ").append(metric).append('=').append(value));
    if (OptimizationConstants.TRIAL_EARLY_STOPPED.equals(trial.getState())
        && trial.getEarlyStoppingObservation() != null) {
      line.append(" at ").append(trial.getEarlyStoppingObservation().getProgressPercentage()).append('%');
    }
    return line.toString();
  }

  private static String bestSoFar(OptimizationResult best, String trial, String metric) {
    if (best == null || best.getTrainJobName() == null) {
      return "";
    }
    if (best.getTrainJobName().equals(trial)) {
      return " (best so far)";
    }
    return "; best so far " + objective(best.getMetrics(), metric).map(value -> metric + "=" + value + " by ")
        .orElse("") + best.getTrainJobName();
  }

  private static Optional<String> objective(List<Metric> metrics, String metric) {
    if (metrics == null || metric == null) {
      return Optional.empty();
    }
    return metrics.stream().filter(m -> metric.equals(m.getName())).map(Metric::getValue).findFirst();
  }

  private static String prefix(OptimizationJob job) {
    return "optimizationjob " + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName() + ": ";
  }
}
