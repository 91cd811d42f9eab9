package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Patch of one container. The env of the node, dataset-initializer and model-initializer
 * containers can only be set through the Trainer and Initializer APIs.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "env", "volumeMounts", "securityContext"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "env": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "required": ["name"]
              }
            },
            "volumeMounts": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "required": ["name"]
              }
            }
          }
        }""")
public class ContainerPatch {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the container; the runtime must have it.")
  @Required
  @Size(min = 1, max = 253)
  private String name;

  @JsonProperty("env")
  @JsonPropertyDescription("Environment variables merged with the runtime ones.")
  @Size(max = 128)
  private List<EnvVar> env;

  @JsonProperty("volumeMounts")
  @JsonPropertyDescription("Volume mounts added to the container.")
  @Size(max = 128)
  private List<VolumeMount> volumeMounts;

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Container security context.")
  private SecurityContext securityContext;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public ContainerPatch withName(String name) {
    this.name = name;
    return this;
  }

  public List<EnvVar> getEnv() {
    return env;
  }

  public void setEnv(List<EnvVar> env) {
    this.env = env;
  }

  public ContainerPatch withEnv(List<EnvVar> env) {
    this.env = env;
    return this;
  }

  public List<VolumeMount> getVolumeMounts() {
    return volumeMounts;
  }

  public void setVolumeMounts(List<VolumeMount> volumeMounts) {
    this.volumeMounts = volumeMounts;
  }

  public ContainerPatch withVolumeMounts(List<VolumeMount> volumeMounts) {
    this.volumeMounts = volumeMounts;
    return this;
  }

  public SecurityContext getSecurityContext() {
    return securityContext;
  }

  public void setSecurityContext(SecurityContext securityContext) {
    this.securityContext = securityContext;
  }

  public ContainerPatch withSecurityContext(SecurityContext securityContext) {
    this.securityContext = securityContext;
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
    ContainerPatch that = (ContainerPatch) o;
    return Objects.equals(name, that.name)
        && Objects.equals(env, that.env)
        && Objects.equals(volumeMounts, that.volumeMounts)
        && Objects.equals(securityContext, that.securityContext);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, env, volumeMounts, securityContext);
  }

  @Override
  public String toString() {
    return "ContainerPatch{name=" + name
        + ", env=" + env
        + ", volumeMounts=" + volumeMounts
        + ", securityContext=" + securityContext
        + "}";
  }
}
