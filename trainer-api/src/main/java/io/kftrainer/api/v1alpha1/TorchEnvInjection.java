package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Which containers, besides the main node container, receive the PET_* environment variables.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"targets"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "targets": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["jobName"]
            }
          }
        }""")
public class TorchEnvInjection {

  @JsonProperty("targets")
  @JsonPropertyDescription("Target replicated jobs and containers, keyed by job name.")
  @Size(max = 16)
  private List<TorchEnvInjectionTarget> targets;

  public List<TorchEnvInjectionTarget> getTargets() {
    return targets;
  }

  public void setTargets(List<TorchEnvInjectionTarget> targets) {
    this.targets = targets;
  }

  public TorchEnvInjection withTargets(List<TorchEnvInjectionTarget> targets) {
    this.targets = targets;
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
    TorchEnvInjection that = (TorchEnvInjection) o;
    return Objects.equals(targets, that.targets);
  }

  @Override
  public int hashCode() {
    return Objects.hash(targets);
  }

  @Override
  public String toString() {
    return "TorchEnvInjection{targets=" + targets + "}";
  }
}
