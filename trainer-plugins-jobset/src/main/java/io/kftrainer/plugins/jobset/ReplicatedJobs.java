package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.util.List;
import java.util.Optional;

/**
 * Null-safe access to the nested parts of a replicated job, for reading ({@code podSpec}) and for changing
 * ({@code jobSpecOf}, {@code podTemplateOf}: create the missing levels).
 */
final class ReplicatedJobs {

  private ReplicatedJobs() {
  }

  static List<ReplicatedJob> of(JobSetSpec spec) {
    return spec == null || spec.getReplicatedJobs() == null ? List.of() : spec.getReplicatedJobs();
  }

  /** The value of the ancestor label on the job template, if any. */
  static Optional<String> ancestor(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(JobTemplateSpec::getMetadata)
        .map(ObjectMeta::getLabels)
        .map(labels -> labels.get(TrainerConstants.LABEL_TRAINJOB_ANCESTOR));
  }

  static boolean hasAncestor(ReplicatedJob job, String ancestor) {
    return ancestor(job).filter(ancestor::equals).isPresent();
  }

  static Optional<PodSpec> podSpec(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(JobTemplateSpec::getSpec)
        .map(JobSpec::getTemplate)
        .map(PodTemplateSpec::getSpec);
  }

  /** The job's spec, created if missing. */
  static JobSpec jobSpecOf(ReplicatedJob job) {
    if (job.getTemplate() == null) {
      job.setTemplate(new JobTemplateSpec());
    }
    if (job.getTemplate().getSpec() == null) {
      job.getTemplate().setSpec(new JobSpec());
    }
    return job.getTemplate().getSpec();
  }

  /** The job's pod template and its spec, created if missing. */
  static PodTemplateSpec podTemplateOf(ReplicatedJob job) {
    JobSpec jobSpec = jobSpecOf(job);
    if (jobSpec.getTemplate() == null) {
      jobSpec.setTemplate(new PodTemplateSpec());
    }
    PodTemplateSpec template = jobSpec.getTemplate();
    if (template.getSpec() == null) {
      template.setSpec(new PodSpec());
    }
    return template;
  }
}
