package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.spi.ComponentBuilder;
import java.util.List;

/**
 * Checks what a {@link ComponentBuilder} returned before anything uses it: a list, and in it objects with a kind, an
 * API version and a name. Anything else is the builder's failure (a {@link PluginException} naming it), not a
 * {@code NullPointerException} of the runner or the operator far from its cause.
 */
final class BuiltObjects {

  private BuiltObjects() {
  }

  static List<? extends HasMetadata> checked(ComponentBuilder plugin, List<? extends HasMetadata> objects) {
    if (objects == null) {
      throw invalid(plugin, "returned null instead of a list");
    }
    for (int i = 0; i < objects.size(); i++) {
      HasMetadata object = objects.get(i);
      if (object == null) {
        throw invalid(plugin, "returned null as object " + i);
      }
      String kind = object.getKind();
      if (kind == null || kind.isEmpty() || object.getApiVersion() == null || object.getApiVersion().isEmpty()) {
        throw invalid(plugin, "returned object " + i + " without kind or apiVersion ("
            + object.getClass().getSimpleName() + ")");
      }
      if (object.getMetadata() == null || object.getMetadata().getName() == null
          || object.getMetadata().getName().isEmpty()) {
        throw invalid(plugin, "returned a " + kind + " without metadata.name");
      }
    }
    return objects;
  }

  private static PluginException invalid(ComponentBuilder plugin, String problem) {
    return new PluginException(plugin.name(), "ComponentBuilder", new IllegalStateException(problem));
  }
}
