package io.kftrainer.runtime;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.runner.MLPolicyPlugins;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.ObjectLookup;
import java.util.Map;
import java.util.Optional;

/**
 * Validates a TrainJob as upstream's admission webhook does: its runtime must be supported and exist, a
 * deprecated {@code ClusterTrainingRuntime} gives a warning, and then every plugin's {@code CustomValidation}
 * runs. Not upstream: the plugin of the runtime's ML policy must be loaded ({@link MLPolicyPlugins}). Unsupported
 * and missing runtimes come back as field errors of {@code spec.runtimeRef}, so that callers report every problem
 * the same way. Expects a defaulted TrainJob ({@link TrainJobDefaults}).
 */
public final class TrainJobValidator {

  /** Upstream's link in the deprecation warning. */
  public static final String RUNTIME_DEPRECATION_POLICY_URL =
      "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy";

  private final RuntimeResolver runtimes;
  private final PhaseRunner runner;
  private final MLPolicyPlugins policyPlugins;

  public TrainJobValidator(RuntimeResolver runtimes, PhaseRunner runner) {
    this.runtimes = runtimes;
    this.runner = runner;
    this.policyPlugins = new MLPolicyPlugins(runner.plugins());
  }

  /**
   * The errors and warnings of creating ({@code oldTrainJob} null) or updating a TrainJob.
   *
   * @throws io.kftrainer.framework.runner.PluginException if a plugin fails
   */
  public ValidationResult validate(TrainJob oldTrainJob, TrainJob trainJob, ObjectLookup cluster) {
    // the CRD does not require spec (as upstream's): without it there is no runtime to look up
    if (trainJob.getSpec() == null) {
      return ValidationResult.of(FieldError.required(FieldPath.of("spec"), "spec.runtimeRef is required"));
    }
    if (trainJob.getSpec().getRuntimeRef() == null) {
      return ValidationResult.of(FieldError.required(FieldPath.of("spec", "runtimeRef"), ""));
    }
    RuntimeKey key;
    try {
      key = RuntimeKey.of(trainJob);
    } catch (UnsupportedRuntimeException e) {
      return ValidationResult.of(e.fieldError());
    }
    Optional<RuntimeSource> runtime = runtimes.resolve(trainJob);
    if (runtime.isEmpty()) {
      return ValidationResult.of(key.notFound());
    }
    return deprecationWarning(runtime.get())
        .and(ValidationResult.of(policyPlugins.validateTrainJob(runtime.get())))
        .and(runner.runPreExecution(runtime.get(), oldTrainJob, trainJob, cluster));
  }

  /** Upstream's warning for a {@code ClusterTrainingRuntime} labelled {@code trainer.kubeflow.org/support: deprecated}. */
  static ValidationResult deprecationWarning(RuntimeSource runtime) {
    Map<String, String> labels = runtime.metadata().getLabels();
    boolean deprecated = labels != null
        && TrainerConstants.SUPPORT_DEPRECATED.equals(labels.get(TrainerConstants.LABEL_SUPPORT));
    if (!deprecated || !RuntimeSource.CLUSTER_TRAINING_RUNTIME.equals(runtime.kind())) {
      return ValidationResult.ok();
    }
    return ValidationResult.warning("Referenced ClusterTrainingRuntime \"" + runtime.name() + "\" is deprecated and "
        + "will be removed in a future release of Kubeflow Trainer. See runtime deprecation policy: "
        + RUNTIME_DEPRECATION_POLICY_URL);
  }
}
