package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Kubernetes condition-list semantics ({@code meta.SetStatusCondition}): a condition keeps its position in the list,
 * and its {@code lastTransitionTime} changes only when its status does.
 */
public final class Conditions {

  public static final String TRUE = "True";
  public static final String FALSE = "False";

  private Conditions() {
  }

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).filter(c -> TRUE.equals(c.getStatus())).isPresent();
  }

  /**
   * Sets {@code type} to status/reason/message in {@code conditions} (mutable).
   *
   * @return whether anything changed
   */
  public static boolean set(List<Condition> conditions, String type, String status, String reason,
      String message, Instant now) {
    Condition wanted = new Condition();
    wanted.setType(type);
    wanted.setStatus(status);
    wanted.setReason(reason);
    wanted.setMessage(message);
    wanted.setLastTransitionTime(timestamp(now));
    return set(conditions, wanted);
  }

  /** Sets a whole condition, keeping the existing transition time when the status is unchanged. */
  public static boolean set(List<Condition> conditions, Condition wanted) {
    for (int i = 0; i < conditions.size(); i++) {
      Condition existing = conditions.get(i);
      if (!wanted.getType().equals(existing.getType())) {
        continue;
      }
      boolean statusChanged = !Objects.equals(existing.getStatus(), wanted.getStatus());
      if (!statusChanged && Objects.equals(existing.getReason(), wanted.getReason())
          && Objects.equals(existing.getMessage(), wanted.getMessage())) {
        return false;
      }
      Condition updated = copy(wanted);
      if (!statusChanged) {
        updated.setLastTransitionTime(existing.getLastTransitionTime());
      }
      conditions.set(i, updated);
      return true;
    }
    conditions.add(copy(wanted));
    return true;
  }

  public static String timestamp(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static Condition copy(Condition c) {
    Condition copy = new Condition();
    copy.setType(c.getType());
    copy.setStatus(c.getStatus());
    copy.setReason(c.getReason());
    copy.setMessage(c.getMessage());
    copy.setLastTransitionTime(c.getLastTransitionTime());
    copy.setObservedGeneration(c.getObservedGeneration());
    return copy;
  }
}
