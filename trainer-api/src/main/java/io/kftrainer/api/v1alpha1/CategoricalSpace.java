package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * A set of strings, unordered, each tried as is.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"choices"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "choices": {
              "x-kubernetes-list-type": "set",
              "items": {"maxLength": 64}
            }
          }
        }""")
public class CategoricalSpace {

  @JsonProperty("choices")
  @JsonPropertyDescription("The values, each at most 64 characters.")
  @Required
  @Size(min = 1, max = 100)
  private List<String> choices;

  public List<String> getChoices() {
    return choices;
  }

  public void setChoices(List<String> choices) {
    this.choices = choices;
  }

  public CategoricalSpace withChoices(List<String> choices) {
    this.choices = choices;
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
    CategoricalSpace that = (CategoricalSpace) o;
    return Objects.equals(choices, that.choices);
  }

  @Override
  public int hashCode() {
    return Objects.hash(choices);
  }

  @Override
  public String toString() {
    return "CategoricalSpace{choices=" + choices
        + "}";
  }
}
