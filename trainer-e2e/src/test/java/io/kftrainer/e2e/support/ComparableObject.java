package io.kftrainer.e2e.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * An object's JSON tree with what the API server, not the operator, decides taken out, so that what {@code render}
 * prints and what the operator applied in a cluster compare equal exactly when they have the same content.
 *
 * <p>Dropped: {@code status}; {@code metadata.uid}, {@code resourceVersion}, {@code creationTimestamp},
 * {@code generation}, {@code managedFields}; the {@code uid} of owner references (the owner's uid only exists in a
 * cluster). Masked: the {@code data} values of an SSH-auth Secret (a fresh random key pair each time; the keys stay
 * compared). The namespace is set to the one given, since {@code render} puts namespace-less input in
 * {@code default}. Keys are sorted, so that {@link #toString()} is a stable, readable text to diff.
 */
public final class ComparableObject {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> SERVER_METADATA =
      List.of("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink");
  private static final String SSH_AUTH = "kubernetes.io/ssh-auth";

  private final ObjectNode tree;

  private ComparableObject(ObjectNode tree) {
    this.tree = tree;
  }

  /**
   * @param object the JSON tree of one object (left unchanged)
   * @param namespace the namespace to compare in
   */
  public static ComparableObject of(JsonNode object, String namespace) {
    ObjectNode copy = object.deepCopy();
    copy.remove("status");
    ObjectNode metadata = (ObjectNode) copy.get("metadata");
    SERVER_METADATA.forEach(metadata::remove);
    metadata.put("namespace", namespace);
    JsonNode owners = metadata.get("ownerReferences");
    if (owners != null) {
      owners.forEach(owner -> ((ObjectNode) owner).remove("uid"));
    }
    if ("Secret".equals(copy.path("kind").asText()) && SSH_AUTH.equals(copy.path("type").asText())
        && copy.get("data") instanceof ObjectNode data) {
      data.fieldNames().forEachRemaining(key -> data.put(key, "<random>"));
    }
    return new ComparableObject((ObjectNode) sorted(copy));
  }

  /** {@code <apiVersion> <Kind> <name>}: what identifies the object within a namespace. */
  public String identity() {
    return tree.path("apiVersion").asText() + " " + tree.path("kind").asText() + " "
        + tree.path("metadata").path("name").asText();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ComparableObject that && tree.equals(that.tree);
  }

  @Override
  public int hashCode() {
    return tree.hashCode();
  }

  /** Indented JSON with sorted keys. */
  @Override
  public String toString() {
    try {
      return JSON.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode sorted(JsonNode node) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      names.forEach(name -> copy.set(name, sorted(object.get(name))));
      return copy;
    }
    if (node instanceof ArrayNode array) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      array.forEach(element -> copy.add(sorted(element)));
      return copy;
    }
    return node;
  }
}
