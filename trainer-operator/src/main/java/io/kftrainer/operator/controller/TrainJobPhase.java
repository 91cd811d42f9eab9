package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.Conditions;
import java.util.List;

/**
 * Where a TrainJob is in its life (for the metrics), from its status: {@code Complete} or {@code Failed} (a true
 * condition), {@code Suspended}, {@code Running} (a child Job of it is ready: all its Pods ready or done), else
 * {@code Pending} (created, its Pods not running yet).
 */
public enum TrainJobPhase {
  PENDING("Pending"), RUNNING("Running"), SUSPENDED("Suspended"), COMPLETE("Complete"), FAILED("Failed");

  private final String label;

  TrainJobPhase(String label) {
    this.label = label;
  }

  /** The value of the {@code state} label. */
  public String label() {
    return label;
  }

  public static TrainJobPhase of(TrainJobStatus status) {
    if (status == null) {
      return PENDING;
    }
    List<Condition> conditions = status.getConditions();
    if (Conditions.isTrue(conditions, TrainerConstants.CONDITION_COMPLETE)) {
      return COMPLETE;
    }
    if (Conditions.isTrue(conditions, TrainerConstants.CONDITION_FAILED)) {
      return FAILED;
    }
    if (Conditions.isTrue(conditions, TrainerConstants.CONDITION_SUSPENDED)) {
      return SUSPENDED;
    }
    List<JobStatus> jobs = status.getJobsStatus();
    boolean ready = jobs != null && jobs.stream().anyMatch(job -> job.getReady() != null && job.getReady() > 0);
    return ready ? RUNNING : PENDING;
  }
}
