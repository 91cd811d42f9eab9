package io.kftrainer.operator.controller;

/**
 * A child of a TrainJob could not be applied; the message names the child and the cause
 * ({@link ApplyFailureMessages}), the cause is the client's exception.
 */
final class ChildApplyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ChildApplyException(String message, Throwable cause) {
    super(message, cause);
  }
}
