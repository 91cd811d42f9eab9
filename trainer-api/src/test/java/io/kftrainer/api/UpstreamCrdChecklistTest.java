package io.kftrainer.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our generated CRDs against an upstream-shaped checklist ({@code upstream-crd-checklist.yaml}): at each listed
 * place, the type, required fields, list type and keys, map type and default that upstream's controller-gen CRDs
 * carry, mostly from the k8s.io/api markers of the embedded Kubernetes types; and the printer columns in upstream's
 * order.
 */
class UpstreamCrdChecklistTest {

  private static final JsonNode CHECKLIST = checklist();

  static Stream<String> crds() {
    List<String> names = new ArrayList<>();
    CHECKLIST.path("crds").fieldNames().forEachRemaining(names::add);
    return names.stream();
  }

  @ParameterizedTest(name = "{0} has upstream's markers at every place of the checklist")
  @MethodSource("crds")
  void theCrdMatchesTheChecklist(String name) {
    CustomResourceDefinition crd = GeneratedCrdSchemaTest.crd(name);
    JsonNode schema = new ObjectMapper().valueToTree(
        GeneratedCrdSchemaTest.onlyVersion(crd).getSchema().getOpenAPIV3Schema());
    JsonNode expected = CHECKLIST.path("crds").path(name);
    List<String> problems = new ArrayList<>();

    expected.path("nodes").properties().forEach(entry -> {
      String path = expand(entry.getKey());
      JsonNode node = at(schema, path);
      if (node == null) {
        problems.add(path + ": missing");
        return;
      }
      JsonNode want = entry.getValue();
      check(problems, path, "type", want.path("type"), node.path("type"));
      check(problems, path, "x-kubernetes-list-type", want.path("listType"), node.path("x-kubernetes-list-type"));
      check(problems, path, "x-kubernetes-list-map-keys", want.path("listMapKeys"),
          node.path("x-kubernetes-list-map-keys"));
      check(problems, path, "x-kubernetes-map-type", want.path("mapType"), node.path("x-kubernetes-map-type"));
      check(problems, path, "default", want.path("default"), node.path("default"));
      List<String> required = new ArrayList<>();
      node.path("required").forEach(r -> required.add(r.asText()));
      want.path("required").forEach(r -> {
        if (!required.contains(r.asText())) {
          problems.add(path + ": " + r.asText() + " is not required (required: " + required + ")");
        }
      });
    });
    assertThat(problems).as("differences from upstream's CRD %s", name).isEmpty();

    if (expected.has("printerColumns")) {
      List<String> columns = new ArrayList<>();
      expected.path("printerColumns").forEach(c -> columns.add(c.asText()));
      assertThat(GeneratedCrdSchemaTest.onlyVersion(crd).getAdditionalPrinterColumns())
          .extracting(CustomResourceColumnDefinition::getName).containsExactlyElementsOf(columns);
    }
  }

  private static void check(List<String> problems, String path, String what, JsonNode want, JsonNode actual) {
    if (!want.isMissingNode() && !want.equals(actual)) {
      problems.add(path + ": " + what + " is " + (actual.isMissingNode() ? "absent" : actual) + ", upstream " + want);
    }
  }

  private static String expand(String path) {
    StringBuilder expanded = new StringBuilder();
    CHECKLIST.path("aliases").properties().forEach(alias -> {
      if (expanded.isEmpty() && (path.equals(alias.getKey()) || path.startsWith(alias.getKey() + "."))) {
        expanded.append(alias.getValue().asText()).append(path.substring(alias.getKey().length()));
      }
    });
    return expanded.isEmpty() ? path : expanded.toString();
  }

  /** The schema node at a dotted path; {@code []} steps into the items. Null when absent. */
  private static JsonNode at(JsonNode schema, String path) {
    JsonNode node = schema;
    for (String segment : path.split("\\.")) {
      boolean items = segment.endsWith("[]");
      node = node.path("properties").path(items ? segment.substring(0, segment.length() - 2) : segment);
      if (items) {
        node = node.path("items");
      }
      if (node.isMissingNode()) {
        return null;
      }
    }
    return node;
  }

  private static JsonNode checklist() {
    try (InputStream in = UpstreamCrdChecklistTest.class.getResourceAsStream("/upstream-crd-checklist.yaml")) {
      return new ObjectMapper(new YAMLFactory()).readTree(in);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
