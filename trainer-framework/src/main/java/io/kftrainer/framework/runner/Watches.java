package io.kftrainer.framework.runner;

import io.kftrainer.framework.model.ObjectKey;
import io.kftrainer.framework.spi.EventMapper;
import io.kftrainer.framework.spi.Watch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Merges the watches several plugins declare for the same kind (CoScheduling and Volcano both watch
 * LimitRanges) into one, so that the operator runs one informer per kind: the merged watch maps an event to the
 * union of the plugins' TrainJobs, and is optional only if every plugin can do without the CRD.
 */
final class Watches {

  private Watches() {
  }

  static List<Watch> merge(List<Watch> declared) {
    Map<List<Object>, List<Watch>> byKind = new LinkedHashMap<>();
    for (Watch watch : declared) {
      byKind.computeIfAbsent(List.of(watch.type(), watch.relation()), k -> new ArrayList<>()).add(watch);
    }
    return byKind.values().stream().map(Watches::mergeSameKind).toList();
  }

  private static Watch mergeSameKind(List<Watch> watches) {
    Watch first = watches.get(0);
    if (watches.size() == 1) {
      return first;
    }
    List<EventMapper> mappers = watches.stream().flatMap(w -> w.mapper().stream()).distinct().toList();
    Optional<EventMapper> mapper = mappers.isEmpty() ? Optional.empty() : Optional.of((object, cluster) -> {
      Set<ObjectKey> keys = new LinkedHashSet<>();
      mappers.forEach(m -> keys.addAll(m.trainJobsFor(object, cluster)));
      return keys;
    });
    boolean optional = watches.stream().allMatch(Watch::optional);
    return new Watch(first.type(), first.relation(), mapper, optional);
  }
}
