package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.ValidationContext;
import java.util.ArrayList;
import java.util.List;

/**
 * What a TrainJob on a Flux runtime must not do:
 *
 * <ul>
 *   <li>bring its own {@code flux-installer} init container into pod set {@code node} (through the runtime or its
 *       runtime patches): the name is the plugin's; upstream's error, path and message;</li>
 *   <li>set {@code trainer.numProcPerNode} to {@code auto}, {@code cpu} or {@code gpu}, values of torch runtimes: Flux
 *       needs a number of tasks;</li>
 *   <li>set a Flux setting ({@link BrokerSettings}) with {@code valueFrom}: the operator reads the value when it
 *       builds the pods, where no reference resolves (upstream silently takes an empty value).</li>
 * </ul>
 */
final class FluxValidation {

  private FluxValidation() {
  }

  static ValidationResult validate(ValidationContext context) {
    List<FieldError> errors = new ArrayList<>();
    boolean reservedInstaller = context.info().podSet(FluxPodSet.NODE).stream()
        .map(PodSet::initContainers)
        .flatMap(List::stream)
        .map(ContainerInfo::name)
        .anyMatch(FluxPodSet.INSTALLER::equals);
    if (reservedInstaller) {
      errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "initContainers"), FluxPodSet.INSTALLER,
          "InitContainer '" + FluxPodSet.INSTALLER + "' is reserved"));
    }
    Trainer trainer = context.trainJob().getSpec() == null ? null : context.trainJob().getSpec().getTrainer();
    if (trainer == null) {
      return ValidationResult.of(errors);
    }
    IntOrString numProcPerNode = trainer.getNumProcPerNode();
    if (numProcPerNode != null && numProcPerNode.getIntVal() == null) {
      errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "numProcPerNode"), numProcPerNode.getStrVal(),
          "must be an integer for a Flux runtime"));
    }
    List<EnvVar> env = trainer.getEnv() == null ? List.of() : trainer.getEnv();
    for (int i = 0; i < env.size(); i++) {
      EnvVar var = env.get(i);
      if (BrokerSettings.NAMES.contains(var.getName()) && var.getValueFrom() != null) {
        errors.add(FieldError.forbidden(FieldPath.of("spec", "trainer", "env").index(i).child("valueFrom"),
            var.getName() + " is a Flux setting, read by the operator when it builds the pods: set value"));
      }
    }
    return ValidationResult.of(errors);
  }
}
