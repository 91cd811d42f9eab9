package io.kftrainer.optimization;

/** An early-stopping annotation that cannot be used, its message naming the annotation and the setting at fault. */
public final class InvalidEarlyStoppingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public InvalidEarlyStoppingException(String message) {
    super(message);
  }
}
