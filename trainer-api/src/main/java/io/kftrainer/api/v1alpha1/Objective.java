package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * The metric an {@link OptimizationJob} optimizes, read from each trial's {@code status.trainerStatus.metrics}, and
 * its direction: {@link OptimizationConstants#DIRECTION_MINIMIZE} (the default) or {@link
 * OptimizationConstants#DIRECTION_MAXIMIZE}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"metric", "direction"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "direction": {
              "enum": ["Maximize", "Minimize"]
            }
          }
        }""")
public class Objective {

  @JsonProperty("metric")
  @JsonPropertyDescription("Name of the objective metric, as the trials report it (e.g. loss).")
  @Required
  @Size(min = 1, max = 64)
  private String metric;

  @JsonProperty("direction")
  @JsonPropertyDescription("Maximize or Minimize. Defaults to Minimize.")
  @Default(OptimizationConstants.DIRECTION_MINIMIZE)
  private String direction;

  public String getMetric() {
    return metric;
  }

  public void setMetric(String metric) {
    this.metric = metric;
  }

  public Objective withMetric(String metric) {
    this.metric = metric;
    return this;
  }

  public String getDirection() {
    return direction;
  }

  public void setDirection(String direction) {
    this.direction = direction;
  }

  public Objective withDirection(String direction) {
    this.direction = direction;
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
    Objective that = (Objective) o;
    return Objects.equals(metric, that.metric)
        && Objects.equals(direction, that.direction);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metric, direction);
  }

  @Override
  public String toString() {
    return "Objective{metric=" + metric
        + ", direction=" + direction
        + "}";
  }
}
