package io.kftrainer.optimization;

/**
 * A Kubernetes Event the operator records on the OptimizationJob about one trial: {@value #STARTED},
 * {@value #SUCCEEDED}, {@value #FAILED} (a Warning) or {@value #EARLY_STOPPED}.
 */
public record TrialEvent(boolean warning, String reason, String message) {

  public static final String STARTED = "TrialStarted";
  public static final String SUCCEEDED = "TrialSucceeded";
  public static final String FAILED = "TrialFailed";
  public static final String EARLY_STOPPED = "TrialEarlyStopped";
}
