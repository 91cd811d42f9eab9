package io.kftrainer.plugins.jobset;

import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.ValidationContext;

/** Validation of a TrainJob against its runtime's JobSet template. */
final class JobSetValidation {

  private JobSetValidation() {
  }

  static ValidationResult validate(ValidationContext context) {
    return ValidationResult.ok();
  }
}
