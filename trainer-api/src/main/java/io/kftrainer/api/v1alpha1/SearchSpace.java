package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * The values one hyperparameter can take: exactly one of uniform, logUniform and categorical.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"uniform", "logUniform", "categorical"})
@ValidationRule(value = "[has(self.uniform),has(self.logUniform),has(self.categorical)].filter(x,x==true).size() == 1",
    message = "exactly one of the fields in [uniform logUniform categorical] must be set")
public class SearchSpace {

  @JsonProperty("uniform")
  @JsonPropertyDescription("A uniform distribution over [min, max].")
  private UniformSpace uniform;

  @JsonProperty("logUniform")
  @JsonPropertyDescription("A log-uniform distribution over [min, max].")
  private LogUniformSpace logUniform;

  @JsonProperty("categorical")
  @JsonPropertyDescription("A set of strings.")
  private CategoricalSpace categorical;

  public UniformSpace getUniform() {
    return uniform;
  }

  public void setUniform(UniformSpace uniform) {
    this.uniform = uniform;
  }

  public SearchSpace withUniform(UniformSpace uniform) {
    this.uniform = uniform;
    return this;
  }

  public LogUniformSpace getLogUniform() {
    return logUniform;
  }

  public void setLogUniform(LogUniformSpace logUniform) {
    this.logUniform = logUniform;
  }

  public SearchSpace withLogUniform(LogUniformSpace logUniform) {
    this.logUniform = logUniform;
    return this;
  }

  public CategoricalSpace getCategorical() {
    return categorical;
  }

  public void setCategorical(CategoricalSpace categorical) {
    this.categorical = categorical;
  }

  public SearchSpace withCategorical(CategoricalSpace categorical) {
    this.categorical = categorical;
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
    SearchSpace that = (SearchSpace) o;
    return Objects.equals(uniform, that.uniform)
        && Objects.equals(logUniform, that.logUniform)
        && Objects.equals(categorical, that.categorical);
  }

  @Override
  public int hashCode() {
    return Objects.hash(uniform, logUniform, categorical);
  }

  @Override
  public String toString() {
    return "SearchSpace{uniform=" + uniform
        + ", logUniform=" + logUniform
        + ", categorical=" + categorical
        + "}";
  }
}
