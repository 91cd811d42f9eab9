package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.ValidationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a TrainJob against an MPI runtime, with upstream's messages:
 *
 * <ul>
 *   <li>with {@code runLauncherAsNode}, a TrainJob of two or more nodes needs both a {@code launcher} and a
 *       {@code node} job in the runtime, since one node runs in the launcher and the rest in {@code node};</li>
 *   <li>{@code trainer.env} must not set the variables the runtime's MPI implementation sets on the launcher
 *       (upstream reserves the four {@code OMPI_*} ones; here each implementation reserves its own).</li>
 * </ul>
 */
final class MpiValidation {

  static final String LAUNCHER_AND_NODE_REQUIRED =
      "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have either launcher and node";

  private MpiValidation() {
  }

  static ValidationResult validate(ValidationContext context, MpiSettings settings) {
    Trainer trainer = context.trainJob().getSpec().getTrainer();
    if (trainer == null) {
      return ValidationResult.ok();
    }
    List<FieldError> errors = new ArrayList<>();
    int numNodes = trainer.getNumNodes() == null ? 1 : trainer.getNumNodes();
    if (numNodes >= 2 && settings.runLauncherAsNode() && !hasLauncherAndNode(context.info())) {
      errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "numNodes"), trainer.getNumNodes(),
          LAUNCHER_AND_NODE_REQUIRED));
    }
    Set<String> reserved = settings.implementation().map(MpiImplementation::reservedEnvNames).orElse(Set.of());
    Set<String> used = new TreeSet<>();
    for (EnvVar env : trainer.getEnv() == null ? List.<EnvVar>of() : trainer.getEnv()) {
      if (reserved.contains(env.getName())) {
        used.add(env.getName());
      }
    }
    if (!used.isEmpty()) {
      errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "env"), trainer.getEnv(),
          "must not have reserved envs, invalid envs configured: [" + String.join(" ", used) + "]"));
    }
    return ValidationResult.of(errors);
  }

  private static boolean hasLauncherAndNode(RuntimeInfo info) {
    return info.podSet(MPIPlugin.LAUNCHER).isPresent() && info.podSet(MPIPlugin.NODE).isPresent();
  }
}
