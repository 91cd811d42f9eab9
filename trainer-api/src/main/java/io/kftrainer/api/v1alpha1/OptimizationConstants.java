package io.kftrainer.api.v1alpha1;

/**
 * Wire-level names of the OptimizationJob API: kind, the values of its enums, the condition types and reasons of
 * the OptimizationJob and the states and reasons of its trials (KEP-3562, KEP-3744), and the label, annotation and
 * environment variable names a trial TrainJob carries.
 *
 * <p>Upstream's names where upstream has them: the conditions {@code Complete} (reason {@code MaxTrialsReached}) and
 * {@code Failed}, the trial reasons {@code TrainJobFailed}, {@code TrainJobDeleted} and {@code MetricsUnavailable},
 * the environment variables {@code KUBEFLOW_TRAINER_OPT_<NAME>}, the label and annotation of upstream's controller
 * under review (kubeflow/trainer#3878). The others are ours and say so.
 */
public final class OptimizationConstants {

  public static final String OPTIMIZATION_JOB_KIND = "OptimizationJob";
  public static final String OPTIMIZATION_JOB_PLURAL = "optimizationjobs";

  // ---- spec enums
  public static final String DIRECTION_MINIMIZE = "Minimize";
  public static final String DIRECTION_MAXIMIZE = "Maximize";
  public static final String TYPE_FLOAT = "Float";
  public static final String TYPE_INT = "Int";

  /** The bounds of uniform and log-uniform spaces: decimal numbers as strings, as upstream's {@code Double}. */
  public static final String DECIMAL_PATTERN = "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$";

  /**
   * The bounds of an {@code Int} space must be whole numbers within 2^53 (rule and message of upstream's pull
   * request kubeflow/trainer#3920): otherwise no integer may lie between them, and beyond 2^53 doubles skip
   * integers.
   */
  public static final String RULE_WHOLE_INT_BOUNDS = "self.type != 'Int' || ("
      + "double(self.min) >= -9007199254740992.0 && double(self.min) <= 9007199254740992.0"
      + " && double(self.max) >= -9007199254740992.0 && double(self.max) <= 9007199254740992.0"
      + " && double(self.min) == double(int(double(self.min)))"
      + " && double(self.max) == double(int(double(self.max))))";
  public static final String MESSAGE_WHOLE_INT_BOUNDS =
      "min and max must be whole numbers with magnitude at most 2^53 when type is Int";

  // ---- status.conditions
  /** Condition type while trials run (upstream's controller under review, kubeflow/trainer#3828). */
  public static final String CONDITION_RUNNING = "Running";
  public static final String CONDITION_COMPLETE = "Complete";
  public static final String CONDITION_FAILED = "Failed";

  /** Reason of {@code Running=True}. */
  public static final String REASON_TRIALS_RUNNING = "TrialsRunning";
  /** Reason of {@code Complete}: every one of {@code numTrials} trials ended, at least one succeeded. */
  public static final String REASON_MAX_TRIALS_REACHED = "MaxTrialsReached";
  /** Reason of {@code Complete} (ours): a grid search tried every combination before {@code numTrials}. */
  public static final String REASON_SEARCH_SPACE_EXHAUSTED = "SearchSpaceExhausted";
  /** Reason of {@code Failed}: every trial ended and none succeeded. */
  public static final String REASON_ALL_TRIALS_FAILED = "AllTrialsFailed";
  /** Reason of {@code Failed} (KEP-3562): the API server refused the trial TrainJob built from the template. */
  public static final String REASON_TRAINJOBS_CREATION_FAILED = "TrainJobsCreationFailed";
  /** Reason of {@code Failed} (ours): a parameter's search space cannot be used (a CRD without our rules). */
  public static final String REASON_INVALID_SEARCH_SPACE = "InvalidSearchSpace";
  /** Reason of {@code Failed} (ours): the early-stopping annotation cannot be used. */
  public static final String REASON_INVALID_EARLY_STOPPING = "InvalidEarlyStopping";

  // ---- status.trials[].state
  public static final String TRIAL_RUNNING = "Running";
  public static final String TRIAL_SUCCEEDED = "Succeeded";
  public static final String TRIAL_FAILED = "Failed";
  /** Trial state (ours, KEP-3744 has the three others): stopped by the early-stopping rule. */
  public static final String TRIAL_EARLY_STOPPED = "EarlyStopped";

  // ---- status.trials[].reason
  public static final String TRIAL_REASON_TRAINJOB_FAILED = "TrainJobFailed";
  public static final String TRIAL_REASON_TRAINJOB_DELETED = "TrainJobDeleted";
  public static final String TRIAL_REASON_METRICS_UNAVAILABLE = "MetricsUnavailable";
  /** Trial reason (ours): the API server refused the trial's TrainJob. */
  public static final String TRIAL_REASON_TRAINJOB_CREATION_FAILED = "TrainJobCreationFailed";
  /** Trial reason (ours) of {@link #TRIAL_EARLY_STOPPED}: worse than the median of the completed trials. */
  public static final String TRIAL_REASON_MEDIAN_STOP = "MedianStop";

  // ---- what a trial TrainJob carries
  /** Prefix of the environment variables holding a trial's parameter values: {@code KUBEFLOW_TRAINER_OPT_LR}. */
  public static final String ENV_PARAMETER_PREFIX = "KUBEFLOW_TRAINER_OPT_";
  /** Label on trial TrainJobs naming their OptimizationJob (upstream's controller under review, #3878). */
  public static final String LABEL_OPTIMIZATION_JOB = "trainer.kubeflow.org/optimization-job";
  /** Annotation on trial TrainJobs holding their parameter values as a JSON list of {@code {name, value}}. */
  public static final String ANNOTATION_PARAMETERS = "trainer.kubeflow.org/optimization-parameters";

  // ---- ours
  /**
   * Annotation on an OptimizationJob that turns on early stopping (ours; an annotation so that the same manifest
   * still applies to upstream's schema, see docs/hyperparameter-optimization.md), e.g.
   * {@code {"medianStop": {"minTrialsRequired": 3, "startProgress": 50}}}.
   */
  public static final String ANNOTATION_EARLY_STOPPING = "kftrainer.io/early-stopping";

  private OptimizationConstants() {
  }
}
