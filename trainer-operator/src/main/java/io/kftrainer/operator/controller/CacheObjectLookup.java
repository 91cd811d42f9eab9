package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.ResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.spi.ObjectLookup;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The {@link ObjectLookup} of the operator: served from the informer caches of the TrainJob controller, never from
 * API calls, so that a reconcile reads what its events said and plugins do no I/O.
 *
 * <p>A kind is visible once its informer is registered ({@link TrainJobEventSources} does that when JOSDK prepares
 * the controller's event sources): the TrainJobs themselves, the runtimes, and every kind a plugin watches. Other
 * kinds read as absent. Returned objects are the cached instances: read-only.
 *
 * <p>The operator's own writes go through {@link #recordWrite}, so that the next reconcile of the same TrainJob
 * reads them even before their watch event arrives (JOSDK's temporary resource cache), and that event does not
 * trigger a reconcile of its own.
 */
public final class CacheObjectLookup implements ObjectLookup {

  private final Map<Class<?>, InformerEventSource<? extends HasMetadata, TrainJob>> informers =
      new ConcurrentHashMap<>();
  private volatile ResourceCache<TrainJob> trainJobs;
  private final Map<ResourceID, Supplier<? extends Optional<? extends HasMetadata>>> objects =
      new ConcurrentHashMap<>();

  void registerTrainJobs(ResourceCache<TrainJob> cache) {
    this.trainJobs = cache;
  }

  void register(Class<? extends HasMetadata> type, InformerEventSource<? extends HasMetadata, TrainJob> informer) {
    informers.put(type, informer);
  }

  /** Whether objects of this type are cached (an informer watches them). */
  public boolean isCached(Class<? extends HasMetadata> type) {
    return type == TrainJob.class ? trainJobs != null : informers.containsKey(type);
  }

  /**
   * Whether the controller's informers (TrainJobs, runtimes, the kinds plugins watch) are registered, running and
   * have listed their objects once. Before that a lookup may read an existing object as absent, or fail inside the
   * informer.
   */
  public boolean isSynced() {
    ResourceCache<TrainJob> primary = trainJobs;
    return primary != null && !informers.isEmpty() && synced(primary)
        && informers.values().stream().allMatch(CacheObjectLookup::synced);
  }

  private static boolean synced(Object cache) {
    if (!(cache instanceof ManagedInformerEventSource<?, ?, ?> source)) {
      return true;
    }
    if (!source.isRunning()) {
      return false; // and JOSDK's informer manager does not exist yet: its lookups throw NullPointerException
    }
    Map<String, InformerHealthIndicator> indicators = source.informerHealthIndicators();
    return !indicators.isEmpty() && indicators.values().stream().allMatch(InformerHealthIndicator::hasSynced);
  }

  /**
   * Serves one object outside the controller's informers from {@code source}: the webhook certificate Secret,
   * which the status server watches by name for the TrainJobStatus plugin. A get of exactly this type, namespace
   * and name reads it; lists do not.
   */
  public <T extends HasMetadata> void registerObject(Class<T> type, String namespace, String name,
      Supplier<Optional<T>> source) {
    objects.put(objectKey(type, namespace, name), source);
  }

  private static ResourceID objectKey(Class<?> type, String namespace, String name) {
    return new ResourceID(type.getName() + "/" + name, namespace);
  }

  @Override
  public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
    Supplier<? extends Optional<? extends HasMetadata>> object = objects.get(objectKey(type, namespace, name));
    if (object != null) {
      return object.get().map(type::cast);
    }
    return cache(type).flatMap(cache -> cache.get(new ResourceID(name, namespace))).map(type::cast);
  }

  @Override
  public <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
    return cache(type)
        .map(cache -> namespace == null ? cache.list() : cache.list(namespace))
        .orElseGet(Stream::empty)
        .map(type::cast)
        .toList();
  }

  /**
   * Records that the operator wrote {@code written} (the server's answer), which replaced {@code previous} (the
   * cached object it was compared with; empty for a create).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void recordWrite(HasMetadata written, Optional<? extends HasMetadata> previous) {
    InformerEventSource informer = informers.get(written.getClass());
    if (informer == null) {
      return;
    }
    RecentOperationCacheFiller filler = informer;
    ResourceID id = ResourceID.fromResource(written);
    if (previous.isPresent()) {
      filler.handleRecentResourceUpdate(id, written, previous.get());
    } else {
      filler.handleRecentResourceCreate(id, written);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Optional<ResourceCache<HasMetadata>> cache(Class<?> type) {
    if (type == TrainJob.class) {
      return Optional.ofNullable((ResourceCache) trainJobs);
    }
    return Optional.ofNullable((ResourceCache) informers.get(type));
  }
}
