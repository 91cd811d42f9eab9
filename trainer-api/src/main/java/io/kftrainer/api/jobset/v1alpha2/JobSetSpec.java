package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Desired state of a {@link JobSet} (JobSet v0.12.0).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"replicatedJobs", "network", "successPolicy", "failurePolicy", "startupPolicy", "suspend",
    "coordinator", "managedBy", "ttlSecondsAfterFinished", "volumeClaimPolicies"})
@ValidationRule(value = "!(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder == 'InOrder'"
    + " && self.replicatedJobs.exists(x, has(x.dependsOn)))",
    message = "StartupPolicy and DependsOn APIs are mutually exclusive")
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "replicatedJobs": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "volumeClaimPolicies": {
              "x-kubernetes-list-type": "atomic"
            }
          }
        }""")
public class JobSetSpec {

  @JsonProperty("replicatedJobs")
  @JsonPropertyDescription("The groups of Jobs that form the set, keyed by name.")
  private List<ReplicatedJob> replicatedJobs;

  @JsonProperty("network")
  @JsonPropertyDescription("Networking options of the JobSet.")
  @ValidationRule(value = "self == oldSelf", message = "Value is immutable")
  private Network network;

  @JsonProperty("successPolicy")
  @JsonPropertyDescription("When the JobSet is declared succeeded; by default when all Jobs complete.")
  @ValidationRule(value = "self == oldSelf", message = "Value is immutable")
  private SuccessPolicy successPolicy;

  @JsonProperty("failurePolicy")
  @JsonPropertyDescription("When the JobSet is declared failed or restarted; by default any failed Job fails it.")
  @ValidationRule(value = "self == oldSelf", message = "Value is immutable")
  private FailurePolicy failurePolicy;

  @JsonProperty("startupPolicy")
  @JsonPropertyDescription("Order in which the replicated jobs start. Deprecated in favour of dependsOn.")
  @ValidationRule(value = "self == oldSelf", message = "Value is immutable")
  private StartupPolicy startupPolicy;

  @JsonProperty("suspend")
  @JsonPropertyDescription("Suspends all child Jobs when true.")
  private Boolean suspend;

  @JsonProperty("coordinator")
  @JsonPropertyDescription("Pod whose stable network endpoint is published to all Jobs and Pods.")
  private Coordinator coordinator;

  @JsonProperty("managedBy")
  @JsonPropertyDescription("Controller that reconciles this JobSet; the built-in one is "
      + "jobset.sigs.k8s.io/jobset-controller.")
  private String managedBy;

  @JsonProperty("ttlSecondsAfterFinished")
  @JsonPropertyDescription("Seconds after completion or failure when the JobSet may be deleted.")
  @Min(0)
  private Integer ttlSecondsAfterFinished;

  @JsonProperty("volumeClaimPolicies")
  @JsonPropertyDescription("Shared persistent volume claims the Pods may reference.")
  @Size(max = 50)
  @ValidationRule(value = "self == oldSelf", message = "Value is immutable")
  private List<VolumeClaimPolicy> volumeClaimPolicies;

  public List<ReplicatedJob> getReplicatedJobs() {
    return replicatedJobs;
  }

  public void setReplicatedJobs(List<ReplicatedJob> replicatedJobs) {
    this.replicatedJobs = replicatedJobs;
  }

  public JobSetSpec withReplicatedJobs(List<ReplicatedJob> replicatedJobs) {
    this.replicatedJobs = replicatedJobs;
    return this;
  }

  public Network getNetwork() {
    return network;
  }

  public void setNetwork(Network network) {
    this.network = network;
  }

  public JobSetSpec withNetwork(Network network) {
    this.network = network;
    return this;
  }

  public SuccessPolicy getSuccessPolicy() {
    return successPolicy;
  }

  public void setSuccessPolicy(SuccessPolicy successPolicy) {
    this.successPolicy = successPolicy;
  }

  public JobSetSpec withSuccessPolicy(SuccessPolicy successPolicy) {
    this.successPolicy = successPolicy;
    return this;
  }

  public FailurePolicy getFailurePolicy() {
    return failurePolicy;
  }

  public void setFailurePolicy(FailurePolicy failurePolicy) {
    this.failurePolicy = failurePolicy;
  }

  public JobSetSpec withFailurePolicy(FailurePolicy failurePolicy) {
    this.failurePolicy = failurePolicy;
    return this;
  }

  public StartupPolicy getStartupPolicy() {
    return startupPolicy;
  }

  public void setStartupPolicy(StartupPolicy startupPolicy) {
    this.startupPolicy = startupPolicy;
  }

  public JobSetSpec withStartupPolicy(StartupPolicy startupPolicy) {
    this.startupPolicy = startupPolicy;
    return this;
  }

  public Boolean getSuspend() {
    return suspend;
  }

  public void setSuspend(Boolean suspend) {
    this.suspend = suspend;
  }

  public JobSetSpec withSuspend(Boolean suspend) {
    this.suspend = suspend;
    return this;
  }

  public Coordinator getCoordinator() {
    return coordinator;
  }

  public void setCoordinator(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  public JobSetSpec withCoordinator(Coordinator coordinator) {
    this.coordinator = coordinator;
    return this;
  }

  public String getManagedBy() {
    return managedBy;
  }

  public void setManagedBy(String managedBy) {
    this.managedBy = managedBy;
  }

  public JobSetSpec withManagedBy(String managedBy) {
    this.managedBy = managedBy;
    return this;
  }

  public Integer getTtlSecondsAfterFinished() {
    return ttlSecondsAfterFinished;
  }

  public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
  }

  public JobSetSpec withTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
    return this;
  }

  public List<VolumeClaimPolicy> getVolumeClaimPolicies() {
    return volumeClaimPolicies;
  }

  public void setVolumeClaimPolicies(List<VolumeClaimPolicy> volumeClaimPolicies) {
    this.volumeClaimPolicies = volumeClaimPolicies;
  }

  public JobSetSpec withVolumeClaimPolicies(List<VolumeClaimPolicy> volumeClaimPolicies) {
    this.volumeClaimPolicies = volumeClaimPolicies;
    return this;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    JobSetSpec that = (JobSetSpec) o;
    return Objects.equals(replicatedJobs, that.replicatedJobs)
        && Objects.equals(network, that.network)
        && Objects.equals(successPolicy, that.successPolicy)
        && Objects.equals(failurePolicy, that.failurePolicy)
        && Objects.equals(startupPolicy, that.startupPolicy)
        && Objects.equals(suspend, that.suspend)
        && Objects.equals(coordinator, that.coordinator)
        && Objects.equals(managedBy, that.managedBy)
        && Objects.equals(ttlSecondsAfterFinished, that.ttlSecondsAfterFinished)
        && Objects.equals(volumeClaimPolicies, that.volumeClaimPolicies);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicatedJobs, network, successPolicy, failurePolicy, startupPolicy, suspend, coordinator,
        managedBy, ttlSecondsAfterFinished, volumeClaimPolicies);
  }

  @Override
  public String toString() {
    return "JobSetSpec{replicatedJobs=" + replicatedJobs
        + ", network=" + network
        + ", successPolicy=" + successPolicy
        + ", failurePolicy=" + failurePolicy
        + ", startupPolicy=" + startupPolicy
        + ", suspend=" + suspend
        + ", coordinator=" + coordinator
        + ", managedBy=" + managedBy
        + ", ttlSecondsAfterFinished=" + ttlSecondsAfterFinished
        + ", volumeClaimPolicies=" + volumeClaimPolicies
        + "}";
  }
}
