package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Desired state of a {@link TrainJob}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"runtimeRef", "initializer", "trainer", "runtimePatches", "suspend", "activeDeadlineSeconds",
    "ttlSecondsAfterFinished", "managedBy"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "runtimePatches": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["manager"]
            }
          }
        }""")
public class TrainJobSpec {

  @JsonProperty("runtimeRef")
  @JsonPropertyDescription("Reference to the TrainingRuntime or ClusterTrainingRuntime to run.")
  @Required
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private RuntimeRef runtimeRef;

  @JsonProperty("initializer")
  @JsonPropertyDescription("Dataset and model initialization.")
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private Initializer initializer;

  @JsonProperty("trainer")
  @JsonPropertyDescription("Overrides for the trainer step.")
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private Trainer trainer;

  @JsonProperty("runtimePatches")
  @JsonPropertyDescription("Patches to the referenced runtime template, keyed by the manager that owns each entry.")
  @Size(max = 16)
  private List<RuntimePatch> runtimePatches;

  @JsonProperty("suspend")
  @JsonPropertyDescription("Whether the TrainJob and its child objects are suspended.")
  @Default("false")
  private Boolean suspend;

  @JsonProperty("activeDeadlineSeconds")
  @JsonPropertyDescription("Seconds the TrainJob may stay active (counted from its start or last resume) before it is "
      + "failed with reason DeadlineExceeded.")
  @Min(1)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private Long activeDeadlineSeconds;

  @JsonProperty("ttlSecondsAfterFinished")
  @JsonPropertyDescription("Seconds the TrainJob is kept after it finished (Complete or Failed); then it is deleted "
      + "with its child objects. 0 deletes it as soon as it finished. Overrides the runtime's "
      + "spec.runPolicy.ttlSecondsAfterFinished; unset in both, the TrainJob is kept. Mutable, as a Job's.")
  @Min(0)
  private Integer ttlSecondsAfterFinished;

  @JsonProperty("managedBy")
  @JsonPropertyDescription("Controller that reconciles this TrainJob: trainer.kubeflow.org/trainjob-controller or "
      + "kueue.x-k8s.io/multikueue.")
  @Default(TrainerConstants.DEFAULT_MANAGED_BY)
  @Size(max = 253)
  @ValidationRule(value = "self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue']",
      message = "ManagedBy must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue if set")
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private String managedBy;

  public RuntimeRef getRuntimeRef() {
    return runtimeRef;
  }

  public void setRuntimeRef(RuntimeRef runtimeRef) {
    this.runtimeRef = runtimeRef;
  }

  public TrainJobSpec withRuntimeRef(RuntimeRef runtimeRef) {
    this.runtimeRef = runtimeRef;
    return this;
  }

  public Initializer getInitializer() {
    return initializer;
  }

  public void setInitializer(Initializer initializer) {
    this.initializer = initializer;
  }

  public TrainJobSpec withInitializer(Initializer initializer) {
    this.initializer = initializer;
    return this;
  }

  public Trainer getTrainer() {
    return trainer;
  }

  public void setTrainer(Trainer trainer) {
    this.trainer = trainer;
  }

  public TrainJobSpec withTrainer(Trainer trainer) {
    this.trainer = trainer;
    return this;
  }

  public List<RuntimePatch> getRuntimePatches() {
    return runtimePatches;
  }

  public void setRuntimePatches(List<RuntimePatch> runtimePatches) {
    this.runtimePatches = runtimePatches;
  }

  public TrainJobSpec withRuntimePatches(List<RuntimePatch> runtimePatches) {
    this.runtimePatches = runtimePatches;
    return this;
  }

  public Boolean getSuspend() {
    return suspend;
  }

  public void setSuspend(Boolean suspend) {
    this.suspend = suspend;
  }

  public TrainJobSpec withSuspend(Boolean suspend) {
    this.suspend = suspend;
    return this;
  }

  public Long getActiveDeadlineSeconds() {
    return activeDeadlineSeconds;
  }

  public void setActiveDeadlineSeconds(Long activeDeadlineSeconds) {
    this.activeDeadlineSeconds = activeDeadlineSeconds;
  }

  public TrainJobSpec withActiveDeadlineSeconds(Long activeDeadlineSeconds) {
    this.activeDeadlineSeconds = activeDeadlineSeconds;
    return this;
  }

  public Integer getTtlSecondsAfterFinished() {
    return ttlSecondsAfterFinished;
  }

  public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
  }

  public TrainJobSpec withTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
    return this;
  }

  public String getManagedBy() {
    return managedBy;
  }

  public void setManagedBy(String managedBy) {
    this.managedBy = managedBy;
  }

  public TrainJobSpec withManagedBy(String managedBy) {
    this.managedBy = managedBy;
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
    TrainJobSpec that = (TrainJobSpec) o;
    return Objects.equals(runtimeRef, that.runtimeRef)
        && Objects.equals(initializer, that.initializer)
        && Objects.equals(trainer, that.trainer)
        && Objects.equals(runtimePatches, that.runtimePatches)
        && Objects.equals(suspend, that.suspend)
        && Objects.equals(activeDeadlineSeconds, that.activeDeadlineSeconds)
        && Objects.equals(ttlSecondsAfterFinished, that.ttlSecondsAfterFinished)
        && Objects.equals(managedBy, that.managedBy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(runtimeRef, initializer, trainer, runtimePatches, suspend, activeDeadlineSeconds,
        ttlSecondsAfterFinished, managedBy);
  }

  @Override
  public String toString() {
    return "TrainJobSpec{runtimeRef=" + runtimeRef
        + ", initializer=" + initializer
        + ", trainer=" + trainer
        + ", runtimePatches=" + runtimePatches
        + ", suspend=" + suspend
        + ", activeDeadlineSeconds=" + activeDeadlineSeconds
        + ", ttlSecondsAfterFinished=" + ttlSecondsAfterFinished
        + ", managedBy=" + managedBy
        + "}";
  }
}
