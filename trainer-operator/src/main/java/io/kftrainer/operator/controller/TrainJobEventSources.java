package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.FieldSelector;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.runner.ChildObjects;
import io.kftrainer.framework.spi.Watch;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TrainJob controller's informers, from the plugins' {@link Watch} declarations plus the operator's own:
 * its runtime snapshots (owned ConfigMaps) and the TrainingRuntimes and ClusterTrainingRuntimes it resolves
 * runtimes from.
 *
 * <ul>
 *   <li>An owned kind is cached only for objects labelled {@value ChildObjects#TRAINJOB_NAME_LABEL} (a label
 *       selector on the list and watch), so the cache never holds every ConfigMap or Secret of the cluster; an
 *       event requeues the TrainJob named by the object's controller owner reference.</li>
 *   <li>A referenced kind is cached whole; an event requeues the TrainJobs its plugin's
 *       {@link io.kftrainer.framework.spi.EventMapper} returns, none without one.</li>
 *   <li>Namespaced kinds are watched in the controller's namespaces, cluster-scoped ones everywhere.</li>
 * </ul>
 *
 * <p>Which kinds are served is decided once, when this is built ({@link ServedKinds}); the informers are created
 * when JOSDK prepares the controller ({@link #create}), and registered with the {@link CacheObjectLookup}.
 */
public final class TrainJobEventSources {

  /** What the operator itself watches, whatever the plugins. */
  public static final List<Watch> OPERATOR_WATCHES = List.of(
      Watch.owned(ConfigMap.class),
      Watch.referenced(TrainingRuntime.class),
      Watch.referenced(ClusterTrainingRuntime.class));

  private static final Logger LOG = LoggerFactory.getLogger(TrainJobEventSources.class);

  private final List<WatchedKind> kinds;
  private final CacheObjectLookup lookup;

  private TrainJobEventSources(List<WatchedKind> kinds, CacheObjectLookup lookup) {
    this.kinds = kinds;
    this.lookup = lookup;
  }

  /**
   * The informers for these plugin watches and the operator's own, limited to the kinds {@code client}'s API
   * server serves. (The TrainJobs' own informer is JOSDK's; their CRD is checked here too.)
   *
   * @throws IllegalStateException if TrainJobs or a watched kind that is not optional are not served
   */
  public static TrainJobEventSources plan(List<Watch> pluginWatches, KubernetesClient client,
      CacheObjectLookup lookup) {
    List<Watch> all = new ArrayList<>(List.of(Watch.referenced(TrainJob.class)));
    all.addAll(OPERATOR_WATCHES);
    all.addAll(pluginWatches);
    List<WatchedKind> served = ServedKinds.select(WatchedKind.merge(all), client).stream()
        .filter(kind -> kind.type() != TrainJob.class)
        .toList();
    return new TrainJobEventSources(served, lookup);
  }

  /** The types that get an informer, in declaration order. */
  public List<Class<? extends HasMetadata>> watchedTypes() {
    return kinds.stream().<Class<? extends HasMetadata>>map(WatchedKind::type).toList();
  }

  /**
   * The informers, registered with the lookup (called once by JOSDK through the reconciler), plus one of the failed
   * pods of JobSets (label {@value JobSetRestarts#JOBSET_NAME_LABEL}, field
   * {@code status.phase=Failed}), each of whose events is handed to {@code failedPods}; it requeues nothing (a
   * restart shows in the JobSet's status, which does).
   */
  List<EventSource<?, TrainJob>> create(EventSourceContext<TrainJob> context, Predicate<Pod> failedPods) {
    List<EventSource<?, TrainJob>> sources = new ArrayList<>(createWatched(context));
    var configuration = InformerEventSourceConfiguration.from(Pod.class, TrainJob.class)
        .withName("failed-jobset-pods")
        .withSecondaryToPrimaryMapper(pod -> Set.of())
        .withPrimaryToSecondaryMapper(trainJob -> Set.of())
        .withLabelSelector(JobSetRestarts.JOBSET_NAME_LABEL)
        .withFieldSelector(new FieldSelector(new FieldSelector.Field("status.phase", "Failed")))
        .withOnAddFilter(failedPods::test)
        .withOnUpdateFilter((pod, old) -> failedPods.test(pod))
        .withItemStore(CompactObjects.itemStore())
        .withNamespacesInheritedFromController();
    sources.add(new InformerEventSource<>(configuration.build(), context));
    LOG.info("Watching pods labelled {} in phase Failed", JobSetRestarts.JOBSET_NAME_LABEL);
    return sources;
  }

  private List<EventSource<?, TrainJob>> createWatched(EventSourceContext<TrainJob> context) {
    lookup.registerTrainJobs(context.getPrimaryCache());
    List<EventSource<?, TrainJob>> sources = new ArrayList<>();
    for (WatchedKind kind : kinds) {
      InformerEventSource<? extends HasMetadata, TrainJob> informer = informer(kind, context);
      lookup.register(kind.type(), informer);
      sources.add(informer);
      LOG.info("Watching {}{}", kind.resourceName(),
          kind.labelSelected() ? " labelled " + ChildObjects.TRAINJOB_NAME_LABEL : "");
    }
    return sources;
  }

  private <R extends HasMetadata> InformerEventSource<R, TrainJob> informer(WatchedKind kind,
      EventSourceContext<TrainJob> context) {
    @SuppressWarnings("unchecked")
    Class<R> type = (Class<R>) kind.type();
    var configuration = InformerEventSourceConfiguration.from(type, TrainJob.class)
        .withName(kind.resourceName())
        .withSecondaryToPrimaryMapper(toTrainJobs(kind))
        // plugins look their objects up by name: no primary-to-secondary index is needed
        .withPrimaryToSecondaryMapper(trainJob -> Set.of())
        .withItemStore(CompactObjects.itemStore());
    if (kind.isNamespaced()) {
      configuration.withNamespacesInheritedFromController();
    } else {
      configuration.withWatchAllNamespaces();
    }
    if (kind.labelSelected()) {
      configuration.withLabelSelector(ChildObjects.TRAINJOB_NAME_LABEL);
    }
    return new InformerEventSource<>(configuration.build(), context);
  }

  private <R extends HasMetadata> SecondaryToPrimaryMapper<R> toTrainJobs(WatchedKind kind) {
    return object -> {
      Set<ResourceID> trainJobs = new LinkedHashSet<>();
      if (kind.owned()) {
        controllingTrainJob(object).ifPresent(trainJobs::add);
      }
      kind.mappers().forEach(mapper -> mapper.trainJobsFor(object, lookup)
          .forEach(key -> trainJobs.add(new ResourceID(key.name(), key.namespace()))));
      return trainJobs;
    };
  }

  private static Optional<ResourceID> controllingTrainJob(HasMetadata object) {
    List<OwnerReference> references = object.getMetadata().getOwnerReferences();
    if (references == null) {
      return Optional.empty();
    }
    return references.stream()
        .filter(r -> Boolean.TRUE.equals(r.getController()))
        .filter(r -> TrainerConstants.TRAINJOB_KIND.equals(r.getKind()))
        .filter(r -> r.getApiVersion() != null && r.getApiVersion().startsWith(TrainerConstants.GROUP + "/"))
        .findFirst()
        .map(r -> new ResourceID(r.getName(), object.getMetadata().getNamespace()));
  }
}
