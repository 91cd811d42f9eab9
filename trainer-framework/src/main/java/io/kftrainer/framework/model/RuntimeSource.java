package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;

/**
 * The runtime a TrainJob refers to, resolved: a {@code TrainingRuntime} or a {@code ClusterTrainingRuntime},
 * both reduced to their kind, metadata and spec.
 */
public record RuntimeSource(String kind, ObjectMeta metadata, TrainingRuntimeSpec spec) {

  public static final String TRAINING_RUNTIME = "TrainingRuntime";
  public static final String CLUSTER_TRAINING_RUNTIME = "ClusterTrainingRuntime";

  public static RuntimeSource of(TrainingRuntime runtime) {
    return new RuntimeSource(TRAINING_RUNTIME, runtime.getMetadata(), runtime.getSpec());
  }

  public static RuntimeSource of(ClusterTrainingRuntime runtime) {
    return new RuntimeSource(CLUSTER_TRAINING_RUNTIME, runtime.getMetadata(), runtime.getSpec());
  }

  public String name() {
    return metadata.getName();
  }

  @Override
  public String toString() {
    return kind + " " + (metadata.getNamespace() == null ? "" : metadata.getNamespace() + "/") + name();
  }
}
