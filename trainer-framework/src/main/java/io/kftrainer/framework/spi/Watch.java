package io.kftrainer.framework.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link WatchExtension} asks the operator to watch.
 *
 * <ul>
 *   <li>{@link Relation#OWNED}: children the TrainJob controls (JobSets, PodGroups, Secrets...). The operator caches
 *       only the objects carrying the TrainJob label and maps an event to the controlling TrainJob.</li>
 *   <li>{@link Relation#REFERENCED}: objects plugins read through {@link ObjectLookup} (namespaces, limit ranges).
 *       With a {@link EventMapper} an event also requeues the TrainJobs it returns.</li>
 * </ul>
 *
 * @param type the resource class; for custom resources it must carry fabric8's {@code @Group}/{@code @Version}
 * @param relation how the resource relates to TrainJobs
 * @param mapper for referenced resources, which TrainJobs an event concerns; empty for none
 * @param optional whether the operator may run without this resource's CRD (the plugin then contributes nothing
 *     that needs it); a missing CRD of a required watch is a start-up error
 */
public record Watch(Class<? extends HasMetadata> type, Relation relation, Optional<EventMapper> mapper,
    boolean optional) {

  public enum Relation { OWNED, REFERENCED }

  public Watch {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(relation, "relation");
    Objects.requireNonNull(mapper, "mapper");
  }

  /** Children controlled by a TrainJob. */
  public static Watch owned(Class<? extends HasMetadata> type) {
    return new Watch(type, Relation.OWNED, Optional.empty(), false);
  }

  /** Objects read through {@link ObjectLookup}; their events trigger nothing. */
  public static Watch referenced(Class<? extends HasMetadata> type) {
    return new Watch(type, Relation.REFERENCED, Optional.empty(), false);
  }

  /** Objects whose events requeue the TrainJobs the mapper returns. */
  public static Watch referenced(Class<? extends HasMetadata> type, EventMapper mapper) {
    return new Watch(type, Relation.REFERENCED, Optional.of(mapper), false);
  }

  /** The same watch, tolerated when the resource's CRD is not installed. */
  public Watch optionalCrd() {
    return new Watch(type, relation, mapper, true);
  }
}
