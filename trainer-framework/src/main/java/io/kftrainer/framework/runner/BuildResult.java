package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.List;

/**
 * The outcome of the build phase: the objects to apply, in builder order then the order each builder returned
 * them, and the final runtime info they were built from.
 */
public record BuildResult(List<HasMetadata> objects, RuntimeInfo info) {

  public BuildResult {
    objects = List.copyOf(objects);
  }
}
