package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.framework.model.RuntimeInfo;

/**
 * Writes each pod set's count into the job template of the replicated job of the same name, as both
 * {@code parallelism} and {@code completions}: every pod of an indexed job runs once, all at the same time.
 * Replicated jobs without a pod set keep their values.
 */
final class JobCounts {

  private JobCounts() {
  }

  static void sync(RuntimeInfo info) {
    for (ReplicatedJob job : ReplicatedJobs.of(info.template())) {
      info.podSet(job.getName()).ifPresent(ps -> {
        JobSpec spec = ReplicatedJobs.jobSpecOf(job);
        spec.setParallelism(ps.count());
        spec.setCompletions(ps.count());
      });
    }
  }
}
