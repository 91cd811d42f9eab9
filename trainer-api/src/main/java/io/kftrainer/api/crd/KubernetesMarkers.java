package io.kftrainer.api.crd;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Adds to a generated CRD schema the markers that k8s.io/api declares on the Kubernetes types embedded in it (pod
 * specs, containers, env, volumes, ...), as controller-gen writes them: {@code required},
 * {@code x-kubernetes-list-type} / {@code x-kubernetes-list-map-keys}, {@code x-kubernetes-map-type} and the
 * non-zero {@code default}s ({@code protocol: TCP}). fabric8's CRD generator drops them: without them an API server
 * accepts an env {@code configMapKeyRef} without {@code key}, and server-side apply treats keyed lists as atomic.
 *
 * <p>The markers come from {@value #RESOURCE}: the relevant part of the Kubernetes OpenAPI schema that fabric8's
 * {@code kubernetes-model-validator} of the fabric8 version in use ships, kept fresh by {@code KubernetesMarkersTest}.
 * Which schema node holds which Kubernetes type is found by walking the Java model from the CRD's class: the first
 * fabric8 model class on a path names the definition, and the definitions' references lead below it. Embedded
 * {@code ObjectMeta} gets nothing, as with controller-gen.
 */
public final class KubernetesMarkers {

  /** The markers file, on the class path. */
  public static final String RESOURCE = "/io/kftrainer/api/crd/kubernetes-markers.json";

  private static final String FABRIC8_MODEL = "io.fabric8.kubernetes.api.model";
  private static final Set<String> SKIPPED = Set.of("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");

  private final JsonNode definitions;

  public KubernetesMarkers(JsonNode definitions) {
    this.definitions = definitions;
  }

  /** The markers of {@value #RESOURCE}. */
  public static KubernetesMarkers load() {
    try (InputStream in = KubernetesMarkers.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      return new KubernetesMarkers(new ObjectMapper().readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds the markers to {@code schema}, the {@code openAPIV3Schema} of the custom resource {@code type}. */
  public void apply(ObjectNode schema, Class<? extends CustomResource<?, ?>> type) {
    visitEmbedded(type, schema, (node, definition) -> mark(node, definition));
  }

  /** The fabric8 model classes embedded in the custom resource {@code type}, at the top of their subtrees. */
  public static Set<Class<?>> embeddedTypes(Class<? extends CustomResource<?, ?>> type) {
    Set<Class<?>> types = new LinkedHashSet<>();
    walk(type, null, new LinkedHashSet<>(), (node, embedded) -> types.add(embedded));
    return types;
  }

  /** The OpenAPI definition of a fabric8 model class, e.g. {@code io.k8s.api.core.v1.Container}. */
  public static List<String> definitionCandidates(Class<?> fabric8Type) {
    String pkg = fabric8Type.getPackageName();
    String name = fabric8Type.getSimpleName();
    if (pkg.equals(FABRIC8_MODEL)) {
      return List.of("io.k8s.api.core.v1." + name, "io.k8s.apimachinery.pkg.apis.meta.v1." + name,
          "io.k8s.apimachinery.pkg.api.resource." + name, "io.k8s.apimachinery.pkg.util.intstr." + name);
    }
    return List.of("io.k8s.api." + pkg.substring(FABRIC8_MODEL.length() + 1) + "." + name);
  }

  private void visitEmbedded(Class<?> type, ObjectNode schema, BiConsumer<ObjectNode, String> action) {
    walk(type, schema, new LinkedHashSet<>(), (node, embedded) -> definitionOf(embedded)
        .filter(definition -> !SKIPPED.contains(definition))
        .ifPresent(definition -> action.accept(node, definition)));
  }

  private Optional<String> definitionOf(Class<?> fabric8Type) {
    return definitionCandidates(fabric8Type).stream().filter(definitions::has).findFirst();
  }

  /**
   * Walks the Java class {@code type} along the schema {@code node} (null: the class alone), calling
   * {@code embedded} with each fabric8 model class and its schema node.
   */
  private static void walk(Class<?> type, ObjectNode node, Set<Class<?>> path, BiConsumer<ObjectNode, Class<?>> embedded) {
    if (!path.add(type)) {
      return;
    }
    for (Class<?> c = type; c != null && c != Object.class && c != CustomResource.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) || field.getName().equals("metadata")) {
          continue;
        }
        JsonProperty property = field.getAnnotation(JsonProperty.class);
        String name = property != null && !property.value().isEmpty() ? property.value() : field.getName();
        ObjectNode child = node == null ? null : object(node.path("properties").get(name));
        if (node == null || child != null) {
          walkType(field.getGenericType(), child, path, embedded);
        }
      }
    }
    if (CustomResource.class.isAssignableFrom(type)
        && type.getGenericSuperclass() instanceof ParameterizedType resource) {
      String[] names = {"spec", "status"};
      for (int i = 0; i < 2; i++) {
        ObjectNode child = node == null ? null : object(node.path("properties").get(names[i]));
        if (node == null || child != null) {
          walkType(resource.getActualTypeArguments()[i], child, path, embedded);
        }
      }
    }
    path.remove(type);
  }

  private static void walkType(Type type, ObjectNode node, Set<Class<?>> path,
      BiConsumer<ObjectNode, Class<?>> embedded) {
    if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
      Type[] arguments = parameterized.getActualTypeArguments();
      if (Collection.class.isAssignableFrom(raw)) {
        walkType(arguments[0], node == null ? null : object(node.get("items")), path, embedded);
      } else if (Map.class.isAssignableFrom(raw)) {
        walkType(arguments[1], node == null ? null : object(node.get("additionalProperties")), path, embedded);
      }
      return;
    }
    if (!(type instanceof Class<?> c)) {
      return;
    }
    if (c.getName().startsWith(FABRIC8_MODEL + ".")) {
      embedded.accept(node, c);
    } else if (c.getName().startsWith("io.kftrainer.api.") && !c.isEnum()) {
      walk(c, node, path, embedded);
    }
  }

  /** Adds the markers of {@code definition} to {@code node}, then to its properties, recursively. */
  private void mark(ObjectNode node, String definition) {
    JsonNode markers = definitions.path(definition);
    if (node == null || markers.isMissingNode()) {
      return;
    }
    JsonNode properties = node.path("properties");
    ArrayNode required = null;
    for (JsonNode name : markers.path("required")) {
      if (properties.has(name.asText())) {
        required = required != null ? required : requiredOf(node);
        if (!contains(required, name.asText())) {
          required.add(name.asText());
        }
      }
    }
    if (markers.has("mapType")) {
      node.put("x-kubernetes-map-type", markers.get("mapType").asText());
    }
    markers.path("properties").properties().forEach(entry -> {
      ObjectNode property = object(properties.get(entry.getKey()));
      if (property == null) {
        return;
      }
      JsonNode marker = entry.getValue();
      if (marker.has("listType")) {
        property.put("x-kubernetes-list-type", marker.get("listType").asText());
      }
      if (marker.has("listMapKeys")) {
        property.set("x-kubernetes-list-map-keys", marker.get("listMapKeys").deepCopy());
      }
      if (marker.has("default") && !property.has("default")) {
        property.set("default", marker.get("default").deepCopy());
      }
      if (marker.has("ref")) {
        mark(property, marker.get("ref").asText());
      }
      if (marker.has("items")) {
        mark(object(property.get("items")), marker.get("items").asText());
      }
      if (marker.has("values")) {
        mark(object(property.get("additionalProperties")), marker.get("values").asText());
      }
    });
  }

  private static ArrayNode requiredOf(ObjectNode node) {
    return node.get("required") instanceof ArrayNode existing ? existing : node.putArray("required");
  }

  private static boolean contains(ArrayNode array, String value) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values.contains(value);
  }

  private static ObjectNode object(JsonNode node) {
    return node instanceof ObjectNode object ? object : null;
  }
}
