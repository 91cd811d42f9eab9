package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * XGBoost runtime configuration; it has no fields. Workers per node follow the GPU count
 * of the node resources (one per GPU, or one per node for CPU training).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class XGBoostMLPolicySource {

  @Override
  public boolean equals(Object o) {
    return o != null && getClass() == o.getClass();
  }

  @Override
  public int hashCode() {
    return XGBoostMLPolicySource.class.hashCode();
  }

  @Override
  public String toString() {
    return "XGBoostMLPolicySource{}";
  }
}
