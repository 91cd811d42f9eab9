package io.kftrainer.plugins.jobset;

import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.v1alpha1.JobSetTemplateSpec;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.ValidationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Validation of a TrainJob against its runtime's JobSet template, in upstream's order: initializers
 * ({@link InitializerValidation}), then on update the runtime patches' immutability
 * ({@link RuntimePatchImmutability}), then the patches' content ({@link RuntimePatchValidation}).
 */
final class JobSetValidation {

  private JobSetValidation() {
  }

  static ValidationResult validate(ValidationContext context) {
    TrainJob trainJob = context.trainJob();
    List<FieldError> errors = new ArrayList<>(InitializerValidation.validate(trainJob, context.info().template()));
    context.oldTrainJob()
        .ifPresent(old -> errors.addAll(RuntimePatchImmutability.validate(old, trainJob, context.cluster())));
    errors.addAll(RuntimePatchValidation.validate(trainJob, runtimeTemplate(context)));
    return ValidationResult.of(errors);
  }

  private static JobSetSpec runtimeTemplate(ValidationContext context) {
    return Optional.ofNullable(context.info().runtime().spec().getTemplate())
        .map(JobSetTemplateSpec::getSpec)
        .orElse(null);
  }
}
