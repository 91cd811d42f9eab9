package io.kftrainer.runtime;

import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import java.util.Objects;

/**
 * Where a runtime lives: its kind ({@code TrainingRuntime} or {@code ClusterTrainingRuntime}), namespace (null for
 * a {@code ClusterTrainingRuntime}) and name.
 */
public record RuntimeKey(String kind, String namespace, String name) {

  public RuntimeKey {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    if (RuntimeSource.CLUSTER_TRAINING_RUNTIME.equals(kind)) {
      namespace = null;
    } else if (!RuntimeSource.TRAINING_RUNTIME.equals(kind)) {
      throw new IllegalArgumentException("not a runtime kind: " + kind);
    }
  }

  /**
   * The runtime a TrainJob refers to: a {@code TrainingRuntime} in the TrainJob's namespace or a
   * {@code ClusterTrainingRuntime}. An unset {@code apiGroup} or {@code kind} takes the CRD default, as on the
   * API server ({@link TrainJobDefaults}).
   *
   * @throws UnsupportedRuntimeException for another API group or kind
   */
  public static RuntimeKey of(TrainJob trainJob) {
    RuntimeRef ref = trainJob.getSpec().getRuntimeRef();
    String group = ref.getApiGroup() == null ? TrainerConstants.GROUP : ref.getApiGroup();
    String kind = ref.getKind() == null ? TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND : ref.getKind();
    boolean known = kind.equals(RuntimeSource.TRAINING_RUNTIME) || kind.equals(RuntimeSource.CLUSTER_TRAINING_RUNTIME);
    if (!TrainerConstants.GROUP.equals(group) || !known) {
      throw new UnsupportedRuntimeException(kind + "." + group);
    }
    return new RuntimeKey(kind, trainJob.getMetadata().getNamespace(), ref.getName());
  }

  /** Where this runtime lives. */
  public static RuntimeKey of(RuntimeSource runtime) {
    return new RuntimeKey(runtime.kind(), runtime.metadata().getNamespace(), runtime.name());
  }

  public boolean isClusterScoped() {
    return namespace == null;
  }

  /**
   * The TrainJob's error when this runtime does not exist, worded as upstream's admission webhook:
   * {@code spec.runtimeRef: Not found: <name>: specified clusterTrainingRuntime must be created before the TrainJob
   * is created}.
   */
  public FieldError notFound() {
    String lowerKind = Character.toLowerCase(kind.charAt(0)) + kind.substring(1);
    return FieldError.notFound(FieldPath.of("spec", "runtimeRef"), name,
        "specified " + lowerKind + " must be created before the TrainJob is created");
  }

  @Override
  public String toString() {
    return kind + " " + (namespace == null ? "" : namespace + "/") + name;
  }
}
