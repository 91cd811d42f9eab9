package io.kftrainer.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.spi.ObjectLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** An {@link ObjectLookup} over a fixed list of objects, standing in for the operator's caches. */
public final class InMemoryObjectLookup implements ObjectLookup {

  private final List<HasMetadata> objects;

  public InMemoryObjectLookup(List<? extends HasMetadata> objects) {
    this.objects = new ArrayList<>(objects);
  }

  public static InMemoryObjectLookup of(HasMetadata... objects) {
    return new InMemoryObjectLookup(List.of(objects));
  }

  @Override
  public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
    return list(type, namespace).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst();
  }

  @Override
  public <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
    return objects.stream()
        .filter(type::isInstance)
        .map(type::cast)
        .filter(o -> namespace == null || Objects.equals(namespace, o.getMetadata().getNamespace()))
        .toList();
  }
}
