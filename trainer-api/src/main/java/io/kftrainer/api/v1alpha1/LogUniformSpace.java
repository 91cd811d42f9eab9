package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * A log-uniform distribution over [min, max], min greater than 0: the logarithm of the value is uniform. The bounds
 * are decimal strings, as upstream's; with {@code type: Int} they must be whole numbers (the rule of upstream's pull
 * request #3920).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"min", "max", "type"})
@ValidationRule(value = "double(self.min) > 0.0", message = "min must be strictly greater than 0")
@ValidationRule(value = "double(self.min) < double(self.max)", message = "min must be strictly less than max")
@ValidationRule(value = OptimizationConstants.RULE_WHOLE_INT_BOUNDS, message = OptimizationConstants.MESSAGE_WHOLE_INT_BOUNDS)
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "type": {
              "enum": ["Int", "Float"]
            }
          }
        }""")
public class LogUniformSpace {

  @JsonProperty("min")
  @JsonPropertyDescription("The lower bound, a decimal number greater than 0.")
  @Required
  @Size(min = 1, max = 64)
  @Pattern(OptimizationConstants.DECIMAL_PATTERN)
  private String min;

  @JsonProperty("max")
  @JsonPropertyDescription("The upper bound, a decimal number.")
  @Required
  @Size(min = 1, max = 64)
  @Pattern(OptimizationConstants.DECIMAL_PATTERN)
  private String max;

  @JsonProperty("type")
  @JsonPropertyDescription("Int or Float. Defaults to Float.")
  @Default(OptimizationConstants.TYPE_FLOAT)
  private String type;

  public String getMin() {
    return min;
  }

  public void setMin(String min) {
    this.min = min;
  }

  public LogUniformSpace withMin(String min) {
    this.min = min;
    return this;
  }

  public String getMax() {
    return max;
  }

  public void setMax(String max) {
    this.max = max;
  }

  public LogUniformSpace withMax(String max) {
    this.max = max;
    return this;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public LogUniformSpace withType(String type) {
    this.type = type;
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
    LogUniformSpace that = (LogUniformSpace) o;
    return Objects.equals(min, that.min)
        && Objects.equals(max, that.max)
        && Objects.equals(type, that.type);
  }

  @Override
  public int hashCode() {
    return Objects.hash(min, max, type);
  }

  @Override
  public String toString() {
    return "LogUniformSpace{min=" + min
        + ", max=" + max
        + ", type=" + type
        + "}";
  }
}
