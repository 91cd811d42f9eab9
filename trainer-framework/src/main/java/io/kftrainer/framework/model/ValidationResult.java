package io.kftrainer.framework.model;

import java.util.ArrayList;
import java.util.List;

/** The field errors and warnings of a validation. Empty errors means valid. */
public record ValidationResult(List<FieldError> errors, List<String> warnings) {

  private static final ValidationResult OK = new ValidationResult(List.of(), List.of());

  public ValidationResult {
    errors = List.copyOf(errors);
    warnings = List.copyOf(warnings);
  }

  public static ValidationResult ok() {
    return OK;
  }

  public static ValidationResult of(List<FieldError> errors) {
    return new ValidationResult(errors, List.of());
  }

  public static ValidationResult of(FieldError... errors) {
    return new ValidationResult(List.of(errors), List.of());
  }

  public static ValidationResult warning(String warning) {
    return new ValidationResult(List.of(), List.of(warning));
  }

  public boolean isValid() {
    return errors.isEmpty();
  }

  /** Both results' errors and warnings, this one's first. */
  public ValidationResult and(ValidationResult other) {
    if (other.errors.isEmpty() && other.warnings.isEmpty()) {
      return this;
    }
    List<FieldError> allErrors = new ArrayList<>(errors);
    allErrors.addAll(other.errors);
    List<String> allWarnings = new ArrayList<>(warnings);
    allWarnings.addAll(other.warnings);
    return new ValidationResult(allErrors, allWarnings);
  }
}
