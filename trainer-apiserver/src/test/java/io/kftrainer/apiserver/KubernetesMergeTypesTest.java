package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code kubernetes-merge-types.json} ({@link MergeTypes}' built-in kinds) equal to the Kubernetes OpenAPI
 * schema that fabric8's {@code kubernetes-model-validator} ships for the fabric8 version in use (the source of
 * trainer-api's {@code kubernetes-markers.json} too): every kind of {@code io.k8s.api} and {@code ObjectMeta}, and
 * the definitions they reach, with only what merging needs: {@code $ref}s, {@code items},
 * {@code additionalProperties}, the list, map and patch markers, the defaults of list-map keys, and the names
 * of every object field (what {@code fieldValidation} checks). With
 * {@code -Dtrainer.updateMergeTypes=true} it rewrites the file.
 */
class KubernetesMergeTypesTest {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String OPENAPI = "/openshift-generated.json";
  private static final String REF_PREFIX = "#/definitions/";
  private static final List<String> MARKERS = List.of("x-kubernetes-list-type", "x-kubernetes-list-map-keys",
      "x-kubernetes-map-type", "x-kubernetes-patch-merge-key", "x-kubernetes-patch-strategy");

  @Test
  void theMergeTypesFileHoldsTheMarkersOfTheKubernetesSchema() throws IOException {
    JsonNode definitions;
    try (InputStream in = KubernetesMergeTypesTest.class.getResourceAsStream(OPENAPI)) {
      assertThat(in).as("%s of io.fabric8:kubernetes-model-validator", OPENAPI).isNotNull();
      definitions = JSON.readTree(in).path("definitions");
    }
    String expected = JSON.writeValueAsString(subset(definitions)) + "\n";
    Path file = Path.of("src/main/resources" + MergeTypes.RESOURCE);
    if (Boolean.getBoolean("trainer.updateMergeTypes")) {
      Files.writeString(file, expected, StandardCharsets.UTF_8);
      return;
    }
    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .as("%s is out of date with the Kubernetes schema; refresh with ./mvnw -pl trainer-apiserver test "
            + "-Dtest=KubernetesMergeTypesTest -Dtrainer.updateMergeTypes=true", file)
        .isEqualTo(expected);
  }

  private static ObjectNode subset(JsonNode definitions) {
    Deque<String> pending = new ArrayDeque<>();
    pending.add(MergeTypes.OBJECT_META);
    definitions.properties().forEach(e -> {
      JsonNode properties = e.getValue().path("properties");
      if (e.getKey().startsWith("io.k8s.api.") && properties.has("apiVersion") && properties.has("kind")
          && properties.has("metadata") && !properties.has("items")) {
        pending.add(e.getKey());
      }
    });
    TreeMap<String, ObjectNode> result = new TreeMap<>();
    TreeSet<String> seen = new TreeSet<>();
    while (!pending.isEmpty()) {
      String name = pending.pop();
      JsonNode definition = definitions.get(name);
      if (definition == null || !seen.add(name)) {
        continue;
      }
      ObjectNode type = JSON.createObjectNode();
      if (definition.has("x-kubernetes-map-type")) {
        type.set("x-kubernetes-map-type", definition.get("x-kubernetes-map-type"));
      }
      ObjectNode properties = JSON.createObjectNode();
      new TreeSet<>(iterable(definition.path("properties"))).forEach(key -> {
        JsonNode property = definition.path("properties").path(key);
        ObjectNode kept = JSON.createObjectNode();
        MARKERS.forEach(marker -> {
          if (property.has(marker)) {
            kept.set(marker, property.get(marker));
          }
        });
        reference(property).ifPresent(ref -> kept.put("$ref", ref));
        reference(property.path("items")).ifPresent(ref -> kept.putObject("items").put("$ref", ref));
        reference(property.path("additionalProperties"))
            .ifPresent(ref -> kept.putObject("additionalProperties").put("$ref", ref));
        kept.findValuesAsText("$ref").forEach(pending::add);
        // every field is kept, scalars as {}: a declared field is not a map key (FieldsV1 tells them apart), and a
        // field the type does not declare is an unknown field (fieldValidation, UnknownFields)
        properties.set(key, kept);
      });
      if (!properties.isEmpty()) {
        type.set("properties", properties);
      }
      result.put(name, type);
    }
    for (String name : seen) {
      for (JsonNode property : definitions.path(name).path("properties")) {
        keyDefaults(definitions, property, result);
      }
    }
    ObjectNode subset = JSON.createObjectNode();
    result.forEach(subset::set);
    return subset;
  }

  /**
   * The defaults of the key fields of a list-map's items that are not required (e.g. {@code ContainerPort.protocol:
   * TCP}; not {@code Container.name}, required), as trainer-api's {@code KubernetesMarkersTest} keeps them.
   */
  private static void keyDefaults(JsonNode definitions, JsonNode list, TreeMap<String, ObjectNode> result) {
    Optional<String> items = reference(list.path("items"));
    if (!"map".equals(list.path("x-kubernetes-list-type").asText()) || items.isEmpty()) {
      return;
    }
    JsonNode item = definitions.path(items.get());
    for (JsonNode key : list.path("x-kubernetes-list-map-keys")) {
      JsonNode value = item.path("properties").path(key.asText()).get("default");
      boolean required = false;
      for (JsonNode name : item.path("required")) {
        required |= name.asText().equals(key.asText());
      }
      if (value != null && !required) { // openapi-gen writes zero defaults for required fields too
        ObjectNode type = result.get(items.get());
        ObjectNode properties = type.has("properties") ? (ObjectNode) type.get("properties")
            : type.putObject("properties");
        ObjectNode property = properties.has(key.asText()) ? (ObjectNode) properties.get(key.asText())
            : properties.putObject(key.asText());
        property.set("default", value);
      }
    }
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static Optional<String> reference(JsonNode node) {
    JsonNode ref = node.path("$ref");
    return ref.isTextual() && ref.asText().startsWith(REF_PREFIX)
        ? Optional.of(ref.asText().substring(REF_PREFIX.length())) : Optional.empty();
  }
}
