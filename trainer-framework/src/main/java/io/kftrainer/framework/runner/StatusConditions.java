package io.kftrainer.framework.runner;

/**
 * Which condition types the post-execution phase writes on a TrainJob.
 *
 * <p>Clients read the condition list as a whole: the Kubeflow SDK reports a TrainJob as {@code Running} only while
 * {@code status.conditions} is empty, so any condition type upstream does not write changes what they show.
 */
public enum StatusConditions {

  /** Upstream v2.3's set: {@code Suspended}, {@code Complete}, {@code Failed}, nothing else. */
  UPSTREAM,

  /**
   * Upstream's set plus the design document's (KEP-2170) {@code Created} condition ({@code True} once the children exist, {@code False}
   * while building them fails). The SDK then shows {@code Created} until the job ends, never {@code Running}.
   */
  WITH_CREATED
}
