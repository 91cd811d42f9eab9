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
 * cluster). Masked: the {@code data} values of a Secret (the built-in plugins' Secrets hold key material generated
 * anew for each build: MPI's SSH key pair, Flux's curve certificate; {@code render} prints them redacted; the keys
 * stay compared). The namespace is set to the one given, since {@code render} puts namespace-less input in
 * {@code default}, and so are the service domains ({@code .<namespace>.svc}) in string values, such as the Flux
 * brokers' addresses. Keys are sorted, so that {@link #toString()} is a stable, readable text to diff.
 */
public final class ComparableObject {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> SERVER_METADATA =
      List.of("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink");

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
    String own = metadata.path("namespace").asText("");
    metadata.put("namespace", namespace);
    JsonNode owners = metadata.get("ownerReferences");
    if (owners != null) {
      owners.forEach(owner -> ((ObjectNode) owner).remove("uid"));
    }
    if ("Secret".equals(copy.path("kind").asText()) && copy.get("data") instanceof ObjectNode data) {
      data.fieldNames().forEachRemaining(key -> data.put(key, "<random>"));
    }
    JsonNode comparable = sorted(copy);
    if (!own.isEmpty() && !own.equals(namespace)) {
      comparable = inNamespace(comparable, "." + own + ".svc", "." + namespace + ".svc");
    }
    return new ComparableObject((ObjectNode) comparable);
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

  /** The tree with the service domain of its namespace in every string moved to the namespace compared in. */
  private static JsonNode inNamespace(JsonNode node, String own, String target) {
    if (node.isTextual()) {
      return JsonNodeFactory.instance.textNode(node.asText().replace(own, target));
    }
    if (node instanceof ObjectNode object) {
      object.fieldNames().forEachRemaining(name -> object.set(name, inNamespace(object.get(name), own, target)));
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, inNamespace(array.get(i), own, target));
      }
    }
    return node;
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
