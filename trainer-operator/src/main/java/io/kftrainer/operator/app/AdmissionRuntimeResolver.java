package io.kftrainer.operator.app;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.runtime.RuntimeKey;
import io.kftrainer.runtime.RuntimeResolver;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtimes the admission webhooks resolve: from the informer caches, and on a miss from the API server. A
 * runtime created a moment before its TrainJob (one {@code kubectl apply -f} of a file holding both, as two of the
 * examples do) may not be in the cache yet when the TrainJob's admission asks for it, and was refused as not found
 * although it existed (the cluster suite saw it on real Kubernetes). A miss is rare (a TrainJob naming a runtime
 * that does not exist, or this moment), so the common path still makes no API call. Reconciles keep reading the
 * cache only, which their events are ordered with.
 */
final class AdmissionRuntimeResolver implements RuntimeResolver {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionRuntimeResolver.class);

  private final RuntimeResolver cached;
  private final KubernetesClient client;

  AdmissionRuntimeResolver(RuntimeResolver cached, KubernetesClient client) {
    this.cached = Objects.requireNonNull(cached, "cached");
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public Optional<RuntimeSource> resolve(TrainJob trainJob) {
    Optional<RuntimeSource> runtime = cached.resolve(trainJob);
    if (runtime.isPresent()) {
      return runtime;
    }
    RuntimeKey key = RuntimeKey.of(trainJob);
    try {
      HasMetadata live = key.isClusterScoped()
          ? client.resources(ClusterTrainingRuntime.class).withName(key.name()).get()
          : client.resources(TrainingRuntime.class).inNamespace(key.namespace()).withName(key.name()).get();
      // the name as given: a client or server that trims control characters must not find "torch" for "torch\n"
      return Optional.ofNullable(live).filter(found -> key.name().equals(found.getMetadata().getName()))
          .map(AdmissionRuntimeResolver::source);
    } catch (KubernetesClientException | IllegalArgumentException unreadable) {
      // a name no object can have (control characters), or the API server unreachable: the cache's answer stands
      LOG.debug("Cannot read runtime {} from the API server: {}", key, unreadable.getMessage());
      return Optional.empty();
    }
  }

  private static RuntimeSource source(HasMetadata runtime) {
    return runtime instanceof ClusterTrainingRuntime cluster ? RuntimeSource.of(cluster)
        : RuntimeSource.of((TrainingRuntime) runtime);
  }
}
