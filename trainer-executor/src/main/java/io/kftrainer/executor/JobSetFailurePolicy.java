package io.kftrainer.executor;

import static io.kftrainer.api.jobset.v1alpha2.JobSetConstants.LABEL_REPLICATED_JOB_NAME;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.kftrainer.api.jobset.v1alpha2.FailurePolicy;
import io.kftrainer.api.jobset.v1alpha2.FailurePolicyRule;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a JobSet does when Jobs of its current attempt failed, as JobSet v0.12's controller decides it
 * ({@code pkg/controllers/failure_policy.go}): without a {@code failurePolicy} it fails ({@code FailedJobs});
 * otherwise the first rule (in order) that a failed Job matches on {@code onJobFailureReasons},
 * {@code onJobFailureMessagePatterns} (regular expressions found anywhere in the Job's {@code Failed} message) and
 * {@code targetReplicatedJobs} gives the action, applied to the earliest failed of the Jobs it matches; with no
 * rule matching, {@code RestartJobSet} applies to the earliest failed Job. {@code RestartJobSet} fails the JobSet
 * ({@code ReachedMaxRestarts}) once {@code restartsCountTowardsMax} has reached {@code maxRestarts}.
 */
final class JobSetFailurePolicy {

  static final String FAIL_JOBSET = "FailJobSet";
  static final String RESTART_JOBSET = "RestartJobSet";
  static final String RESTART_JOBSET_AND_IGNORE_MAX_RESTARTS = "RestartJobSetAndIgnoreMaxRestarts";

  /** What to do. */
  sealed interface Decision permits Restart, Fail, Unsupported {
  }

  /**
   * Restart the JobSet: the {@code RestartingJobSet} condition's reason ({@code FailurePolicy_<rule>} or
   * {@code DefaultFailurePolicy}), the action's Event reason and the message of both.
   */
  record Restart(Job failed, boolean countsTowardsMax, String conditionReason, String eventReason, String message)
      implements Decision {
  }

  /** Fail the JobSet with this reason and message. */
  record Fail(Job failed, String reason, String message) implements Decision {
  }

  /** An action JobSet applies only behind a feature gate that is off by default ({@code RestartJob}). */
  record Unsupported(Job failed, String action) implements Decision {
  }

  private JobSetFailurePolicy() {
  }

  /** @param failed the failed Jobs of the current attempt, at least one */
  static Decision decide(JobSet jobSet, List<Job> failed) {
    FailurePolicy policy = jobSet.getSpec().getFailurePolicy();
    if (policy == null) {
      Job first = earliest(failed, rule -> true).orElseThrow();
      return new Fail(first, "FailedJobs", withFirstFailedJob("jobset failed due to one or more job failures", first));
    }
    List<FailurePolicyRule> rules = Optional.ofNullable(policy.getRules()).orElse(List.of());
    for (int index = 0; index < rules.size(); index++) {
      FailurePolicyRule rule = rules.get(index);
      Optional<Job> matched = earliest(failed, job -> applies(rule, job));
      if (matched.isPresent()) {
        String name = Optional.ofNullable(rule.getName()).orElse("failurePolicyRule" + index);
        return apply(jobSet, rule.getAction(), "FailurePolicy_" + name, matched.get());
      }
    }
    return apply(jobSet, RESTART_JOBSET, "DefaultFailurePolicy", earliest(failed, job -> true).orElseThrow());
  }

  private static Decision apply(JobSet jobSet, String action, String conditionReason, Job job) {
    FailurePolicy policy = jobSet.getSpec().getFailurePolicy();
    int maxRestarts = Optional.ofNullable(policy.getMaxRestarts()).orElse(0);
    int counted = jobSet.getStatus() == null ? 0
        : Optional.ofNullable(jobSet.getStatus().getRestartsCountTowardsMax()).orElse(0);
    return switch (action) {
      case FAIL_JOBSET -> new Fail(job, "FailJobSetFailurePolicyAction",
          withFirstFailedJob("applying FailJobSet failure policy action", job));
      case RESTART_JOBSET -> counted >= maxRestarts
          ? new Fail(job, "ReachedMaxRestarts", withFirstFailedJob("jobset failed due to reaching max number of "
              + "restarts", job))
          : new Restart(job, true, conditionReason, "RestartJobSetFailurePolicyAction",
              withFirstFailedJob("applying RestartJobSet failure policy action", job));
      case RESTART_JOBSET_AND_IGNORE_MAX_RESTARTS -> new Restart(job, false, conditionReason,
          "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction",
          withFirstFailedJob("applying RestartJobSetAndIgnoreMaxRestarts failure policy action", job));
      default -> new Unsupported(job, action);
    };
  }

  private static boolean applies(FailurePolicyRule rule, Job job) {
    JobCondition failure = failure(job).orElse(null);
    if (failure == null) {
      return false;
    }
    List<String> reasons = Optional.ofNullable(rule.getOnJobFailureReasons()).orElse(List.of());
    if (!reasons.isEmpty() && !reasons.contains(failure.getReason())) {
      return false;
    }
    List<String> patterns = Optional.ofNullable(rule.getOnJobFailureMessagePatterns()).orElse(List.of());
    if (!patterns.isEmpty() && patterns.stream().noneMatch(p -> found(p, failure.getMessage()))) {
      return false;
    }
    String replicatedJob = job.getMetadata().getLabels() == null ? null
        : job.getMetadata().getLabels().get(LABEL_REPLICATED_JOB_NAME);
    if (replicatedJob == null || replicatedJob.isEmpty()) {
      return false;
    }
    List<String> targets = Optional.ofNullable(rule.getTargetReplicatedJobs()).orElse(List.of());
    return targets.isEmpty() || targets.contains(replicatedJob);
  }

  /** As Go's {@code regexp.MatchString}: found anywhere; an invalid pattern matches nothing. */
  private static boolean found(String pattern, String message) {
    try {
      return Pattern.compile(pattern).matcher(message == null ? "" : message).find();
    } catch (PatternSyntaxException e) {
      return false;
    }
  }

  /** The Job whose {@code Failed} condition is the oldest, among those {@code matching}. */
  private static Optional<Job> earliest(List<Job> failed, java.util.function.Predicate<Job> matching) {
    return failed.stream().filter(job -> failure(job).isPresent()).filter(matching)
        .min(Comparator.comparing(job -> time(failure(job).orElseThrow())));
  }

  private static Instant time(JobCondition condition) {
    try {
      return Instant.parse(condition.getLastTransitionTime());
    } catch (RuntimeException e) {
      return Instant.MAX;
    }
  }

  static Optional<JobCondition> failure(Job job) {
    return PodConditions.job(job.getStatus() == null ? null : job.getStatus().getConditions(), "Failed");
  }

  private static String withFirstFailedJob(String message, Job job) {
    return message + " (first failed job: " + job.getMetadata().getName() + ")";
  }
}
