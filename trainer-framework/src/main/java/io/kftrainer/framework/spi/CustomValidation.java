package io.kftrainer.framework.spi;

import io.kftrainer.framework.model.ValidationResult;

/**
 * Pre-execution phase: validates a TrainJob on create, or an update old → new, against its resolved runtime.
 * Called by the admission webhook and by {@code render}.
 *
 * <p>Returns every problem found as field errors with paths ({@code spec.trainer.env[0].name}) plus warnings;
 * it never throws for bad input. The runner aggregates the results of all plugins.
 */
public interface CustomValidation extends Plugin {

  ValidationResult validate(ValidationContext context);
}
