package io.kftrainer.framework.runner;

/**
 * What happened to the TrainJob's children in this reconcile, as the post-execution phase needs to know it.
 */
public sealed interface BuildOutcome {

  /** The children were built and applied (or were already up to date). */
  record Created() implements BuildOutcome {
  }

  /** Building or applying failed; the reconcile will be retried. Not terminal. */
  record BuildFailed(String reason, String message) implements BuildOutcome {
  }

  /** The runtime is missing or unsupported: the TrainJob fails (terminal). */
  record RuntimeUnavailable(String reason, String message) implements BuildOutcome {
  }

  /** The TrainJob has finished: nothing was built. */
  record Finished() implements BuildOutcome {
  }

  static BuildOutcome created() {
    return new Created();
  }

  static BuildOutcome buildFailed(String reason, String message) {
    return new BuildFailed(reason, message);
  }

  static BuildOutcome runtimeUnavailable(String reason, String message) {
    return new RuntimeUnavailable(reason, message);
  }

  static BuildOutcome finished() {
    return new Finished();
  }
}
