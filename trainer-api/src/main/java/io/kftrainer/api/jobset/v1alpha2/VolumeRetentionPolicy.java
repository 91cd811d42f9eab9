package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * What happens to the created claims when the JobSet is deleted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"whenDeleted"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "whenDeleted": {
              "enum": ["Delete", "Retain"]
            }
          }
        }""")
public class VolumeRetentionPolicy {

  @JsonProperty("whenDeleted")
  @JsonPropertyDescription("Delete or Retain. Defaults to Delete.")
  @Default("Delete")
  private String whenDeleted;

  public String getWhenDeleted() {
    return whenDeleted;
  }

  public void setWhenDeleted(String whenDeleted) {
    this.whenDeleted = whenDeleted;
  }

  public VolumeRetentionPolicy withWhenDeleted(String whenDeleted) {
    this.whenDeleted = whenDeleted;
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
    VolumeRetentionPolicy that = (VolumeRetentionPolicy) o;
    return Objects.equals(whenDeleted, that.whenDeleted);
  }

  @Override
  public int hashCode() {
    return Objects.hash(whenDeleted);
  }

  @Override
  public String toString() {
    return "VolumeRetentionPolicy{whenDeleted=" + whenDeleted + "}";
  }
}
