package io.kftrainer.optimization;

/**
 * A search space the controller cannot use, with the path of the field at fault. The CRD's rules keep these out;
 * an OptimizationJob stored under a CRD without them (upstream's, for instance) fails with this message instead.
 */
public final class InvalidSearchSpaceException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public InvalidSearchSpaceException(String message) {
    super(message);
  }
}
