package io.kftrainer.cli.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * What {@code render} produced: the objects to apply, or the errors that prevent it (one line each, without
 * {@code Error:}), and the warnings either way.
 */
public record RenderResult(List<HasMetadata> objects, List<String> errors, List<String> warnings) {

  public RenderResult {
    objects = List.copyOf(objects);
    errors = List.copyOf(errors);
    warnings = List.copyOf(warnings);
  }

  public boolean succeeded() {
    return errors.isEmpty();
  }
}
