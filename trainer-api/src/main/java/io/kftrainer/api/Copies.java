package io.kftrainer.api;

import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.Coordinator;
import io.kftrainer.api.jobset.v1alpha2.DependsOn;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.Network;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.jobset.v1alpha2.StartupPolicy;
import io.kftrainer.api.jobset.v1alpha2.SuccessPolicy;
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
    copy.setNetwork(network(spec.getNetwork()));
    copy.setSuccessPolicy(successPolicy(spec.getSuccessPolicy()));
    copy.setFailurePolicy(deepCopy(spec.getFailurePolicy()));
    copy.setStartupPolicy(startupPolicy(spec.getStartupPolicy()));
    copy.setSuspend(spec.getSuspend());
    copy.setCoordinator(coordinator(spec.getCoordinator()));
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
    copy.setDependsOn(job.getDependsOn() == null ? null
        : job.getDependsOn().stream().map(Copies::dependsOn).collect(Collectors.toList()));
    return copy;
  }

  // The small parts every runtime has are copied field by field: a JSON round trip per part would cost more than
  // the rest of the copy.

  private static Network network(Network network) {
    if (network == null) {
      return null;
    }
    Network copy = new Network();
    copy.setEnableDNSHostnames(network.getEnableDNSHostnames());
    copy.setSubdomain(network.getSubdomain());
    copy.setPublishNotReadyAddresses(network.getPublishNotReadyAddresses());
    return copy;
  }

  private static SuccessPolicy successPolicy(SuccessPolicy policy) {
    if (policy == null) {
      return null;
    }
    SuccessPolicy copy = new SuccessPolicy();
    copy.setOperator(policy.getOperator());
    copy.setTargetReplicatedJobs(policy.getTargetReplicatedJobs() == null ? null
        : new ArrayList<>(policy.getTargetReplicatedJobs()));
    return copy;
  }

  private static StartupPolicy startupPolicy(StartupPolicy policy) {
    if (policy == null) {
      return null;
    }
    StartupPolicy copy = new StartupPolicy();
    copy.setStartupPolicyOrder(policy.getStartupPolicyOrder());
    return copy;
  }

  private static Coordinator coordinator(Coordinator coordinator) {
    if (coordinator == null) {
      return null;
    }
    Coordinator copy = new Coordinator();
    copy.setReplicatedJob(coordinator.getReplicatedJob());
    copy.setJobIndex(coordinator.getJobIndex());
    copy.setPodIndex(coordinator.getPodIndex());
    return copy;
  }

  private static DependsOn dependsOn(DependsOn dependsOn) {
    DependsOn copy = new DependsOn();
    copy.setName(dependsOn.getName());
    copy.setStatus(dependsOn.getStatus());
    return copy;
  }

  /** A list of deep copies: a list itself would lose its element type in the JSON round trip. */
  private static <T> List<T> eachCopied(List<T> items) {
    return items == null ? null : items.stream().map(Copies::deepCopy).collect(Collectors.toList());
  }
}
