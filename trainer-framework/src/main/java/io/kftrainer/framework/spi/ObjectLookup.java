package io.kftrainer.framework.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/**
 * A read-only view of objects observed in the cluster: the operator serves it from its informer caches, tests and
 * {@code render} from memory. Plugins must treat returned objects as read-only.
 *
 * <p>Only the kinds declared by some {@link WatchExtension} (and TrainJobs and runtimes) are visible; looking up
 * another kind returns nothing.
 */
public interface ObjectLookup {

  /** The object of this type, or empty; {@code namespace} is null for cluster-scoped kinds. */
  <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name);

  /** All objects of this type in a namespace ({@code null}: in every namespace). */
  <T extends HasMetadata> List<T> list(Class<T> type, String namespace);

  /** A lookup that sees nothing, as for an offline render of a job that does not exist yet. */
  static ObjectLookup empty() {
    return new ObjectLookup() {
      @Override
      public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
        return Optional.empty();
      }

      @Override
      public <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
        return List.of();
      }
    };
  }
}
