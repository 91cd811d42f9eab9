package io.kftrainer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Objects rendered by helm or kustomize, parsed as the API would receive them: built-in kinds typed (fabric8's
 * model of the Kubernetes API), custom resources and CRDs generic.
 */
public record Rendered(List<HasMetadata> objects) {

  public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  public static Rendered parse(String yaml) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String document : yaml.split("(?m)^---\\s*$")) {
      if (document.lines().allMatch(line -> line.isBlank() || line.trim().startsWith("#"))) {
        continue;
      }
      Object parsed = SERIALIZATION.unmarshal(document);
      if (parsed instanceof HasMetadata object) {
        objects.add(object);
      } else if (parsed instanceof List<?> list) {
        list.forEach(item -> objects.add((HasMetadata) item));
      }
    }
    return new Rendered(List.copyOf(objects));
  }

  public <T extends HasMetadata> List<T> ofKind(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  public List<HasMetadata> ofKind(String kind) {
    return objects.stream().filter(o -> o.getKind().equals(kind)).toList();
  }

  public <T extends HasMetadata> T get(Class<T> type, String name) {
    return find(type, name).orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name
        + " among " + names()));
  }

  public <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
    return ofKind(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst();
  }

  /** {@code Kind/name} of each object, in order. */
  public List<String> names() {
    return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList();
  }

  /**
   * Asserts that no built-in object has a field its Kubernetes schema does not know (fabric8 keeps such a field,
   * a misspelt one say, in additionalProperties instead of failing; the API server would refuse it under strict
   * field validation, or drop it).
   */
  public void assertOnlyKnownFields() {
    List<String> unknown = new ArrayList<>();
    for (HasMetadata object : objects) {
      if (!(object instanceof GenericKubernetesResource)) {
        collectUnknownFields(object, object.getKind() + "/" + object.getMetadata().getName(), unknown);
      }
    }
    assertThat(unknown).as("fields unknown to the Kubernetes API").isEmpty();
  }

  private static void collectUnknownFields(Object value, String path, List<String> found) {
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        collectUnknownFields(list.get(i), path + "[" + i + "]", found);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> collectUnknownFields(v, path + "." + k, found));
      return;
    }
    if (value == null || !value.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
          || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      Object child;
      try {
        child = getter.invoke(value);
      } catch (IllegalAccessException | InvocationTargetException e) {
        continue;
      }
      if (getter.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          found.add(path + ": " + extra.keySet());
        }
        continue;
      }
      String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
      collectUnknownFields(child, path + "." + field, found);
    }
  }

  @Override
  public String toString() {
    return Objects.toString(names());
  }
}
