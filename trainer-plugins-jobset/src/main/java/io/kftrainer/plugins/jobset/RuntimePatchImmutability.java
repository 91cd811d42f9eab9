package io.kftrainer.plugins.jobset;

import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJobStatus;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.spi.ObjectLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * On update, {@code spec.runtimePatches} may change only while the TrainJob is suspended before or after the
 * update, so that a controller such as Kueue can change the patches and {@code spec.suspend} in one request. Even
 * then the change is refused while a job of the observed JobSet still has active pods, whose templates the change
 * would no longer describe. Both are Forbidden on {@code spec.runtimePatches}, with upstream's messages.
 */
final class RuntimePatchImmutability {

  static final String NOT_SUSPENDED =
      "RuntimePatches can only be modified when the TrainJob is suspended before or after the update";
  static final String JOB_ACTIVE =
      "RuntimePatches cannot be modified when the JobSet's ReplicatedJob %s is still active";

  private RuntimePatchImmutability() {
  }

  static List<FieldError> validate(TrainJob oldTrainJob, TrainJob trainJob, ObjectLookup cluster) {
    if (Objects.equals(patches(oldTrainJob), patches(trainJob))) {
      return List.of();
    }
    if (!isSuspended(oldTrainJob) && !isSuspended(trainJob)) {
      return List.of(FieldError.forbidden(RuntimePatchValidation.RUNTIME_PATCHES, NOT_SUSPENDED));
    }
    Optional<JobSet> jobSet = cluster.get(JobSet.class, trainJob.getMetadata().getNamespace(),
        trainJob.getMetadata().getName());
    List<FieldError> errors = new ArrayList<>();
    for (ReplicatedJobStatus job : replicatedJobsStatus(jobSet)) {
      if (job.getActive() != null && job.getActive() > 0) {
        errors.add(FieldError.forbidden(RuntimePatchValidation.RUNTIME_PATCHES, JOB_ACTIVE.formatted(job.getName())));
      }
    }
    return errors;
  }

  /** The patches, an absent list being equal to an empty one (as Kubernetes' semantic equality has it). */
  private static List<RuntimePatch> patches(TrainJob trainJob) {
    return trainJob.getSpec().getRuntimePatches() == null ? List.of() : trainJob.getSpec().getRuntimePatches();
  }

  private static boolean isSuspended(TrainJob trainJob) {
    return Boolean.TRUE.equals(trainJob.getSpec().getSuspend());
  }

  private static List<ReplicatedJobStatus> replicatedJobsStatus(Optional<JobSet> jobSet) {
    return jobSet.map(JobSet::getStatus)
        .map(status -> status.getReplicatedJobsStatus())
        .orElse(List.of());
  }
}
