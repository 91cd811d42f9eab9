package io.kftrainer.operator.metrics;

import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrialResult;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.controller.TrainJobPhase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of the TrainJobs and OptimizationJob trials that exist now, counted from the controller's informer caches
 * once per {@code period} on a thread of their own (not per scrape, not per reconcile); a combination of labels
 * with nothing in it disappears:
 *
 * <ul>
 *   <li>{@code kubeflow_trainer_trainjobs_active{namespace,runtime}} (upstream PR #3433): TrainJobs present, by the
 *       kind of runtime they refer to;</li>
 *   <li>{@code kubeflow_trainer_trainjobs{namespace,runtime,runtime_name,state}}: TrainJobs by {@link TrainJobPhase}
 *       and by the runtime they refer to (its kind and name);</li>
 *   <li>{@code kubeflow_trainer_optimizationjob_trials{namespace,state}}: the trials of the OptimizationJobs by state
 *       ({@code Running}, {@code Succeeded}, {@code Failed}, {@code EarlyStopped});</li>
 *   <li>{@code trainer_trainjobs{condition}}: TrainJobs whose condition {@code Created}, {@code Suspended},
 *       {@code Complete} or {@code Failed} is true (this operator's name before the {@code kubeflow_trainer_*}
 *       ones).</li>
 * </ul>
 *
 * Bounded by namespaces times runtimes times states: no TrainJob's name or uid.
 */
public final class TrainJobStateMetrics implements AutoCloseable {

  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(5);
  static final List<String> CONDITIONS = List.of(TrainerConstants.CONDITION_CREATED,
      TrainerConstants.CONDITION_SUSPENDED, TrainerConstants.CONDITION_COMPLETE, TrainerConstants.CONDITION_FAILED);
  private static final Logger LOG = LoggerFactory.getLogger(TrainJobStateMetrics.class);

  private final Supplier<List<TrainJob>> trainJobs;
  private final Supplier<List<OptimizationJob>> optimizationJobs;
  private final MultiGauge active;
  private final MultiGauge byState;
  private final MultiGauge trials;
  private final MultiGauge byCondition;
  private ScheduledExecutorService refresher;

  public TrainJobStateMetrics(MeterRegistry registry, Supplier<List<TrainJob>> trainJobs,
      Supplier<List<OptimizationJob>> optimizationJobs) {
    this.trainJobs = Objects.requireNonNull(trainJobs, "trainJobs");
    this.optimizationJobs = Objects.requireNonNull(optimizationJobs, "optimizationJobs");
    active = MultiGauge.builder("kubeflow.trainer.trainjobs.active")
        .description("Number of TrainJobs currently present in the cluster.").register(registry);
    byState = MultiGauge.builder("kubeflow.trainer.trainjobs")
        .description("TrainJobs by state and by the runtime they refer to.").register(registry);
    trials = MultiGauge.builder("kubeflow.trainer.optimizationjob.trials")
        .description("Trials of OptimizationJobs by state.").register(registry);
    byCondition = MultiGauge.builder("trainer.trainjobs")
        .description("TrainJobs whose condition is true, by condition type").register(registry);
    // these four exist from the start, as they did when counted per scrape; the others appear with what they count
    byCondition.register(CONDITIONS.stream().<MultiGauge.Row<?>>map(condition -> MultiGauge.Row.of(
        Tags.of("condition", condition), 0)).toList(), true);
  }

  /** Counts now, then every {@code period}. */
  public synchronized void start(Duration period) {
    if (refresher != null) {
      throw new IllegalStateException("already started");
    }
    refresher = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "trainer-state-metrics");
      thread.setDaemon(true);
      return thread;
    });
    refresher.scheduleWithFixedDelay(this::refreshQuietly, 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    if (refresher != null) {
      refresher.shutdownNow();
      refresher = null;
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.debug("Cannot count the TrainJobs for the metrics", e);
    }
  }

  /** Counts the caches' objects into the gauges. */
  public void refresh() {
    List<TrainJob> jobs = trainJobs.get();
    active.register(rows(jobs, job -> Tags.of("namespace", job.getMetadata().getNamespace(),
        "runtime", TrainJobLifecycleMetrics.runtimeKind(job))), true);
    byState.register(rows(jobs, job -> Tags.of("namespace", job.getMetadata().getNamespace(),
        "runtime", TrainJobLifecycleMetrics.runtimeKind(job), "runtime_name", runtimeName(job),
        "state", TrainJobPhase.of(job.getStatus()).label())), true);
    List<TrialWithNamespace> allTrials = new ArrayList<>();
    for (OptimizationJob job : optimizationJobs.get()) {
      if (job.getStatus() != null && job.getStatus().getTrials() != null) {
        job.getStatus().getTrials().forEach(trial -> allTrials.add(
            new TrialWithNamespace(job.getMetadata().getNamespace(), trial)));
      }
    }
    trials.register(rows(allTrials, trial -> Tags.of("namespace", trial.namespace(),
        "state", Objects.toString(trial.trial().getState(), "Unknown"))), true);
    List<MultiGauge.Row<?>> conditions = new ArrayList<>();
    for (String condition : CONDITIONS) {
      long count = jobs.stream().filter(job -> job.getStatus() != null
          && Conditions.isTrue(job.getStatus().getConditions(), condition)).count();
      conditions.add(MultiGauge.Row.of(Tags.of("condition", condition), count));
    }
    byCondition.register(conditions, true);
  }

  private record TrialWithNamespace(String namespace, TrialResult trial) {
  }

  private static <T> List<MultiGauge.Row<?>> rows(List<T> objects, Function<T, Tags> tags) {
    Map<Tags, Long> counts = objects.stream().collect(Collectors.groupingBy(tags, Collectors.counting()));
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    counts.forEach((labels, count) -> rows.add(MultiGauge.Row.of(labels, count)));
    return rows;
  }

  private static String runtimeName(TrainJob job) {
    return job.getSpec() == null || job.getSpec().getRuntimeRef() == null ? ""
        : Objects.toString(job.getSpec().getRuntimeRef().getName(), "");
  }
}
