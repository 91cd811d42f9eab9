package io.kftrainer.operator.app;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * Whether the operator process is ready to serve ({@code /readyz}): every registered check passes. The controller
 * registers one (started, caches synced); components such as the webhook server add their own (certificate
 * loaded, listening). Thread-safe; checks are evaluated on every call.
 */
public final class Readiness {

  private final Map<String, BooleanSupplier> checks = new ConcurrentHashMap<>();

  /** Adds (or replaces) the check called {@code name}. */
  public void register(String name, BooleanSupplier check) {
    checks.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
  }

  /** Ready when every check passes; with no check registered, not ready. */
  public boolean isReady() {
    return !checks.isEmpty() && failing().isEmpty();
  }

  /** The names of the checks that do not pass now, sorted. */
  public List<String> failing() {
    return checks.entrySet().stream()
        .filter(check -> !passes(check.getValue()))
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  private static boolean passes(BooleanSupplier check) {
    try {
      return check.getAsBoolean();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
