package io.kftrainer.api;

import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Deep copies of model objects: any object through a JSON round trip with fabric8's serialization, and the JobSet
 * spec, which every build copies, through fabric8's builders (about an order of magnitude cheaper than JSON).
 */
public final class Copies {

  // Stateless once built; building a KubernetesSerialization scans the classpath, so do it once.
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Copies() {
  }

  /**
   * Returns a deep copy of {@code value}, of the same class, or {@code null} for {@code null}.
   */
  public static <T> T deepCopy(T value) {
    if (value == null) {
      return null;
    }
    return SERIALIZATION.clone(value);
  }

  /**
   * A deep copy of a JobSet spec, equal to {@link #deepCopy} of it. The replicated jobs' templates, the bulk of
   * a spec, are copied with fabric8's builders; the small policies through JSON.
   */
  public static JobSetSpec jobSetSpec(JobSetSpec spec) {
    if (spec == null) {
      return null;
    }
    JobSetSpec copy = new JobSetSpec();
    if (spec.getReplicatedJobs() != null) {
      List<ReplicatedJob> jobs = new ArrayList<>(spec.getReplicatedJobs().size());
      spec.getReplicatedJobs().forEach(job -> jobs.add(replicatedJob(job)));
      copy.setReplicatedJobs(jobs);
    }
    copy.setNetwork(deepCopy(spec.getNetwork()));
    copy.setSuccessPolicy(deepCopy(spec.getSuccessPolicy()));
    copy.setFailurePolicy(deepCopy(spec.getFailurePolicy()));
    copy.setStartupPolicy(deepCopy(spec.getStartupPolicy()));
    copy.setSuspend(spec.getSuspend());
    copy.setCoordinator(deepCopy(spec.getCoordinator()));
    copy.setManagedBy(spec.getManagedBy());
    copy.setTtlSecondsAfterFinished(spec.getTtlSecondsAfterFinished());
    copy.setVolumeClaimPolicies(eachCopied(spec.getVolumeClaimPolicies()));
    return copy;
  }

  private static ReplicatedJob replicatedJob(ReplicatedJob job) {
    ReplicatedJob copy = new ReplicatedJob();
    copy.setName(job.getName());
    copy.setGroupName(job.getGroupName());
    copy.setReplicas(job.getReplicas());
    copy.setTemplate(job.getTemplate() == null ? null : new JobTemplateSpecBuilder(job.getTemplate()).build());
    copy.setDependsOn(eachCopied(job.getDependsOn()));
    return copy;
  }

  /** A list of deep copies: a list itself would lose its element type in the JSON round trip. */
  private static <T> List<T> eachCopied(List<T> items) {
    return items == null ? null : items.stream().map(Copies::deepCopy).collect(Collectors.toList());
  }
}
