package io.kftrainer.optimization;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.Copies;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.OptimizationResult;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.api.v1alpha1.TrialObservation;
import io.kftrainer.api.v1alpha1.TrialResult;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The trial state machine of an OptimizationJob, as a function: from the OptimizationJob, its trial TrainJobs and
 * what this operator process knows of the creations it attempted, the next status and the actions that lead there
 * ({@link TrialPlan}). No I/O: the operator observes, calls {@link #plan}, then writes and creates in the plan's order.
 *
 * <p>The history is {@code status.trials} (KEP-3744), one record per trial, keyed by its TrainJob's name:
 * <ol>
 *   <li>A record is added with state {@code Running} when the trial is suggested, and its TrainJob created only after
 *       the status holding the record is stored. Trial i's name and values derive from i ({@code nextTrialIndex}),
 *       so nothing else needs remembering.</li>
 *   <li>A {@code Running} record whose TrainJob ended is closed once: {@code Complete} with the objective metric in
 *       {@code status.trainerStatus.metrics} → {@code Succeeded}; without it → {@code Failed}/{@code MetricsUnavailable};
 *       {@code Failed} → {@code Failed}/{@code TrainJobFailed}. Its time is the TrainJob's terminal condition's.</li>
 *   <li>A {@code Running} record without TrainJob (deleted, or never created because the process stopped between
 *       the status write and the create) → {@code Failed}/{@code TrainJobDeleted}, unless this process is still
 *       creating it ({@link Input#pendingCreations}: its create failed transiently, so it is sent again). A trial is
 *       never created again after that (KEP-3744's never-resurrect rule), and a closed record never changes: deleting
 *       a finished trial's TrainJob loses nothing.</li>
 *   <li>With early stopping ({@link MedianStop}), a running trial first seen at or past the rule's progress gets
 *       that value recorded, and is stopped ({@code EarlyStopped}, its TrainJob deleted) when worse than the median.</li>
 *   <li>New trials start while fewer than {@code parallelTrials} run and fewer than {@code numTrials} started (and
 *       a grid has combinations left). Every started trial counts toward {@code numTrials}, failed ones too.</li>
 *   <li>When every trial has ended: {@code Complete} ({@code MaxTrialsReached}, or {@code SearchSpaceExhausted} for a
 *       grid used up early) if one succeeded, else {@code Failed} ({@code AllTrialsFailed}). A trial TrainJob the API
 *       server refuses as invalid, an unusable early-stopping annotation or search space fail the OptimizationJob at
 *       once. Terminal is final; trials still running then are still recorded when they end.</li>
 * </ol>
 * {@code status.result} is the succeeded trial with the best objective value (the earliest on a tie).
 */
public final class TrialPlanner {

  private TrialPlanner() {
  }

  /**
   * What the planner sees.
   *
   * @param optimizationJob the OptimizationJob, as stored
   * @param trainJobs its trial TrainJobs by name (those it controls)
   * @param pendingCreations trials whose TrainJob this process is creating and has not seen yet
   * @param failedCreations trials whose TrainJob the API server refused for good, with why
   * @param now the time of this reconcile
   */
  public record Input(OptimizationJob optimizationJob, Map<String, TrainJob> trainJobs, Set<String> pendingCreations,
      Map<String, CreationFailure> failedCreations, Instant now) {

    public Input {
      Objects.requireNonNull(optimizationJob, "optimizationJob");
      trainJobs = Map.copyOf(trainJobs);
      pendingCreations = Set.copyOf(pendingCreations);
      failedCreations = Map.copyOf(failedCreations);
      Objects.requireNonNull(now, "now");
    }
  }

  public static TrialPlan plan(Input input) {
    return new Planning(input).run();
  }

  /** One planning: the working copy of the status and what is decided along the way. */
  private static final class Planning {
    private final Input input;
    private final OptimizationJob job;
    private final OptimizationJobSpec spec;
    private final OptimizationJobStatus status;
    private final List<TrialResult> trials;
    private final String now;
    private final List<TrainJob> creations = new ArrayList<>();
    private final List<String> deletions = new ArrayList<>();
    private final List<TrialEvent> events = new ArrayList<>();
    private final List<TrialResult> succeededNow = new ArrayList<>();
    private ObjectiveMetric objective;
    private Optional<MedianStop> earlyStopping = Optional.empty();
    private SuggestionAlgorithm algorithm;
    private OptimizationPhase phase;

    Planning(Input input) {
      this.input = input;
      this.job = input.optimizationJob();
      this.spec = job.getSpec();
      this.status = job.getStatus() == null ? new OptimizationJobStatus() : Copies.deepCopy(job.getStatus());
      this.trials = status.getTrials() == null ? new ArrayList<>() : new ArrayList<>(status.getTrials());
      this.now = input.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    TrialPlan run() {
      phase = terminalPhase(status.getConditions()).orElse(null);
      readConfiguration();
      int next = Math.max(trials.size(), status.getNextTrialIndex() == null ? 0 : status.getNextTrialIndex());
      if (objective != null) {
        trials.replaceAll(this::observe);
      }
      if (phase == null) {
        next = launch(next);
      }
      if (phase == null) {
        phase = runningOrEnded(next);
      }
      status.setTrials(trials);
      status.setNextTrialIndex(next);
      status.setProgress(ended() + "/" + numTrials());
      status.setResult(best().map(this::result).orElse(null));
      succeededNow.forEach(trial -> events.add(succeededEvent(trial)));
      return new TrialPlan(status, phase, creations, deletions, events);
    }

    /** The objective, early-stopping rule and suggestions; an unusable one fails a running OptimizationJob. */
    private void readConfiguration() {
      try {
        objective = ObjectiveMetric.of(spec);
        algorithm = SuggestionAlgorithm.of(spec, TrialSeeds.fromUid(job.getMetadata().getUid()));
      } catch (InvalidSearchSpaceException e) {
        failIfRunning(OptimizationConstants.REASON_INVALID_SEARCH_SPACE, e.getMessage());
      }
      try {
        earlyStopping = MedianStop.fromAnnotations(job.getMetadata().getAnnotations());
      } catch (InvalidEarlyStoppingException e) {
        failIfRunning(OptimizationConstants.REASON_INVALID_EARLY_STOPPING, e.getMessage());
      }
    }

    private void failIfRunning(String reason, String message) {
      if (phase == null) {
        phase = OptimizationPhase.failed(reason, message);
      }
    }

    /** A record as it is after this reconcile's observation of its TrainJob. */
    private TrialResult observe(TrialResult trial) {
      if (!OptimizationConstants.TRIAL_RUNNING.equals(trial.getState())) {
        return trial;
      }
      String name = trial.getTrainJobName();
      TrainJob trainJob = input.trainJobs().get(name);
      CreationFailure refused = input.failedCreations().get(name);
      if (trainJob == null && refused != null) {
        if (refused.templateRejected()) {
          failIfRunning(OptimizationConstants.REASON_TRAINJOBS_CREATION_FAILED,
              "cannot create trial TrainJob " + name + ": " + refused.message());
        }
        return failed(trial, OptimizationConstants.TRIAL_REASON_TRAINJOB_CREATION_FAILED, now, null,
            "the API server refused its TrainJob: " + refused.message());
      }
      if (trainJob == null && input.pendingCreations().contains(name)) {
        creations.add(TrialTrainJobs.build(job, name, trial.getParameters()));
        return trial;
      }
      if (trainJob == null || trainJob.getMetadata().getDeletionTimestamp() != null) {
        return failed(trial, OptimizationConstants.TRIAL_REASON_TRAINJOB_DELETED, now, null,
            "its TrainJob was deleted before it ended");
      }
      TrainerStatus reported = trainJob.getStatus() == null ? null : trainJob.getStatus().getTrainerStatus();
      Optional<Metric> value = objective.find(reported == null ? null : reported.getMetrics());
      Optional<Condition> complete = trueCondition(trainJob, TrainerConstants.CONDITION_COMPLETE);
      if (complete.isPresent()) {
        String at = timeOf(complete.get());
        if (value.isEmpty()) {
          return failed(trial, OptimizationConstants.TRIAL_REASON_METRICS_UNAVAILABLE, at, null,
              "its TrainJob completed without reporting the objective metric " + objective.metric()
                  + " in status.trainerStatus.metrics");
        }
        TrialResult succeeded = copy(trial).withState(OptimizationConstants.TRIAL_SUCCEEDED)
            .withMetrics(List.of(value.get())).withCompletionTime(at);
        succeededNow.add(succeeded);
        return succeeded;
      }
      Optional<Condition> failedCondition = trueCondition(trainJob, TrainerConstants.CONDITION_FAILED);
      if (failedCondition.isPresent()) {
        String why = failedCondition.get().getMessage() == null || failedCondition.get().getMessage().isEmpty()
            ? failedCondition.get().getReason() : failedCondition.get().getMessage();
        return failed(trial, OptimizationConstants.TRIAL_REASON_TRAINJOB_FAILED, timeOf(failedCondition.get()),
            value.orElse(null), "its TrainJob failed: " + why);
      }
      return earlyStopping.map(rule -> checkEarlyStopping(trial, reported, value, rule)).orElse(trial);
    }

    /** Records the value the rule compares, the first time the trial is seen at or past its progress; maybe stops it. */
    private TrialResult checkEarlyStopping(TrialResult trial, TrainerStatus reported, Optional<Metric> value,
        MedianStop rule) {
      if (trial.getEarlyStoppingObservation() != null || value.isEmpty() || reported == null
          || reported.getProgressPercentage() == null || reported.getProgressPercentage() < rule.startProgress()) {
        return trial;
      }
      TrialResult observed = copy(trial).withEarlyStoppingObservation(new TrialObservation()
          .withProgressPercentage(reported.getProgressPercentage()).withMetrics(List.of(value.get())));
      List<Double> succeeded = trials.stream()
          .filter(t -> OptimizationConstants.TRIAL_SUCCEEDED.equals(t.getState()))
          .map(TrialResult::getEarlyStoppingObservation)
          .filter(Objects::nonNull)
          .map(o -> objective.find(o.getMetrics()))
          .flatMap(Optional::stream)
          .map(m -> ObjectiveMetric.parse(m.getValue()).getAsDouble())
          .toList();
      double current = ObjectiveMetric.parse(value.get().getValue()).getAsDouble();
      if (!rule.shouldStop(current, succeeded, objective)) {
        return observed;
      }
      deletions.add(trial.getTrainJobName());
      events.add(new TrialEvent(false, TrialEvent.EARLY_STOPPED, "trial " + trial.getTrainJobName() + " stopped at "
          + reported.getProgressPercentage() + "%: " + objective.metric() + " " + value.get().getValue()
          + " is worse than the median " + format(rule.median(succeeded).getAsDouble()) + " of " + succeeded.size()
          + " succeeded trials at " + rule.startProgress() + "% or more"));
      return observed.withState(OptimizationConstants.TRIAL_EARLY_STOPPED)
          .withReason(OptimizationConstants.TRIAL_REASON_MEDIAN_STOP)
          .withMetrics(List.of(value.get()))
          .withCompletionTime(now);
    }

    /** When a TrainJob's terminal condition became true; now if it does not say. */
    private String timeOf(Condition condition) {
      return condition.getLastTransitionTime() == null ? now : condition.getLastTransitionTime();
    }

    private TrialResult failed(TrialResult trial, String reason, String at, Metric value, String why) {
      events.add(new TrialEvent(true, TrialEvent.FAILED,
          "trial " + trial.getTrainJobName() + " failed (" + reason + "): " + why));
      return copy(trial).withState(OptimizationConstants.TRIAL_FAILED).withReason(reason)
          .withMetrics(value == null ? null : List.of(value)).withCompletionTime(at);
    }

    /** Starts trials from index {@code next} while the budget allows; returns the next index. */
    private int launch(int next) {
      long running = running();
      while (running < parallelTrials() && next < numTrials()) {
        Optional<List<ParameterAssignment>> values = algorithm.suggest(next);
        if (values.isEmpty()) {
          break;
        }
        String name = TrialNames.of(job.getMetadata().getName(), next);
        Optional<String> problem = TrialNames.problem(name);
        if (problem.isPresent()) {
          phase = OptimizationPhase.failed(OptimizationConstants.REASON_TRAINJOBS_CREATION_FAILED,
              "cannot create trial TrainJob " + name + ": " + problem.get());
          break;
        }
        trials.add(new TrialResult().withTrainJobName(name).withParameters(values.get())
            .withState(OptimizationConstants.TRIAL_RUNNING).withCreationTime(now));
        creations.add(TrialTrainJobs.build(job, name, values.get()));
        events.add(new TrialEvent(false, TrialEvent.STARTED, "trial " + name + " started: " + describe(values.get())));
        next++;
        running++;
      }
      return next;
    }

    /** Running while trials run or may start; else the terminal outcome. */
    private OptimizationPhase runningOrEnded(int next) {
      long running = running();
      boolean exhausted = next < numTrials() && algorithm.suggest(next).isEmpty();
      if (running > 0 || next < numTrials() && !exhausted) {
        return OptimizationPhase.running(running + (running == 1 ? " trial" : " trials") + " running, " + ended()
            + " of " + numTrials() + " ended" + bestSoFar());
      }
      String counts = counts();
      if (best().isPresent()) {
        return exhausted
            ? OptimizationPhase.complete(OptimizationConstants.REASON_SEARCH_SPACE_EXHAUSTED,
                "every one of the " + next + " grid combinations was tried (" + counts + ")" + bestSoFar())
            : OptimizationPhase.complete(OptimizationConstants.REASON_MAX_TRIALS_REACHED,
                next + " of " + numTrials() + " trials ended (" + counts + ")" + bestSoFar());
      }
      String hint = trials.stream().anyMatch(t -> OptimizationConstants.TRIAL_REASON_METRICS_UNAVAILABLE
          .equals(t.getReason()))
          ? "; trials must report " + objective.metric() + " in their TrainJob's status.trainerStatus.metrics" : "";
      return OptimizationPhase.failed(OptimizationConstants.REASON_ALL_TRIALS_FAILED,
          "no trial succeeded: " + next + " of " + numTrials() + " trials ended (" + counts + ")" + hint);
    }

    /** "4 Succeeded, 1 Failed/TrainJobFailed, 1 EarlyStopped". */
    private String counts() {
      Map<String, Long> counts = new LinkedHashMap<>();
      for (TrialResult trial : trials) {
        if (!OptimizationConstants.TRIAL_RUNNING.equals(trial.getState())) {
          String key = OptimizationConstants.TRIAL_FAILED.equals(trial.getState())
              ? trial.getState() + "/" + trial.getReason() : trial.getState();
          counts.merge(key, 1L, Long::sum);
        }
      }
      return counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    }

    private String bestSoFar() {
      return best().map(t -> "; best " + objective.metric() + " " + t.getMetrics().get(0).getValue() + " by trial "
          + t.getTrainJobName()).orElse("");
    }

    private TrialEvent succeededEvent(TrialResult trial) {
      TrialResult best = best().orElseThrow();
      String value = objective.metric() + " " + trial.getMetrics().get(0).getValue();
      String standing = best.getTrainJobName().equals(trial.getTrainJobName()) ? " (the best so far)"
          : "; best so far " + best.getMetrics().get(0).getValue() + " by trial " + best.getTrainJobName();
      return new TrialEvent(false, TrialEvent.SUCCEEDED,
          "trial " + trial.getTrainJobName() + " succeeded: " + value + standing);
    }

    /** The succeeded trial with the best value; the earliest of equal ones. */
    private Optional<TrialResult> best() {
      if (objective == null) {
        return Optional.empty();
      }
      TrialResult best = null;
      double bestValue = Double.NaN;
      for (TrialResult trial : trials) {
        if (!OptimizationConstants.TRIAL_SUCCEEDED.equals(trial.getState())) {
          continue;
        }
        Optional<Metric> metric = objective.find(trial.getMetrics());
        if (metric.isEmpty()) {
          continue;
        }
        double value = ObjectiveMetric.parse(metric.get().getValue()).getAsDouble();
        if (best == null || objective.isBetter(value, bestValue)) {
          best = trial;
          bestValue = value;
        }
      }
      return Optional.ofNullable(best);
    }

    private OptimizationResult result(TrialResult trial) {
      return new OptimizationResult().withTrainJobName(trial.getTrainJobName())
          .withParameters(trial.getParameters()).withMetrics(objective.find(trial.getMetrics()).map(List::of)
              .orElse(null));
    }

    private long running() {
      return trials.stream().filter(t -> OptimizationConstants.TRIAL_RUNNING.equals(t.getState())).count();
    }

    private long ended() {
      return trials.size() - running();
    }

    private int numTrials() {
      return spec.getNumTrials() == null ? 1 : spec.getNumTrials();
    }

    private int parallelTrials() {
      return spec.getParallelTrials() == null ? 1 : spec.getParallelTrials();
    }
  }

  /** The terminal condition already set, if any: terminal is final. */
  static Optional<OptimizationPhase> terminalPhase(List<Condition> conditions) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream()
        .filter(c -> "True".equals(c.getStatus()))
        .filter(c -> OptimizationConstants.CONDITION_COMPLETE.equals(c.getType())
            || OptimizationConstants.CONDITION_FAILED.equals(c.getType()))
        .findFirst()
        .map(c -> new OptimizationPhase(c.getType(), c.getReason(), c.getMessage()));
  }

  private static Optional<Condition> trueCondition(TrainJob trainJob, String type) {
    if (trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return trainJob.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst();
  }

  private static TrialResult copy(TrialResult trial) {
    return Copies.deepCopy(trial);
  }

  /** "lr=0.01, batch_size=32". */
  public static String describe(List<ParameterAssignment> values) {
    return values.stream().map(v -> v.getName() + "=" + v.getValue()).collect(Collectors.joining(", "));
  }

  private static String format(double value) {
    return Double.toString(value);
  }
}
