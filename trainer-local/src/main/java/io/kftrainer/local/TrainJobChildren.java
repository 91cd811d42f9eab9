package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.ChildObjects;
import io.kftrainer.framework.spi.Watch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects the operator made for a TrainJob: those of the kinds the plugins own ({@link Watch.Relation#OWNED})
 * and ConfigMaps (the runtime snapshot), that carry the TrainJob's name label and its controller reference. Custom
 * resources (JobSet, PodGroups) come first, in plugin order, then Kubernetes' own kinds, ConfigMaps last.
 *
 * <p>Read from caches of this process (an informer per kind, of the objects with the TrainJob name label, indexed
 * by TrainJob), off the admission path: listing each kind from the API server for every progress line made seven
 * requests per TrainJob, each reading every object of its kind in the namespace. Kinds the server does not serve
 * are skipped.
 */
final class TrainJobChildren implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TrainJobChildren.class);
  private static final String BY_TRAINJOB = "trainjob";

  private final KubernetesClient client;
  private final List<Class<? extends HasMetadata>> kinds;
  private final List<SharedIndexInformer<? extends HasMetadata>> caches = new ArrayList<>();

  /** The children of the kinds {@code watches} own, read through {@code client} once {@link #start}ed. */
  TrainJobChildren(KubernetesClient client, List<Watch> watches) {
    this.client = Objects.requireNonNull(client, "client");
    this.kinds = kinds(watches);
  }

  /**
   * Starts the caches; returns once they are synced.
   *
   * @param added told of each child added to a cache (after the cache has it)
   */
  TrainJobChildren start(Consumer<HasMetadata> added) {
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    List<SharedIndexInformer<? extends HasMetadata>> synced = java.util.Collections.synchronizedList(
        new ArrayList<>());
    for (Class<? extends HasMetadata> kind : kinds) {
      SharedIndexInformer<? extends HasMetadata> cache = client.resources(kind).inAnyNamespace()
          .withLabel(ChildObjects.TRAINJOB_NAME_LABEL).runnableInformer(0);
      cache.addIndexers(Map.of(BY_TRAINJOB, TrainJobChildren::trainJobKey));
      cache.addEventHandler(new ResourceEventHandler<HasMetadata>() {
        @Override
        public void onAdd(HasMetadata child) {
          added.accept(child);
        }

        @Override
        public void onUpdate(HasMetadata oldChild, HasMetadata child) {
        }

        @Override
        public void onDelete(HasMetadata child, boolean deletedFinalStateUnknown) {
        }
      });
      syncs.add(cache.start().toCompletableFuture().handle((started, failure) -> {
        if (failure == null) {
          synced.add(cache);
        } else {
          LOG.debug("Not showing {} children: {}", HasMetadata.getKind(kind), failure.getMessage());
          cache.close();
        }
        return null;
      }));
    }
    CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new)).join();
    // in the kinds' order, whichever synced first
    synced.sort(Comparator.comparingInt(cache -> kinds.indexOf(cache.getApiTypeClass())));
    caches.addAll(synced);
    return this;
  }

  /** Custom resources in plugin order, then Kubernetes' own kinds, ConfigMaps last. */
  private static List<Class<? extends HasMetadata>> kinds(List<Watch> watches) {
    Set<Class<? extends HasMetadata>> owned = new LinkedHashSet<>();
    List<Class<? extends HasMetadata>> ownedTypes = watches.stream()
        .filter(w -> w.relation() == Watch.Relation.OWNED).<Class<? extends HasMetadata>>map(Watch::type).toList();
    ownedTypes.stream().filter(CustomResource.class::isAssignableFrom).forEach(owned::add);
    ownedTypes.stream().filter(type -> type != ConfigMap.class).forEach(owned::add);
    owned.add(ConfigMap.class);
    return List.copyOf(owned);
  }

  private static List<String> trainJobKey(HasMetadata child) {
    Map<String, String> labels = child.getMetadata().getLabels();
    String trainJob = labels == null ? null : labels.get(ChildObjects.TRAINJOB_NAME_LABEL);
    return trainJob == null ? List.of() : List.of(child.getMetadata().getNamespace() + "/" + trainJob);
  }

  /** The TrainJob's children, by kind in the plugins' order, then by name. */
  List<HasMetadata> of(TrainJob trainJob) {
    String key = trainJob.getMetadata().getNamespace() + "/" + trainJob.getMetadata().getName();
    String uid = trainJob.getMetadata().getUid();
    List<HasMetadata> children = new ArrayList<>();
    for (SharedIndexInformer<? extends HasMetadata> cache : caches) {
      cache.getIndexer().byIndex(BY_TRAINJOB, key).stream()
          .filter(child -> uid != null && ChildObjects.isControlledBy(child, uid))
          .sorted(Comparator.comparing(child -> child.getMetadata().getName()))
          .forEach(children::add);
    }
    return children;
  }

  /** {@code Kind name}, as progress lines show a child. */
  static String describe(HasMetadata child) {
    return child.getKind() + " " + child.getMetadata().getName();
  }

  @Override
  public void close() {
    caches.forEach(SharedIndexInformer::close);
  }
}
