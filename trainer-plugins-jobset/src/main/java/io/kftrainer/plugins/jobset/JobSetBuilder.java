package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.kftrainer.api.Copies;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the desired JobSet of a TrainJob from the final runtime info, in upstream's order:
 *
 * <ol>
 *   <li>a copy of the runtime template ({@link RuntimeInfo#template()}, runtime patches and resources per node
 *       already merged, parallelism and completions synced by the plugin's pre-build step);</li>
 *   <li>the TrainJob's image, command and args on the trainer's {@code node} container ({@link TrainerJob});</li>
 *   <li>the pod sets: volumes, containers' env, ports and mounts, init containers ({@link PodSetMerge});</li>
 *   <li>the initializers' storage URI, env and secret ({@link InitializerJobs}) and the trainer's env;</li>
 *   <li>the scheduler's pod labels and annotations on every pod template, and {@code spec.suspend}.</li>
 * </ol>
 *
 * <p>Name, labels and annotations come from the TrainJob and the info; the runner adds the namespace, the owner
 * reference and the TrainJob label. The info is left unchanged.
 */
final class JobSetBuilder {

  private JobSetBuilder() {
  }

  static JobSet build(RuntimeInfo info, TrainJob trainJob) {
    JobSetSpec spec = copy(info.template());
    TrainerJob.override(spec, trainJob);
    PodSetMerge.merge(spec, info);
    InitializerJobs.apply(spec, trainJob);
    TrainerJob.upsertEnv(spec, info, trainJob);
    addSchedulerMetadata(spec, info);
    withoutTypeMeta(spec);
    spec.setSuspend(trainJob.getSpec().getSuspend());

    JobSet jobSet = new JobSet();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(trainJob.getMetadata().getName());
    metadata.setLabels(info.labels().isEmpty() ? null : new LinkedHashMap<>(info.labels()));
    metadata.setAnnotations(info.annotations().isEmpty() ? null : new LinkedHashMap<>(info.annotations()));
    jobSet.setMetadata(metadata);
    jobSet.setSpec(spec);
    jobSet.setStatus(null);
    return jobSet;
  }

  private static void addSchedulerMetadata(JobSetSpec spec, RuntimeInfo info) {
    if (info.schedulerPodLabels().isEmpty() && info.schedulerPodAnnotations().isEmpty()) {
      return;
    }
    for (ReplicatedJob job : ReplicatedJobs.of(spec)) {
      PodTemplateSpec pod = ReplicatedJobs.podTemplateOf(job);
      if (pod.getMetadata() == null) {
        pod.setMetadata(new ObjectMeta());
      }
      pod.getMetadata().setLabels(merged(pod.getMetadata().getLabels(), info.schedulerPodLabels()));
      pod.getMetadata().setAnnotations(merged(pod.getMetadata().getAnnotations(), info.schedulerPodAnnotations()));
    }
  }

  /**
   * The claim templates without apiVersion and kind, as upstream writes them (Go's empty TypeMeta is omitted):
   * fabric8's claim has both by default, even where the runtime wrote neither.
   */
  private static void withoutTypeMeta(JobSetSpec spec) {
    if (spec.getVolumeClaimPolicies() == null) {
      return;
    }
    spec.getVolumeClaimPolicies().stream().filter(policy -> policy.getTemplates() != null)
        .flatMap(policy -> policy.getTemplates().stream()).forEach(claim -> {
          claim.setApiVersion(null);
          claim.setKind(null);
        });
  }

  private static Map<String, String> merged(Map<String, String> base, Map<String, String> additions) {
    if (additions.isEmpty()) {
      return base;
    }
    Map<String, String> merged = base == null ? new LinkedHashMap<>() : new LinkedHashMap<>(base);
    merged.putAll(additions);
    return merged;
  }

  private static JobSetSpec copy(JobSetSpec spec) {
    return spec == null ? new JobSetSpec() : Copies.jobSetSpec(spec);
  }
}
