package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.kftrainer.framework.merge.PatchMeta;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The merge semantics of one place of an object, read from an OpenAPI schema node: a CRD's
 * {@code openAPIV3Schema}, or a Kubernetes definition of {@link MergeTypes} whose {@code $ref}s name other
 * definitions. What server-side apply needs ({@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys} and
 * their defaults, {@code x-kubernetes-map-type}) and what strategic merge patch needs
 * ({@code x-kubernetes-patch-merge-key}, {@code x-kubernetes-patch-strategy}: a {@link PatchMeta}).
 *
 * <p>A place without a schema is "deduced", as in structured-merge-diff: objects merge by field, lists are atomic.
 */
final class MergeType implements PatchMeta {

  enum ListType {
    ATOMIC, SET, MAP
  }

  static final MergeType DEDUCED = new MergeType(MissingNode.getInstance(), name -> MissingNode.getInstance(), null);

  private final JsonNode schema;
  private final Function<String, JsonNode> definitions;
  /** The type of {@code metadata} at the root of a kind; null below the root. */
  private final MergeType rootMetadata;

  private MergeType(JsonNode schema, Function<String, JsonNode> definitions, MergeType rootMetadata) {
    this.schema = resolve(schema, definitions);
    this.definitions = definitions;
    this.rootMetadata = rootMetadata;
  }

  /** The root type of a kind: {@code schema} with {@code $ref}s resolved by {@code definitions}. */
  static MergeType root(JsonNode schema, Function<String, JsonNode> definitions, MergeType objectMeta) {
    return new MergeType(schema, definitions, objectMeta);
  }

  private static JsonNode resolve(JsonNode schema, Function<String, JsonNode> definitions) {
    JsonNode current = schema;
    for (int depth = 0; depth < 8 && current.has("$ref"); depth++) {
      current = definitions.apply(current.get("$ref").asText());
    }
    return current == null ? MissingNode.getInstance() : current;
  }

  /** The type of the field {@code name} of an object, or of its values when it is a map. */
  @Override
  public MergeType field(String name) {
    if (rootMetadata != null && name.equals("metadata")) {
      return rootMetadata;
    }
    JsonNode property = schema.path("properties").get(name);
    if (property == null && schema.path("additionalProperties").isObject()) {
      property = schema.get("additionalProperties");
    }
    return property == null ? DEDUCED : new MergeType(property, definitions, null);
  }

  /** Whether {@code name} is a declared field (a struct member), not a key of a map. */
  boolean declares(String name) {
    return (rootMetadata != null && name.equals("metadata")) || schema.path("properties").has(name);
  }

  /**
   * Whether an object of this type may hold the field {@code name}, as structured-merge-diff types an object and
   * kube-apiserver's decoder reads one: any name where the type leaves its fields open (a map, an object under
   * {@code x-kubernetes-preserve-unknown-fields}, an object without declared fields, a place without a schema);
   * otherwise the declared fields, and {@code apiVersion}, {@code kind} and {@code metadata} at the root of a kind
   * or of an {@code x-kubernetes-embedded-resource}.
   */
  boolean allows(String name) {
    boolean closed = schema.has("properties") && !schema.has("additionalProperties")
        && !schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (!closed || declares(name)) {
      return true;
    }
    boolean resourceRoot = rootMetadata != null || schema.path("x-kubernetes-embedded-resource").asBoolean(false);
    return resourceRoot && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"));
  }

  /** {@code x-kubernetes-map-type: atomic}: the object is replaced and owned whole. */
  boolean atomicMap() {
    return "atomic".equals(schema.path("x-kubernetes-map-type").asText());
  }

  @Override
  public MergeType items() {
    JsonNode items = schema.get("items");
    return items == null ? DEDUCED : new MergeType(items, definitions, null);
  }

  /** {@code x-kubernetes-list-type}; lists without one are atomic, as in Kubernetes. */
  ListType listType() {
    switch (schema.path("x-kubernetes-list-type").asText()) {
      case "set":
        return ListType.SET;
      case "map":
        return ListType.MAP;
      default:
        return ListType.ATOMIC;
    }
  }

  /** {@code x-kubernetes-list-map-keys}, in the schema's order. */
  List<String> listMapKeys() {
    List<String> keys = new ArrayList<>();
    schema.path("x-kubernetes-list-map-keys").forEach(key -> keys.add(key.asText()));
    return keys;
  }

  /** The default of a list-map key field of the items (e.g. {@code protocol: TCP} of container ports), or null. */
  JsonNode keyDefault(String key) {
    JsonNode value = items().schema.path("properties").path(key).get("default");
    return value == null || value.isNull() ? null : value;
  }

  /** {@code x-kubernetes-patch-merge-key}, or null. */
  @Override
  public String patchMergeKey() {
    JsonNode key = schema.get("x-kubernetes-patch-merge-key");
    return key == null ? null : key.asText();
  }

  /** {@code x-kubernetes-patch-strategy}: {@code merge}, {@code replace}, {@code retainKeys}, comma-separated. */
  @Override
  public Set<String> patchStrategies() {
    String value = schema.path("x-kubernetes-patch-strategy").asText("");
    return value.isEmpty() ? Set.of() : Set.of(value.split(","));
  }
}
