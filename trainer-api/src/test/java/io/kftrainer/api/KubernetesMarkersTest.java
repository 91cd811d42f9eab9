package io.kftrainer.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.CustomResource;
import io.kftrainer.api.crd.KubernetesMarkers;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code kubernetes-markers.json} (what {@link KubernetesMarkers} adds to the CRDs) equal to the markers of
 * the Kubernetes OpenAPI schema that fabric8's {@code kubernetes-model-validator} ships for the fabric8 version in
 * use, for every definition reachable from the Kubernetes types our CRDs embed. With
 * {@code -Dtrainer.updateCrds=true} it rewrites the file (then build again, so the CRDs are generated with it).
 *
 * <p>Kept per property: {@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys}, non-zero defaults
 * (openapi-gen writes zero values for every non-pointer field, controller-gen only what {@code +default} marks),
 * zero defaults of list-map keys that are not required (k8s.io/api marks those {@code +default}, e.g.
 * {@code LocalObjectReference.name}: the API server demands a key be required or defaulted), and the referenced
 * definitions; per definition: {@code required} and {@code x-kubernetes-map-type}. The {@code name} that
 * {@code LocalObjectReference} brings inline (into {@code configMapKeyRef}, {@code secretRef}, ...) is marked
 * {@code +default=""} in k8s.io/api: its default is kept too, recognised by its documentation.
 */
class KubernetesMarkersTest {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String OPENAPI = "/openshift-generated.json";
  private static final List<Class<? extends CustomResource<?, ?>>> RESOURCES = List.of(TrainJob.class,
      TrainingRuntime.class, ClusterTrainingRuntime.class);

  @Test
  void theMarkersFileHoldsTheMarkersOfTheKubernetesSchema() throws IOException {
    JsonNode definitions;
    try (InputStream in = KubernetesMarkersTest.class.getResourceAsStream(OPENAPI)) {
      assertThat(in).as("%s of io.fabric8:kubernetes-model-validator", OPENAPI).isNotNull();
      definitions = JSON.readTree(in).path("definitions");
    }
    String expected = JSON.writeValueAsString(subset(definitions)) + "\n";
    Path file = Path.of(System.getProperty("trainer.kubernetesMarkersFile",
        "src/main/resources/io/kftrainer/api/crd/kubernetes-markers.json"));

    if (Boolean.getBoolean("trainer.updateCrds")) {
      Files.writeString(file, expected, StandardCharsets.UTF_8);
      return;
    }
    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .as("%s is out of date with the Kubernetes schema; refresh with %s (then build again)", file,
            CrdManifestsUpToDateTest.REFRESH_COMMAND)
        .isEqualTo(expected);
  }

  private static ObjectNode subset(JsonNode definitions) {
    Deque<String> pending = new ArrayDeque<>();
    for (Class<? extends CustomResource<?, ?>> resource : RESOURCES) {
      KubernetesMarkers.embeddedTypes(resource).forEach(type -> KubernetesMarkers.definitionCandidates(type).stream()
          .filter(definitions::has).findFirst().ifPresent(pending::add));
    }
    java.util.Map<String, Set<String>> listMapKeys = listMapKeys(definitions);
    TreeMap<String, ObjectNode> result = new TreeMap<>();
    Set<String> seen = new TreeSet<>();
    while (!pending.isEmpty()) {
      String name = pending.pop();
      if (!seen.add(name)) {
        continue;
      }
      JsonNode definition = definitions.path(name);
      ObjectNode markers = JSON.createObjectNode();
      if (definition.path("required").isArray() && !definition.path("required").isEmpty()) {
        markers.set("required", definition.get("required").deepCopy());
      }
      if (definition.has("x-kubernetes-map-type")) {
        markers.put("mapType", definition.get("x-kubernetes-map-type").asText());
      }
      ObjectNode properties = JSON.createObjectNode();
      TreeSet<String> names = new TreeSet<>();
      definition.path("properties").fieldNames().forEachRemaining(names::add);
      names.forEach(key -> {
        JsonNode property = definition.path("properties").path(key);
        ObjectNode marker = JSON.createObjectNode();
        if (property.has("x-kubernetes-list-type")) {
          marker.put("listType", property.get("x-kubernetes-list-type").asText());
        }
        if (property.has("x-kubernetes-list-map-keys")) {
          marker.set("listMapKeys", property.get("x-kubernetes-list-map-keys").deepCopy());
        }
        boolean defaultedKey = listMapKeys.getOrDefault(name, Set.of()).contains(key)
            && !contains(definition.path("required"), key);
        if (property.has("default") && (defaultedKey || isReferentName(property) || !isZero(property.get("default")))) {
          marker.set("default", property.get("default").deepCopy());
        }
        reference(property).ifPresent(ref -> marker.put("ref", ref));
        reference(property.path("items")).ifPresent(ref -> marker.put("items", ref));
        reference(property.path("additionalProperties")).ifPresent(ref -> marker.put("values", ref));
        marker.properties().forEach(field -> {
          if (field.getKey().equals("ref") || field.getKey().equals("items") || field.getKey().equals("values")) {
            pending.add(field.getValue().asText());
          }
        });
        if (!marker.isEmpty()) {
          properties.set(key, marker);
        }
      });
      if (!properties.isEmpty()) {
        markers.set("properties", properties);
      }
      if (!markers.isEmpty()) {
        result.put(name, markers);
      }
    }
    ObjectNode subset = JSON.createObjectNode();
    result.forEach(subset::set);
    return subset;
  }

  /** Definition name → the properties that are list-map keys of some list of it. */
  private static java.util.Map<String, Set<String>> listMapKeys(JsonNode definitions) {
    java.util.Map<String, Set<String>> keys = new java.util.HashMap<>();
    definitions.forEach(definition -> definition.path("properties").forEach(property -> {
      if ("map".equals(property.path("x-kubernetes-list-type").asText())) {
        reference(property.path("items")).ifPresent(items -> property.path("x-kubernetes-list-map-keys")
            .forEach(key -> keys.computeIfAbsent(items, k -> new TreeSet<>()).add(key.asText())));
      }
    }));
    return keys;
  }

  private static boolean contains(JsonNode array, String value) {
    for (JsonNode item : array) {
      if (value.equals(item.asText())) {
        return true;
      }
    }
    return false;
  }

  /** The definition a property refers to: {@code $ref}, or the single {@code allOf} entry. */
  private static java.util.Optional<String> reference(JsonNode property) {
    JsonNode ref = property.path("$ref");
    if (ref.isMissingNode() && property.path("allOf") instanceof ArrayNode allOf && allOf.size() == 1) {
      ref = allOf.get(0).path("$ref");
    }
    return ref.isTextual() ? java.util.Optional.of(ref.asText().substring("#/definitions/".length()))
        : java.util.Optional.empty();
  }

  /** {@code LocalObjectReference.name}, inline in many selectors and sources: k8s.io/api marks it +default="". */
  private static boolean isReferentName(JsonNode property) {
    return property.path("description").asText().contains("This field is effectively required, but due to "
        + "backwards compatibility is allowed to be empty.");
  }

  private static boolean isZero(JsonNode value) {
    return value.isNull() || (value.isTextual() && value.asText().isEmpty()) || (value.isNumber()
        && value.asDouble() == 0) || (value.isBoolean() && !value.asBoolean()) || (value.isContainerNode()
        && value.isEmpty());
  }
}
