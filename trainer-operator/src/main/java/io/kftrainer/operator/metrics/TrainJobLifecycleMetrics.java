package io.kftrainer.operator.metrics;

import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.controller.TrainJobLifecycle;
import io.kftrainer.operator.controller.TrainJobPhase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What happens to TrainJobs, counted as it happens, labelled {@code namespace} and {@code runtime} (the kind of
 * runtime it refers to: {@code ClusterTrainingRuntime}, {@code TrainingRuntime}), as upstream PR #3433 names them:
 *
 * <ul>
 *   <li>{@code kubeflow_trainer_trainjobs_created_total}: the TrainJob's first build, when the controller takes its
 *       runtime snapshot and creates its children (once per TrainJob, also across restarts of the operator; one
 *       whose runtime does not exist is never built: it fails; kept in {@link ReservedNameCounters}, its name having
 *       a suffix the Prometheus Java client reserves);</li>
 *   <li>{@code kubeflow_trainer_trainjobs_completed_total}, {@code kubeflow_trainer_trainjobs_failed_total} (also
 *       {@code reason}, the {@code Failed} condition's), {@code kubeflow_trainer_trainjobs_suspended_total}: a
 *       transition of that condition to true, written;</li>
 *   <li>{@code kubeflow_trainer_trainjobs_deleted_total}: the informer's delete event, on the leader;</li>
 *   <li>{@code kubeflow_trainer_trainjob_duration_seconds{namespace,runtime,result}}: from creation to the
 *       {@code Complete} or {@code Failed} condition ({@code result}), buckets 1 s to 6 h (the PR's);</li>
 * </ul>
 *
 * and beyond the PR, {@code kubeflow_trainer_trainjob_start_duration_seconds{namespace,runtime}} (from creation to
 * running, {@link TrainJobPhase#RUNNING}, as written; a resumed TrainJob counts again, from its creation) and
 * {@code kubeflow_trainer_trainjob_restarts_total{namespace,runtime}} (restarts of its JobSet reported). No TrainJob
 * name or uid is a label; {@code reason} is one of the controller's and plugins' condition reasons.
 */
public final class TrainJobLifecycleMetrics implements TrainJobLifecycle {

  /** Upstream PR #3433's buckets (Kueue's), in seconds: 1 s to 6 h. */
  static final double[] DURATION_BUCKETS = {1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 10800, 21600};

  private final MeterRegistry registry;
  private final BooleanSupplier leader;
  private final ReservedNameCounters reserved;

  /** @param leader whether this replica reconciles: a standby's informers see the deletes too, and count none */
  public TrainJobLifecycleMetrics(MeterRegistry registry, BooleanSupplier leader) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.leader = Objects.requireNonNull(leader, "leader");
    this.reserved = ReservedNameCounters.of(registry);
  }

  /** An event of a controller's primary resources: a deleted TrainJob is counted. */
  public void received(Event event) {
    if (leader.getAsBoolean() && event instanceof ResourceEvent resourceEvent && resourceEvent.getAction() == ResourceAction.DELETED
        && resourceEvent.getResource().orElse(null) instanceof TrainJob trainJob) {
      counter("kubeflow.trainer.trainjobs.deleted", "Total number of TrainJobs deleted.", trainJob).increment();
    }
  }

  @Override
  public void firstBuilt(TrainJob trainJob) {
    reserved.increment("kubeflow_trainer_trainjobs_created_total", "Total number of TrainJobs created.",
        Map.of("namespace", trainJob.getMetadata().getNamespace(), "runtime", runtimeKind(trainJob)));
  }

  @Override
  public void statusWritten(TrainJob trainJob, TrainJobPhase before, TrainJobStatus status, List<Condition> transitions,
      Instant now) {
    for (Condition condition : transitions) {
      if (!Conditions.TRUE.equals(condition.getStatus())) {
        continue;
      }
      switch (condition.getType()) {
        case TrainerConstants.CONDITION_COMPLETE -> {
          counter("kubeflow.trainer.trainjobs.completed", "Total number of TrainJobs that completed successfully.",
              trainJob).increment();
          sinceCreation(trainJob, condition, now).ifPresent(d -> duration(trainJob, "Complete").record(d));
        }
        case TrainerConstants.CONDITION_FAILED -> {
          Counter.builder("kubeflow.trainer.trainjobs.failed").description("Total number of TrainJobs that failed.")
              .tag("namespace", trainJob.getMetadata().getNamespace())
              .tag("runtime", runtimeKind(trainJob))
              .tag("reason", Objects.toString(condition.getReason(), ""))
              .register(registry).increment();
          sinceCreation(trainJob, condition, now).ifPresent(d -> duration(trainJob, "Failed").record(d));
        }
        case TrainerConstants.CONDITION_SUSPENDED -> counter("kubeflow.trainer.trainjobs.suspended",
            "Total number of TrainJob suspension events.", trainJob).increment();
        default -> {
          // Created and the plugins' conditions: the phase below tells running
        }
      }
    }
    if (before != TrainJobPhase.RUNNING && TrainJobPhase.of(status) == TrainJobPhase.RUNNING) {
      created(trainJob).ifPresent(created -> Timer.builder("kubeflow.trainer.trainjob.start.duration")
          .description("Time from the creation of TrainJobs to their first ready child Job.")
          .serviceLevelObjectives(Buckets.durations(DURATION_BUCKETS))
          .tag("namespace", trainJob.getMetadata().getNamespace())
          .tag("runtime", runtimeKind(trainJob))
          .register(registry).record(positive(Duration.between(created, now))));
    }
  }

  /** A restart of the TrainJob's JobSet, reported. */
  public void restarted(TrainJob trainJob) {
    counter("kubeflow.trainer.trainjob.restarts", "Total number of restarts of TrainJobs' JobSets.", trainJob)
        .increment();
  }

  /** The {@code runtime} label of upstream PR #3433: the kind of the runtime the TrainJob refers to. */
  static String runtimeKind(TrainJob trainJob) {
    String kind = trainJob.getSpec() == null || trainJob.getSpec().getRuntimeRef() == null ? null
        : trainJob.getSpec().getRuntimeRef().getKind();
    return kind != null ? kind : "Unknown";
  }

  private Counter counter(String name, String description, TrainJob trainJob) {
    return Counter.builder(name).description(description)
        .tag("namespace", trainJob.getMetadata().getNamespace())
        .tag("runtime", runtimeKind(trainJob))
        .register(registry);
  }

  private Timer duration(TrainJob trainJob, String result) {
    return Timer.builder("kubeflow.trainer.trainjob.duration")
        .description("End-to-end duration of TrainJobs from creation to terminal condition.")
        .serviceLevelObjectives(Buckets.durations(DURATION_BUCKETS))
        .tag("namespace", trainJob.getMetadata().getNamespace())
        .tag("runtime", runtimeKind(trainJob))
        .tag("result", result)
        .register(registry);
  }

  private static Optional<Duration> sinceCreation(TrainJob trainJob, Condition condition, Instant now) {
    Instant at = parse(condition.getLastTransitionTime()).orElse(now);
    return created(trainJob).map(created -> positive(Duration.between(created, at)));
  }

  private static Optional<Instant> created(TrainJob trainJob) {
    return parse(trainJob.getMetadata().getCreationTimestamp());
  }

  private static Optional<Instant> parse(String timestamp) {
    try {
      return timestamp == null ? Optional.empty() : Optional.of(Instant.parse(timestamp));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Duration positive(Duration duration) {
    return duration.isNegative() ? Duration.ZERO : duration;
  }
}
