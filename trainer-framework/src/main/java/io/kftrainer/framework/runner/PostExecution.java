package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.RunPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.TerminalStatus;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.framework.spi.TerminalCondition;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The post-execution phase: the framework's own conditions ({@code Suspended}, and {@code Created} when
 * {@link StatusConditions#WITH_CREATED}), then the {@link TerminalCondition} plugin's {@code Complete} /
 * {@code Failed}, then {@code startTime} and the active deadline, then {@code completionTime}.
 *
 * <p>{@code startTime} follows a JobSet's and a Job's (JobSet KEP-1186, which kubeflow/trainer issue #4052 names):
 * set while the TrainJob runs unsuspended, cleared when it is suspended, set again on resume; its value is where
 * the deadline's clock starts (upstream v2.2's: the creation, or the last resume). It is kept once the TrainJob
 * finished. {@code completionTime} is a Job's: the time of the {@code Complete} condition, never set on failure.
 */
final class PostExecution {

  static final String CREATED_MESSAGE = "TrainJob resources were created";

  private final Optional<TerminalCondition> terminalCondition;
  private final boolean createdCondition;

  PostExecution(Optional<TerminalCondition> terminalCondition, StatusConditions conditions) {
    this.terminalCondition = terminalCondition;
    this.createdCondition = conditions == StatusConditions.WITH_CREATED;
  }

  /** @param runPolicy the runtime's defaults, or null */
  PostExecutionResult run(StatusContext context, BuildOutcome outcome, Instant now, PluginCalls.Session session,
      RunPolicy runPolicy) {
    TrainJob trainJob = context.trainJob();
    TrainJobStatus status = copyOf(trainJob.getStatus());
    List<Condition> conditions = status.getConditions();
    List<Condition> transitions = new ArrayList<>();
    boolean finishedBefore = isFinished(conditions);

    if (outcome instanceof BuildOutcome.Created && createdCondition) {
      set(transitions, conditions, TrainerConstants.CONDITION_CREATED, Conditions.TRUE,
          TrainerConstants.REASON_JOBS_CREATED, CREATED_MESSAGE, now);
    } else if (outcome instanceof BuildOutcome.BuildFailed failed && createdCondition
        && !Conditions.isTrue(conditions, TrainerConstants.CONDITION_CREATED)) {
      set(transitions, conditions, TrainerConstants.CONDITION_CREATED, Conditions.FALSE, failed.reason(),
          failed.message(), now);
    } else if (outcome instanceof BuildOutcome.RuntimeUnavailable unavailable) {
      set(transitions, conditions, TrainerConstants.CONDITION_FAILED, Conditions.TRUE, unavailable.reason(),
          unavailable.message(), now);
    }

    if (Boolean.TRUE.equals(trainJob.getSpec().getSuspend())) {
      set(transitions, conditions, TrainerConstants.CONDITION_SUSPENDED, Conditions.TRUE,
          TrainerConstants.REASON_SUSPENDED, TrainerConstants.MESSAGE_SUSPENDED, now);
    } else if (Conditions.isTrue(conditions, TrainerConstants.CONDITION_SUSPENDED)) {
      set(transitions, conditions, TrainerConstants.CONDITION_SUSPENDED, Conditions.FALSE,
          TrainerConstants.REASON_RESUMED, TrainerConstants.MESSAGE_RESUMED, now);
    }

    Optional<TerminalStatus> observed = terminalCondition.flatMap(plugin -> observe(plugin, context, session));
    observed.ifPresent(terminal -> {
      if (!terminal.jobsStatus().isEmpty()) {
        status.setJobsStatus(new ArrayList<>(terminal.jobsStatus()));
      }
      if (!finishedBefore) {
        terminal.terminalCondition().ifPresent(condition -> {
          Condition wanted = withTimeDefault(condition, now);
          if (Conditions.set(conditions, wanted)) {
            transitions.add(wanted);
          }
        });
      }
    });

    boolean suspended = Boolean.TRUE.equals(trainJob.getSpec().getSuspend());
    if (!finishedBefore) {
      if (suspended) {
        status.setStartTime(null);
      } else if (status.getStartTime() == null) {
        status.setStartTime(Conditions.timestamp(deadlineClockStart(trainJob, conditions)));
      }
    }

    Optional<Duration> requeueAfter = Optional.empty();
    Long activeDeadlineSeconds = effectiveActiveDeadlineSeconds(trainJob, runPolicy);
    if (activeDeadlineSeconds != null && !isFinished(conditions) && !suspended) {
      Instant deadline = parse(status.getStartTime()).plusSeconds(activeDeadlineSeconds);
      if (!now.isBefore(deadline)) {
        set(transitions, conditions, TrainerConstants.CONDITION_FAILED, Conditions.TRUE,
            TrainerConstants.REASON_DEADLINE_EXCEEDED, TrainerConstants.MESSAGE_DEADLINE_EXCEEDED, now);
      } else {
        requeueAfter = Optional.of(Duration.between(now, deadline));
      }
    }
    if (status.getCompletionTime() == null) {
      Conditions.find(conditions, TrainerConstants.CONDITION_COMPLETE)
          .filter(c -> Conditions.TRUE.equals(c.getStatus()))
          .ifPresent(c -> status.setCompletionTime(c.getLastTransitionTime() != null ? c.getLastTransitionTime()
              : Conditions.timestamp(now)));
    }
    return new PostExecutionResult(status, transitions, failedOnDeadline(conditions), requeueAfter);
  }

  /** KEP-2899's resolution: the TrainJob's own value, else the runtime's {@code runPolicy} default, else none. */
  static Long effectiveActiveDeadlineSeconds(TrainJob trainJob, RunPolicy runPolicy) {
    Long own = trainJob.getSpec().getActiveDeadlineSeconds();
    if (own != null || runPolicy == null) {
      return own;
    }
    return runPolicy.getActiveDeadlineSeconds();
  }

  /**
   * Whether the TrainJob failed because its deadline passed, in this reconcile or an earlier one: asked on every
   * reconcile, so that a workload whose deletion failed once is deleted by a later reconcile.
   */
  private static boolean failedOnDeadline(List<Condition> conditions) {
    return Conditions.find(conditions, TrainerConstants.CONDITION_FAILED)
        .filter(c -> Conditions.TRUE.equals(c.getStatus()))
        .filter(c -> TrainerConstants.REASON_DEADLINE_EXCEEDED.equals(c.getReason()))
        .isPresent();
  }

  static boolean isFinished(List<Condition> conditions) {
    return Conditions.isTrue(conditions, TrainerConstants.CONDITION_COMPLETE)
        || Conditions.isTrue(conditions, TrainerConstants.CONDITION_FAILED);
  }

  /** The deadline clock starts at creation, or again at the last resume. */
  private static Instant deadlineClockStart(TrainJob trainJob, List<Condition> conditions) {
    return Conditions.find(conditions, TrainerConstants.CONDITION_SUSPENDED)
        .filter(c -> Conditions.FALSE.equals(c.getStatus()) && c.getLastTransitionTime() != null)
        .map(c -> parse(c.getLastTransitionTime()))
        .orElseGet(() -> parse(trainJob.getMetadata().getCreationTimestamp()));
  }

  private static Optional<TerminalStatus> observe(TerminalCondition plugin, StatusContext context,
      PluginCalls.Session session) {
    Optional<TerminalStatus> observed = session.call(plugin, "TerminalCondition", () -> plugin.terminalStatus(context));
    if (observed == null) {
      throw new PluginException(plugin.name(), "TerminalCondition",
          new IllegalStateException("returned null instead of an Optional"));
    }
    return observed;
  }

  private static void set(List<Condition> transitions, List<Condition> conditions, String type, String status,
      String reason, String message, Instant now) {
    if (Conditions.set(conditions, type, status, reason, message, now)) {
      transitions.add(Conditions.find(conditions, type).orElseThrow());
    }
  }

  private static Condition withTimeDefault(Condition condition, Instant now) {
    if (condition.getLastTransitionTime() != null) {
      return condition;
    }
    Condition copy = new Condition();
    copy.setType(condition.getType());
    copy.setStatus(condition.getStatus());
    copy.setReason(condition.getReason());
    copy.setMessage(condition.getMessage());
    copy.setLastTransitionTime(Conditions.timestamp(now));
    return copy;
  }

  private static Instant parse(String timestamp) {
    return timestamp == null ? Instant.EPOCH : OffsetDateTime.parse(timestamp).toInstant();
  }

  private static TrainJobStatus copyOf(TrainJobStatus status) {
    TrainJobStatus copy = new TrainJobStatus();
    copy.setConditions(status == null || status.getConditions() == null ? new ArrayList<>()
        : new ArrayList<>(status.getConditions()));
    List<JobStatus> jobs = status == null ? null : status.getJobsStatus();
    copy.setJobsStatus(jobs == null ? null : new ArrayList<>(jobs));
    copy.setTrainerStatus(status == null ? null : status.getTrainerStatus());
    copy.setStartTime(status == null ? null : status.getStartTime());
    copy.setCompletionTime(status == null ? null : status.getCompletionTime());
    return copy;
  }
}
