package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/**
 * One hyperparameter of an {@link OptimizationJob}: its name, which is also the environment variable
 * KUBEFLOW_TRAINER_OPT_<NAME> trials read it from, and its search space.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "searchSpace"})
public class Parameter {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the hyperparameter. Only letters, digits and underscores are allowed, and it "
      + "cannot start with a digit.")
  @Required
  @Size(min = 1, max = 64)
  @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
  private String name;

  @JsonProperty("searchSpace")
  @JsonPropertyDescription("The values the hyperparameter can take.")
  @Required
  private SearchSpace searchSpace;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Parameter withName(String name) {
    this.name = name;
    return this;
  }

  public SearchSpace getSearchSpace() {
    return searchSpace;
  }

  public void setSearchSpace(SearchSpace searchSpace) {
    this.searchSpace = searchSpace;
  }

  public Parameter withSearchSpace(SearchSpace searchSpace) {
    this.searchSpace = searchSpace;
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
    Parameter that = (Parameter) o;
    return Objects.equals(name, that.name)
        && Objects.equals(searchSpace, that.searchSpace);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, searchSpace);
  }

  @Override
  public String toString() {
    return "Parameter{name=" + name
        + ", searchSpace=" + searchSpace
        + "}";
  }
}
