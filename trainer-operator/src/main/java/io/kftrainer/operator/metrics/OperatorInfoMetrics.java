package io.kftrainer.operator.metrics;

import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * Facts about the operator, each a gauge at 1, set once, as upstream PR #3433 names them:
 * {@code kubeflow_trainer_build_info{git_version,git_commit,build_date,go_version,compiler,platform}} (the JVM's
 * equivalents: {@code go_version} the Java runtime's version, {@code compiler} {@code javac}, {@code platform}
 * {@code <os>/<arch>}; commit and date {@code unknown}, as the PR's default) and
 * {@code kubeflow_trainer_runtimes_registered{group,kind}} (the runtime kinds TrainJobs may refer to).
 */
public final class OperatorInfoMetrics {

  static final String UNKNOWN = "unknown";

  private OperatorInfoMetrics() {
  }

  public static void register(MeterRegistry registry, String version) {
    Gauge.builder("kubeflow.trainer.build.info", () -> 1)
        .description("Build metadata for the Kubeflow Trainer controller manager (always 1).")
        .tag("git_version", version).tag("git_commit", UNKNOWN).tag("build_date", UNKNOWN)
        .tag("go_version", Runtime.version().toString()).tag("compiler", "javac")
        .tag("platform", System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/" + System.getProperty("os.arch"))
        .register(registry);
    for (String kind : new String[] {TrainerConstants.TRAINING_RUNTIME_KIND,
        TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND}) {
      Gauge.builder("kubeflow.trainer.runtimes.registered", () -> 1)
          .description("Number of registered training runtimes by group and kind.")
          .tag("group", TrainerConstants.GROUP).tag("kind", kind).register(registry);
    }
  }
}
