package io.kftrainer.optimization;

/**
 * The API server refused a trial's TrainJob for good (not a transient error, which is retried).
 *
 * @param message what the API server said
 * @param templateRejected the TrainJob itself is invalid (400, 422): every trial built from the template would be
 *     refused too, so the OptimizationJob fails; otherwise (a name taken by a TrainJob it does not own) only the trial
 */
public record CreationFailure(String message, boolean templateRejected) {
}
