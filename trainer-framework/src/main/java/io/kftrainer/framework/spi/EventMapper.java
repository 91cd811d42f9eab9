package io.kftrainer.framework.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.model.ObjectKey;
import java.util.Set;

/** Maps an event on a referenced object to the TrainJobs to reconcile. */
@FunctionalInterface
public interface EventMapper {

  /**
   * @param object the object that changed
   * @param cluster read-only view of cached objects, TrainJobs included
   * @return keys of the TrainJobs to reconcile, possibly empty
   */
  Set<ObjectKey> trainJobsFor(HasMetadata object, ObjectLookup cluster);
}
