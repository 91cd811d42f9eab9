package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.runtime.RuntimeKey;
import io.kftrainer.runtime.RuntimeResolver;
import java.util.Optional;

/**
 * Resolves runtimes from the operator's informer caches. The runtime comes back as a copy, which keeps the cached
 * object untouched. Its CRD defaults are set already: the API server sets them when it stores a runtime and when
 * it reads one back. The JSON of each cached version (uid and resourceVersion) is remembered: every webhook call and
 * reconcile copies the runtime, which took a serialization and a parse each time; now a parse.
 */
public final class CachedRuntimeResolver implements RuntimeResolver {

  private final ObjectLookup cache;
  private final KubernetesSerialization serialization;
  private final Memo jsonByVersion = new Memo(RuntimeYaml.ENTRIES);

  public CachedRuntimeResolver(ObjectLookup cache, KubernetesSerialization serialization) {
    this.cache = cache;
    this.serialization = serialization;
  }

  @Override
  public Optional<RuntimeSource> resolve(TrainJob trainJob) {
    RuntimeKey key = RuntimeKey.of(trainJob);
    if (key.isClusterScoped()) {
      return cache.get(ClusterTrainingRuntime.class, null, key.name())
          .map(runtime -> RuntimeSource.of(copy(runtime)));
    }
    return cache.get(TrainingRuntime.class, key.namespace(), key.name())
        .map(runtime -> RuntimeSource.of(copy(runtime)));
  }

  private <T extends HasMetadata> T copy(T runtime) {
    ObjectMeta metadata = runtime.getMetadata();
    if (metadata == null || metadata.getUid() == null || metadata.getResourceVersion() == null) {
      return serialization.clone(runtime);
    }
    String version = runtime.getKind() + "/" + metadata.getUid() + "/" + metadata.getResourceVersion();
    @SuppressWarnings("unchecked")
    Class<T> type = (Class<T>) runtime.getClass();
    return serialization.unmarshal(jsonByVersion.get(version, v -> serialization.asJson(runtime)), type);
  }
}
