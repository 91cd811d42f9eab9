package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.JobSetConstants;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJobStatus;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.TerminalStatus;
import java.util.List;
import java.util.Optional;

/**
 * The TrainJob's terminal condition and jobs status, read from its JobSet.
 *
 * <p>A true JobSet {@code Completed} condition becomes a true TrainJob {@code Complete} condition, a true
 * {@code Failed} one a true {@code Failed} one, each with the JobSet's reason, message and transition time (JobSet
 * writes {@code AllJobsCompleted} / "jobset completed successfully" and {@code FailedJobs} / "jobset failed due to
 * one or more job failures", among others). Should both be true, {@code Failed} is reported: upstream sets both,
 * and the failure is the one its {@code State} column shows. Each replicated job's counters become a
 * {@link JobStatus}.
 */
final class JobSetTerminalStatus {

  private JobSetTerminalStatus() {
  }

  static TerminalStatus of(JobSet jobSet) {
    List<Condition> conditions = jobSet.getStatus() == null || jobSet.getStatus().getConditions() == null
        ? List.of() : jobSet.getStatus().getConditions();
    Optional<Condition> terminal = trueCondition(conditions, JobSetConstants.CONDITION_FAILED)
        .map(c -> renamed(c, TrainerConstants.CONDITION_FAILED))
        .or(() -> trueCondition(conditions, JobSetConstants.CONDITION_COMPLETED)
            .map(c -> renamed(c, TrainerConstants.CONDITION_COMPLETE)));
    List<ReplicatedJobStatus> jobs = jobSet.getStatus() == null || jobSet.getStatus().getReplicatedJobsStatus() == null
        ? List.of() : jobSet.getStatus().getReplicatedJobsStatus();
    return TerminalStatus.builder()
        .terminalCondition(terminal)
        .jobsStatus(jobs.stream().map(JobSetTerminalStatus::jobStatus).toList())
        .build();
  }

  private static Optional<Condition> trueCondition(List<Condition> conditions, String type) {
    return conditions.stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst();
  }

  private static Condition renamed(Condition source, String type) {
    Condition condition = new Condition();
    condition.setType(type);
    condition.setStatus(source.getStatus());
    condition.setReason(source.getReason());
    condition.setMessage(source.getMessage());
    condition.setLastTransitionTime(source.getLastTransitionTime());
    return condition;
  }

  private static JobStatus jobStatus(ReplicatedJobStatus source) {
    JobStatus status = new JobStatus();
    status.setName(source.getName());
    status.setReady(source.getReady());
    status.setSucceeded(source.getSucceeded());
    status.setFailed(source.getFailed());
    status.setActive(source.getActive());
    status.setSuspended(source.getSuspended());
    return status;
  }
}
