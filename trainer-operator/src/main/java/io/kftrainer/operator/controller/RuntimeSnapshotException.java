package io.kftrainer.operator.controller;

/**
 * A TrainJob's runtime snapshot cannot be used: the ConfigMap of its name belongs to something else, or records
 * another runtime than the TrainJob refers to. The TrainJob's build fails (and is retried) until someone removes
 * the ConfigMap; the operator never overwrites it.
 */
public final class RuntimeSnapshotException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public RuntimeSnapshotException(String message) {
    super(message);
  }
}
