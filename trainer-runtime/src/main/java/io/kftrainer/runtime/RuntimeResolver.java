package io.kftrainer.runtime;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import java.util.Optional;

/**
 * Finds the runtime a TrainJob's {@code spec.runtimeRef} names: a {@code TrainingRuntime} in the TrainJob's
 * namespace or a cluster-wide {@code ClusterTrainingRuntime}, both of API group {@code trainer.kubeflow.org}
 * ({@link RuntimeKey#of(TrainJob)}). The {@code render} command resolves from memory ({@link RuntimeCatalog}); the
 * operator from its informer caches.
 */
public interface RuntimeResolver {

  /**
   * The runtime, or empty if no runtime of that kind and name exists (where the TrainJob would look for it).
   *
   * @throws UnsupportedRuntimeException if the reference is to another kind or API group
   */
  Optional<RuntimeSource> resolve(TrainJob trainJob);
}
