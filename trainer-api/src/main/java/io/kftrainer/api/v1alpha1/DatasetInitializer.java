package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Configuration of the dataset initializer; it overrides the runtime Job labelled
 * {@code trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"storageUri", "env", "secretRef"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "env": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "required": ["name"]
              }
            }
          }
        }""")
public class DatasetInitializer {

  @JsonProperty("storageUri")
  @JsonPropertyDescription("URI of the dataset provider, for example s3://bucket/path; may be empty.")
  @Size(max = 2048)
  @ValidationRule(value = "self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$')",
      message = "storageUri may be empty, or it must be a valid URI (scheme://...)")
  private String storageUri;

  @JsonProperty("env")
  @JsonPropertyDescription("Environment variables for the dataset initializer container, merged with the runtime ones.")
  @Size(max = 128)
  private List<EnvVar> env;

  @JsonProperty("secretRef")
  @JsonPropertyDescription("Secret in the TrainJob namespace with the credentials to download the dataset.")
  private LocalObjectReference secretRef;

  public String getStorageUri() {
    return storageUri;
  }

  public void setStorageUri(String storageUri) {
    this.storageUri = storageUri;
  }

  public DatasetInitializer withStorageUri(String storageUri) {
    this.storageUri = storageUri;
    return this;
  }

  public List<EnvVar> getEnv() {
    return env;
  }

  public void setEnv(List<EnvVar> env) {
    this.env = env;
  }

  public DatasetInitializer withEnv(List<EnvVar> env) {
    this.env = env;
    return this;
  }

  public LocalObjectReference getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(LocalObjectReference secretRef) {
    this.secretRef = secretRef;
  }

  public DatasetInitializer withSecretRef(LocalObjectReference secretRef) {
    this.secretRef = secretRef;
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
    DatasetInitializer that = (DatasetInitializer) o;
    return Objects.equals(storageUri, that.storageUri)
        && Objects.equals(env, that.env)
        && Objects.equals(secretRef, that.secretRef);
  }

  @Override
  public int hashCode() {
    return Objects.hash(storageUri, env, secretRef);
  }

  @Override
  public String toString() {
    return "DatasetInitializer{storageUri=" + storageUri + ", env=" + env + ", secretRef=" + secretRef + "}";
  }
}
