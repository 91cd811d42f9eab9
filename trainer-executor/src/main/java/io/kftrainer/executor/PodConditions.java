package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Setting a condition as Kubernetes controllers do: the transition time changes only with the status. */
final class PodConditions {

  private PodConditions() {
  }

  static List<Condition> set(List<Condition> conditions, String type, String status, String reason, String message) {
    List<Condition> result = new ArrayList<>(conditions == null ? List.of() : conditions);
    Optional<Condition> existing = result.stream().filter(c -> type.equals(c.getType())).findFirst();
    String time = existing.filter(c -> status.equals(c.getStatus())).map(Condition::getLastTransitionTime)
        .orElse(Instant.now().toString());
    Condition condition = new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
        .withMessage(message).withLastTransitionTime(time).build();
    existing.ifPresentOrElse(c -> result.set(result.indexOf(c), condition), () -> result.add(condition));
    return result;
  }

  static boolean isTrue(List<Condition> conditions, String type) {
    return conditions != null
        && conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  static List<JobCondition> setJob(List<JobCondition> conditions, String type, String status, String reason,
      String message) {
    List<JobCondition> result = new ArrayList<>(conditions == null ? List.of() : conditions);
    Optional<JobCondition> existing = result.stream().filter(c -> type.equals(c.getType())).findFirst();
    if (existing.isPresent() && status.equals(existing.get().getStatus())
        && Objects.equals(reason, existing.get().getReason())) {
      return result;
    }
    String now = Instant.now().toString();
    JobCondition condition = new JobConditionBuilder().withType(type).withStatus(status).withReason(reason)
        .withMessage(message).withLastProbeTime(now).withLastTransitionTime(now).build();
    existing.ifPresentOrElse(c -> result.set(result.indexOf(c), condition), () -> result.add(condition));
    return result;
  }

  static boolean isJobTrue(List<JobCondition> conditions, String type) {
    return conditions != null
        && conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  static Optional<JobCondition> job(List<JobCondition> conditions, String type) {
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
  }
}
