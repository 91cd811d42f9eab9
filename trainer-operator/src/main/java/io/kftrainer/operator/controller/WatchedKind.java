package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.kftrainer.framework.spi.EventMapper;
import io.kftrainer.framework.spi.Watch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One informer's worth of watch declarations: every {@link Watch} of one resource type, merged. A type gets one
 * informer however many plugins watch it.
 *
 * <ul>
 *   <li>{@link #labelSelected()}: only when every declaration is {@link Watch.Relation#OWNED} is the cache limited to
 *       the operator's children (label {@code trainer.kubeflow.org/trainjob-name}); a referenced declaration needs
 *       every object of the type.</li>
 *   <li>{@link #owned()}: some declaration is owned, so an event requeues the controlling TrainJob.</li>
 *   <li>{@link #mappers()}: the referenced declarations' event mappers, each consulted on every event.</li>
 *   <li>{@link #optional()}: only when every declaration tolerates a missing CRD.</li>
 * </ul>
 */
record WatchedKind(Class<? extends HasMetadata> type, boolean owned, boolean labelSelected,
    List<EventMapper> mappers, boolean optional) {

  WatchedKind {
    mappers = List.copyOf(mappers);
  }

  /** The declarations grouped by type, in the order each type first appears. */
  static List<WatchedKind> merge(List<Watch> watches) {
    Map<Class<? extends HasMetadata>, List<Watch>> byType = new LinkedHashMap<>();
    watches.forEach(watch -> byType.computeIfAbsent(watch.type(), t -> new ArrayList<>()).add(watch));
    return byType.entrySet().stream().map(entry -> of(entry.getKey(), entry.getValue())).toList();
  }

  private static WatchedKind of(Class<? extends HasMetadata> type, List<Watch> declarations) {
    boolean owned = declarations.stream().anyMatch(w -> w.relation() == Watch.Relation.OWNED);
    boolean onlyOwned = declarations.stream().allMatch(w -> w.relation() == Watch.Relation.OWNED);
    List<EventMapper> mappers = declarations.stream()
        .flatMap(w -> w.mapper().stream())
        .distinct()
        .toList();
    boolean optional = declarations.stream().allMatch(Watch::optional);
    return new WatchedKind(type, owned, onlyOwned, mappers, optional);
  }

  boolean isNamespaced() {
    return Namespaced.class.isAssignableFrom(type);
  }

  /** The resource's plural and group, e.g. {@code jobsets.jobset.x-k8s.io}, or its plural for the core group. */
  String resourceName() {
    String group = HasMetadata.getGroup(type);
    String plural = HasMetadata.getPlural(type);
    return group == null || group.isEmpty() ? plural : plural + "." + group;
  }
}
