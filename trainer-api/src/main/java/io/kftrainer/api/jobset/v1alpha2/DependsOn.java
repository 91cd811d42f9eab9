package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * Dependency on the status of a previous replicated job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "status"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "status": {
              "enum": ["Ready", "Complete"]
            }
          }
        }""")
public class DependsOn {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the previous replicated job.")
  @Required
  private String name;

  @JsonProperty("status")
  @JsonPropertyDescription("Status to wait for: Ready or Complete.")
  @Required
  private String status;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public DependsOn withName(String name) {
    this.name = name;
    return this;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public DependsOn withStatus(String status) {
    this.status = status;
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
    DependsOn that = (DependsOn) o;
    return Objects.equals(name, that.name)
        && Objects.equals(status, that.status);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, status);
  }

  @Override
  public String toString() {
    return "DependsOn{name=" + name + ", status=" + status + "}";
  }
}
