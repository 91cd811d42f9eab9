package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import java.util.Optional;

/**
 * A Job's {@code podFailurePolicy}, as the Job controller matches a failed pod against it
 * ({@code pkg/controller/job/pod_failure_policy.go}): the rules in order, the first that matches decides. A rule's
 * {@code onExitCodes} matches a terminated container (regular ones first, then init containers) of the named
 * container, or any, whose exit code is not 0 and is {@code In} (or {@code NotIn}) its values; its
 * {@code onPodConditions} match a pod condition of that type and status. {@code FailJob} fails the Job (reason
 * {@code PodFailurePolicy}, with the Job controller's message), {@code Ignore} does not count the pod towards
 * {@code backoffLimit}, {@code Count} counts it, as a pod no rule matches. {@code FailIndex} needs
 * {@code backoffLimitPerIndex}, which the executor does not implement: it counts, as the Job controller without it.
 */
final class PodFailurePolicy {

  static final String REASON = "PodFailurePolicy";

  /** What a failed pod does: fail the Job with {@code message}, or count towards the backoff limit, or not. */
  record Outcome(boolean counts, Optional<String> failJob) {

    static final Outcome COUNT = new Outcome(true, Optional.empty());
  }

  private PodFailurePolicy() {
  }

  static Outcome match(Job job, Pod pod) {
    var policy = job.getSpec().getPodFailurePolicy();
    if (policy == null || policy.getRules() == null || pod.getStatus() == null) {
      return Outcome.COUNT;
    }
    List<PodFailurePolicyRule> rules = policy.getRules();
    for (int index = 0; index < rules.size(); index++) {
      PodFailurePolicyRule rule = rules.get(index);
      String matched;
      if (rule.getOnExitCodes() != null) {
        ContainerStatus container = matchExitCodes(pod, rule.getOnExitCodes());
        matched = container == null ? null : "Container " + container.getName() + " for pod "
            + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " failed with exit code "
            + container.getState().getTerminated().getExitCode() + " matching " + rule.getAction()
            + " rule at index " + index;
      } else if (rule.getOnPodConditions() != null) {
        PodCondition condition = matchConditions(pod, rule.getOnPodConditions());
        matched = condition == null ? null : "Pod " + pod.getMetadata().getNamespace() + "/"
            + pod.getMetadata().getName() + " has condition " + condition.getType() + " matching "
            + rule.getAction() + " rule at index " + index;
      } else {
        continue;
      }
      if (matched == null) {
        continue;
      }
      switch (rule.getAction()) {
        case "Ignore":
          return new Outcome(false, Optional.empty());
        case "FailJob":
          return new Outcome(true, Optional.of(matched));
        case "Count":
          return Outcome.COUNT;
        default:
          break; // FailIndex without backoffLimitPerIndex: the next rule, as the Job controller falls through
      }
    }
    return Outcome.COUNT;
  }

  private static ContainerStatus matchExitCodes(Pod pod, PodFailurePolicyOnExitCodesRequirement requirement) {
    ContainerStatus found = matchExitCodes(pod.getStatus().getContainerStatuses(), requirement);
    return found != null ? found : matchExitCodes(pod.getStatus().getInitContainerStatuses(), requirement);
  }

  private static ContainerStatus matchExitCodes(List<ContainerStatus> statuses,
      PodFailurePolicyOnExitCodesRequirement requirement) {
    for (ContainerStatus status : Optional.ofNullable(statuses).orElse(List.of())) {
      if (status.getState() == null || status.getState().getTerminated() == null) {
        continue;
      }
      if (requirement.getContainerName() != null && !requirement.getContainerName().equals(status.getName())) {
        continue;
      }
      Integer exitCode = status.getState().getTerminated().getExitCode();
      if (exitCode == null || exitCode == 0) {
        continue;
      }
      boolean listed = Optional.ofNullable(requirement.getValues()).orElse(List.of()).contains(exitCode);
      if ("In".equals(requirement.getOperator()) && listed || "NotIn".equals(requirement.getOperator()) && !listed) {
        return status;
      }
    }
    return null;
  }

  private static PodCondition matchConditions(Pod pod, List<PodFailurePolicyOnPodConditionsPattern> patterns) {
    for (PodCondition condition : Optional.ofNullable(pod.getStatus().getConditions()).orElse(List.of())) {
      for (PodFailurePolicyOnPodConditionsPattern pattern : patterns) {
        String status = pattern.getStatus() == null ? "True" : pattern.getStatus();
        if (condition.getType().equals(pattern.getType()) && status.equals(condition.getStatus())) {
          return condition;
        }
      }
    }
    return null;
  }
}
