package io.kftrainer.operator.controller;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.BuildResult;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only writer of a TrainJob's children: server-side apply with field manager
 * {@value TrainJobReconciler#FIELD_MANAGER} and forced ownership, as upstream, but only when the apply would change
 * the cached object: when the desired state is not in it ({@link JsonSubset}), or when the operator's field
 * manager owns a field the desired state no longer sets ({@link OwnedFields}), which the apply removes. So a
 * reconcile that changes nothing sends nothing. Each write is recorded in the cache
 * ({@link CacheObjectLookup#recordWrite}).
 */
final class ChildApplier {

  private static final Logger LOG = LoggerFactory.getLogger(ChildApplier.class);

  private final KubernetesClient client;
  private final CacheObjectLookup cache;
  private final KubernetesSerialization serialization;

  ChildApplier(KubernetesClient client, CacheObjectLookup cache) {
    this.client = client;
    this.cache = cache;
    this.serialization = client.getKubernetesSerialization();
  }

  /**
   * Applies each object that differs from its cached state, in order; returns how many were written.
   *
   * @param created told of each object written that the cache did not hold (of a watched kind): a new one
   * @throws ChildApplyException if a write fails, naming the object, the plugin that built it and the cause
   */
  int applyAll(BuildResult built, Consumer<HasMetadata> created) {
    int written = 0;
    for (int i = 0; i < built.objects().size(); i++) {
      if (apply(built.objects().get(i), built.builders().get(i), created)) {
        written++;
      }
    }
    return written;
  }

  private boolean apply(HasMetadata desired, String builder, Consumer<HasMetadata> created) {
    Optional<? extends HasMetadata> observed = observed(desired);
    if (observed.isPresent() && isApplied(tree(observed.get()), JsonSubset.comparable(tree(desired)))) {
      return false;
    }
    boolean watched = cache.isCached(desired.getClass());
    if (!watched) {
      LOG.debug("{} {} is not watched: applying it unconditionally", desired.getKind(),
          desired.getMetadata().getName());
    }
    HasMetadata applied;
    try {
      applied = client.resource(desired).fieldManager(TrainJobReconciler.FIELD_MANAGER).forceConflicts()
          .serverSideApply();
    } catch (KubernetesClientException e) {
      throw new ChildApplyException(ApplyFailureMessages.of(desired, builder, e), e);
    }
    cache.recordWrite(applied, observed);
    LOG.info("Applied {} {}/{}", desired.getKind(), desired.getMetadata().getNamespace(),
        desired.getMetadata().getName());
    if (watched && observed.isEmpty()) {
      created.accept(applied);
    }
    return true;
  }

  /** Whether applying {@code desired} would leave {@code observed} as it is. */
  static boolean isApplied(JsonNode observed, JsonNode desired) {
    return JsonSubset.contains(observed, desired) && OwnedFields.ofApply(observed, TrainJobReconciler.FIELD_MANAGER)
        .map(owned -> OwnedFields.allSetIn(owned, desired)).orElse(false);
  }

  /** Deletes the TrainJob's child of this type and the TrainJob's name, if the cache holds one. */
  <T extends HasMetadata> boolean deleteIfPresent(Class<T> type, TrainJob trainJob) {
    String namespace = trainJob.getMetadata().getNamespace();
    String name = trainJob.getMetadata().getName();
    if (cache.get(type, namespace, name).isEmpty()) {
      return false;
    }
    client.resources(type).inNamespace(namespace).withName(name).delete();
    LOG.info("Deleted {} {}/{}", HasMetadata.getKind(type), namespace, name);
    return true;
  }

  private Optional<? extends HasMetadata> observed(HasMetadata desired) {
    return cache.get(desired.getClass(), desired.getMetadata().getNamespace(), desired.getMetadata().getName());
  }

  private JsonNode tree(HasMetadata object) {
    return serialization.convertValue(object, JsonNode.class);
  }
}
