package io.kftrainer.operator.command;

import io.kftrainer.framework.runner.PluginCalls;
import io.kftrainer.operator.app.OperatorConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The options of {@code run} and {@code local} that change what the operator does, not where it runs. */
public final class BehaviourOptions {

  @Option(names = "--created-condition", paramLabel = "BOOLEAN", arity = "0..1", defaultValue = "false",
      fallbackValue = "true",
      description = "Also set the Created condition of the Kubeflow Trainer design document (KEP-2170) once a "
          + "TrainJob's objects exist (Created=False while building them fails). Off, the conditions are upstream's (Suspended, Complete, Failed): the Kubeflow "
          + "SDK shows a TrainJob as Running only when it has no condition, so with this on it shows Created until "
          + "the job ends (default: ${DEFAULT-VALUE}).")
  private boolean createdCondition;

  @Option(names = "--allow-plugin-load-failures",
      description = "Start without the plugin jars that cannot be loaded, logging a warning for each (default: "
          + "stop with an error naming the jar: a missing validation plugin would admit what it should reject).")
  private boolean allowPluginLoadFailures;

  @Option(names = "--plugin-call-timeout", paramLabel = "SECONDS", defaultValue = "5",
      description = "A plugin call that has not returned after this many seconds is abandoned: the TrainJob's "
          + "reconcile fails naming the plugin (Warning Event, retried with back-off), an admission request is "
          + "denied. A plugin that ignores the interruption keeps a thread; at most "
          + PluginCalls.STUCK_CALLS_PER_PLUGIN + " per plugin, then its calls are refused until one returns "
          + "(default: ${DEFAULT-VALUE}).")
  private double pluginCallTimeoutSeconds;

  /** {@code config} with these options. */
  public OperatorConfig applyTo(OperatorConfig config) {
    return config.withCreatedCondition(createdCondition).withAllowPluginLoadFailures(allowPluginLoadFailures)
        .withPluginCallTimeout(Duration.ofNanos(Math.round(pluginCallTimeoutSeconds * 1e9)));
  }
}
