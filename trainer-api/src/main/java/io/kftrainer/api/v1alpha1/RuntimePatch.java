package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * A patch to the TrainJob's runtime template, owned by one manager.
 *
 * <p>{@code time} is kept as the RFC 3339 string found on the wire so that it round-trips unchanged.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"manager", "time", "trainingRuntimeSpec"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "time": {
              "format": "date-time"
            }
          }
        }""")
public class RuntimePatch {

  @JsonProperty("manager")
  @JsonPropertyDescription("Owner of this patch entry (a user, a controller or a webhook), e.g. "
      + "kueue.x-k8s.io/manager.")
  @Required
  @Size(min = 1, max = 253)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private String manager;

  @JsonProperty("time")
  @JsonPropertyDescription("When this patch was last written (RFC 3339); informational only.")
  private String time;

  @JsonProperty("trainingRuntimeSpec")
  @JsonPropertyDescription("Patch for (Cluster)TrainingRuntime based jobs.")
  private TrainingRuntimeSpecPatch trainingRuntimeSpec;

  public String getManager() {
    return manager;
  }

  public void setManager(String manager) {
    this.manager = manager;
  }

  public RuntimePatch withManager(String manager) {
    this.manager = manager;
    return this;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }

  public RuntimePatch withTime(String time) {
    this.time = time;
    return this;
  }

  public TrainingRuntimeSpecPatch getTrainingRuntimeSpec() {
    return trainingRuntimeSpec;
  }

  public void setTrainingRuntimeSpec(TrainingRuntimeSpecPatch trainingRuntimeSpec) {
    this.trainingRuntimeSpec = trainingRuntimeSpec;
  }

  public RuntimePatch withTrainingRuntimeSpec(TrainingRuntimeSpecPatch trainingRuntimeSpec) {
    this.trainingRuntimeSpec = trainingRuntimeSpec;
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
    RuntimePatch that = (RuntimePatch) o;
    return Objects.equals(manager, that.manager)
        && Objects.equals(time, that.time)
        && Objects.equals(trainingRuntimeSpec, that.trainingRuntimeSpec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(manager, time, trainingRuntimeSpec);
  }

  @Override
  public String toString() {
    return "RuntimePatch{manager=" + manager + ", time=" + time + ", trainingRuntimeSpec=" + trainingRuntimeSpec + "}";
  }
}
