package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.Collections;
import java.util.List;

/**
 * The outcome of the build phase: the objects to apply, in builder order then the order each builder returned
 * them, the final runtime info they were built from, and for each object the name of the plugin that built it (so
 * that an object the API server refuses is reported with its plugin).
 */
public record BuildResult(List<HasMetadata> objects, RuntimeInfo info, List<String> builders) {

  public BuildResult {
    objects = List.copyOf(objects);
    builders = List.copyOf(builders);
    if (builders.size() != objects.size()) {
      throw new IllegalArgumentException(objects.size() + " objects but " + builders.size() + " builders");
    }
  }

  /** A result whose builders are not known (empty names). */
  public BuildResult(List<HasMetadata> objects, RuntimeInfo info) {
    this(objects, info, Collections.nCopies(objects.size(), ""));
  }
}
