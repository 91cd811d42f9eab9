package io.kftrainer.operator.app;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * A set of named checks of the operator process, one set per probe: readiness ({@code /readyz}: the controller
 * started with its caches synced, the webhook server presenting a certificate) and liveness ({@code /healthz}: the
 * informers still watching, the webhook's certificate not expired). Components add their own. Thread-safe; checks
 * are evaluated on every call.
 */
public final class HealthChecks {

  private final Map<String, BooleanSupplier> checks = new ConcurrentHashMap<>();

  /** Adds (or replaces) the check called {@code name}. */
  public void register(String name, BooleanSupplier check) {
    checks.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
  }

  /** Every check passes; with no check registered, false (nothing has reported yet). */
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
