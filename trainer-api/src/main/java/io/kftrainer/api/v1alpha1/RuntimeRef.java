package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/**
 * Reference to a training runtime.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "apiGroup", "kind"})
public class RuntimeRef {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the runtime. A namespaced TrainingRuntime must live in the TrainJob namespace.")
  @Required
  @Size(min = 1, max = 253)
  private String name;

  @JsonProperty("apiGroup")
  @JsonPropertyDescription("API group of the runtime. Defaults to trainer.kubeflow.org.")
  @Default(TrainerConstants.GROUP)
  @Size(max = 253)
  private String apiGroup;

  @JsonProperty("kind")
  @JsonPropertyDescription("Kind of the runtime. Defaults to ClusterTrainingRuntime.")
  @Default(TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND)
  @Size(max = 253)
  private String kind;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public RuntimeRef withName(String name) {
    this.name = name;
    return this;
  }

  public String getApiGroup() {
    return apiGroup;
  }

  public void setApiGroup(String apiGroup) {
    this.apiGroup = apiGroup;
  }

  public RuntimeRef withApiGroup(String apiGroup) {
    this.apiGroup = apiGroup;
    return this;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public RuntimeRef withKind(String kind) {
    this.kind = kind;
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
    RuntimeRef that = (RuntimeRef) o;
    return Objects.equals(name, that.name)
        && Objects.equals(apiGroup, that.apiGroup)
        && Objects.equals(kind, that.kind);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, apiGroup, kind);
  }

  @Override
  public String toString() {
    return "RuntimeRef{name=" + name + ", apiGroup=" + apiGroup + ", kind=" + kind + "}";
  }
}
