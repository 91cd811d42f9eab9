package com.example.trainer.team;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import java.util.List;
import java.util.Optional;

/** Finds the pod spec of a replicated job in a JobSet spec, where every level of the path may be missing. */
final class TemplatePods {

  private TemplatePods() {
  }

  /** The pod spec of the replicated job {@code jobName}, as the live object to change; empty if there is none. */
  static Optional<PodSpec> podSpec(JobSetSpec jobSet, String jobName) {
    List<ReplicatedJob> jobs = jobSet == null ? null : jobSet.getReplicatedJobs();
    if (jobs == null) {
      return Optional.empty();
    }
    return jobs.stream()
        .filter(job -> jobName.equals(job.getName()))
        .findFirst()
        .map(ReplicatedJob::getTemplate)
        .map(JobTemplateSpec::getSpec)
        .map(JobSpec::getTemplate)
        .map(PodTemplateSpec::getSpec);
  }
}
