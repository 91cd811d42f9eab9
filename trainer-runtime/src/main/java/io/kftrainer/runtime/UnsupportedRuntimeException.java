package io.kftrainer.runtime;

import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;

/**
 * A TrainJob refers to a kind of runtime this operator does not know. The message is upstream's,
 * {@code unsupported runtime: <kind>.<group>}, which also becomes the message of the
 * {@code Failed/TrainingRuntimeNotSupported} condition.
 */
public final class UnsupportedRuntimeException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String groupKind;

  public UnsupportedRuntimeException(String groupKind) {
    super("unsupported runtime: " + groupKind);
    this.groupKind = groupKind;
  }

  /** {@code <kind>.<group>} as the TrainJob wrote it, e.g. {@code MyRuntime.example.com}. */
  public String groupKind() {
    return groupKind;
  }

  /** The same problem as a field error of the TrainJob, for validation results. */
  public FieldError fieldError() {
    return FieldError.notSupported(FieldPath.of("spec", "runtimeRef"), null, getMessage());
  }
}
