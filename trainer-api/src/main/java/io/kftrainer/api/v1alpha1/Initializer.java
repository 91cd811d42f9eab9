package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * Initialization of the assets (dataset and pre-trained model) before training.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"dataset", "model"})
public class Initializer {

  @JsonProperty("dataset")
  @JsonPropertyDescription("Dataset initialization and pre-processing.")
  private DatasetInitializer dataset;

  @JsonProperty("model")
  @JsonPropertyDescription("Pre-trained model initialization.")
  private ModelInitializer model;

  public DatasetInitializer getDataset() {
    return dataset;
  }

  public void setDataset(DatasetInitializer dataset) {
    this.dataset = dataset;
  }

  public Initializer withDataset(DatasetInitializer dataset) {
    this.dataset = dataset;
    return this;
  }

  public ModelInitializer getModel() {
    return model;
  }

  public void setModel(ModelInitializer model) {
    this.model = model;
  }

  public Initializer withModel(ModelInitializer model) {
    this.model = model;
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
    Initializer that = (Initializer) o;
    return Objects.equals(dataset, that.dataset)
        && Objects.equals(model, that.model);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dataset, model);
  }

  @Override
  public String toString() {
    return "Initializer{dataset=" + dataset + ", model=" + model + "}";
  }
}
