package io.kftrainer.statusserver;

import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.Optional;

/**
 * Where the status server reads a TrainJob's current state, to leave an unchanged status unwritten: the operator's
 * informer cache. Reading it costs no API call; a TrainJob missing from it is still applied (the cache may lag).
 */
@FunctionalInterface
public interface TrainJobs {

  Optional<TrainJob> get(String namespace, String name);

  /** Knows no TrainJob: every update is applied. */
  static TrainJobs none() {
    return (namespace, name) -> Optional.empty();
  }
}
