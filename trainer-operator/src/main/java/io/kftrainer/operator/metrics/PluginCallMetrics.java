package io.kftrainer.operator.metrics;

import io.kftrainer.framework.runner.PluginCallObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Upstream PR #3433's plugin metrics, per plugin and extension point ({@code phase}):
 * {@code kubeflow_trainer_plugin_execution_duration_seconds{plugin,phase}} (histogram, Prometheus' default buckets
 * as the PR's) and {@code kubeflow_trainer_plugin_execution_errors_total{plugin,phase}} (calls that threw or timed
 * out). {@code phase} is the PR's snake-case name of the extension point where upstream has it
 * ({@code enforce_ml_policy}, {@code enforce_pod_group_policy}, {@code validate}, {@code build}, {@code status} for
 * the terminal condition), else the extension point's name in snake case ({@code enforce_pod_spec},
 * {@code pre_build_sync}). Both series of a pair exist from a plugin's first call on. Bounded: plugins are the
 * ones loaded, extension points the framework's.
 */
public final class PluginCallMetrics implements PluginCallObserver {

  /** Prometheus' (client_golang's) DefBuckets, in seconds. */
  static final double[] DEFAULT_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private static final Map<String, String> UPSTREAM_PHASES = Map.of(
      "EnforceMLPolicy", "enforce_ml_policy",
      "EnforcePodGroupPolicy", "enforce_pod_group_policy",
      "CustomValidation", "validate",
      "ComponentBuilder", "build",
      "TerminalCondition", "status");

  private record Key(String plugin, String phase) {
  }

  private record Meters(Timer duration, Counter errors) {
  }

  private final MeterRegistry registry;
  private final Map<Key, Meters> meters = new ConcurrentHashMap<>();

  public PluginCallMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public void called(String plugin, String phase, long nanos, boolean failed) {
    Meters pair = meters.computeIfAbsent(new Key(plugin, phase), this::register);
    pair.duration().record(nanos, TimeUnit.NANOSECONDS);
    if (failed) {
      pair.errors().increment();
    }
  }

  private Meters register(Key key) {
    String phase = phase(key.phase());
    return new Meters(
        Timer.builder("kubeflow.trainer.plugin.execution.duration")
            .description("Latency of plugin execution per plugin and phase.")
            .serviceLevelObjectives(Buckets.durations(DEFAULT_BUCKETS))
            .tag("plugin", key.plugin()).tag("phase", phase).register(registry),
        Counter.builder("kubeflow.trainer.plugin.execution.errors")
            .description("Total number of errors encountered during plugin execution.")
            .tag("plugin", key.plugin()).tag("phase", phase).register(registry));
  }

  /** The {@code phase} label of an extension point. */
  static String phase(String extensionPoint) {
    String upstream = UPSTREAM_PHASES.get(extensionPoint);
    return upstream != null ? upstream
        : extensionPoint.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }
}
