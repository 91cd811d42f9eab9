package io.kftrainer.framework.runner;

import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.MLPolicyOwner;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.Plugin;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Admission's check that the plugin applying a runtime's ML policy ({@link MLPolicyOwner}) is loaded. Without it a
 * runtime with, say, {@code mlPolicy.flux} would build a JobSet with none of what the policy asks for (no broker,
 * no certificate, the bare command) and nothing would tell the user; so such a runtime is rejected, and so is a
 * TrainJob that refers to one (the runtime may predate the operator's plugin set, or have been admitted by another
 * operator).
 */
public final class MLPolicyPlugins {

  private final Set<String> loaded;

  public MLPolicyPlugins(Collection<? extends Plugin> plugins) {
    this.loaded = plugins.stream().map(Plugin::name).collect(Collectors.toUnmodifiableSet());
  }

  /** An error at {@code spec.mlPolicy.<source>} when the runtime's policy needs a plugin that is not loaded. */
  public List<FieldError> validateRuntime(TrainingRuntimeSpec spec) {
    return missingOwner(spec)
        .map(owner -> FieldError.forbidden(FieldPath.of("spec", "mlPolicy", owner.source()),
            requiresPlugin(owner)))
        .stream().toList();
  }

  /** An error at {@code spec.runtimeRef} when the TrainJob's runtime needs a plugin that is not loaded. */
  public List<FieldError> validateTrainJob(RuntimeSource runtime) {
    return missingOwner(runtime.spec())
        .map(owner -> FieldError.invalid(FieldPath.of("spec", "runtimeRef"), runtime.name(),
            runtime.kind() + " \"" + runtime.name() + "\" sets spec.mlPolicy." + owner.source() + ", which "
                + requiresPlugin(owner)))
        .stream().toList();
  }

  private Optional<MLPolicyOwner> missingOwner(TrainingRuntimeSpec spec) {
    return Optional.ofNullable(spec)
        .flatMap(s -> MLPolicyOwner.of(s.getMlPolicy()))
        .filter(owner -> !loaded.contains(owner.plugin()));
  }

  private static String requiresPlugin(MLPolicyOwner owner) {
    return "needs plugin \"" + owner.plugin() + "\", which is not loaded in this operator";
  }
}
