package io.kftrainer.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * What kube-apiserver does to a custom resource before it stores it, for a set of CRDs: prune unknown fields, apply
 * defaults, then validate the name (an RFC 1123 subdomain) and the version's {@link StructuralSchema}. Used by the
 * embedded API server on every create and update, and by {@code render} so that it rejects what a cluster would.
 */
public final class CustomResourceValidator {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** group/version/kind -> schema of that CRD version. */
  private final Map<String, StructuralSchema> schemas = new ConcurrentHashMap<>();

  private CustomResourceValidator(Collection<JsonNode> crds) {
    for (JsonNode crd : crds) {
      JsonNode spec = crd.path("spec");
      for (JsonNode version : spec.path("versions")) {
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        if (schema.isObject()) {
          schemas.put(key(spec.path("group").asText() + "/" + version.path("name").asText(),
              spec.path("names").path("kind").asText()), StructuralSchema.of(schema));
        }
      }
    }
  }

  /** A validator for CRDs as JSON trees (apiextensions.k8s.io/v1). */
  public static CustomResourceValidator ofJson(Collection<JsonNode> crds) {
    return new CustomResourceValidator(crds);
  }

  public static CustomResourceValidator of(Collection<CustomResourceDefinition> crds) {
    List<JsonNode> trees = new ArrayList<>();
    crds.forEach(crd -> trees.add(MAPPER.valueToTree(crd)));
    return new CustomResourceValidator(trees);
  }

  private static String key(String apiVersion, String kind) {
    return apiVersion + "/" + kind;
  }

  /** The schema of {@code apiVersion}/{@code kind}, when one of the CRDs defines it. */
  public Optional<StructuralSchema> schema(String apiVersion, String kind) {
    return Optional.ofNullable(schemas.get(key(apiVersion, kind)));
  }

  /**
   * Removes the fields the schema of the object's kind does not declare and returns their paths
   * ({@link StructuralSchema#prune}); nothing for objects of other kinds. What kube-apiserver's decoder reports as
   * {@code unknown field "spec.x"} when a request asks for {@code fieldValidation=Warn} or {@code Strict}.
   */
  public List<String> prune(ObjectNode object) {
    return schema(object.path("apiVersion").asText(), object.path("kind").asText())
        .map(schema -> schema.prune(object)).orElse(List.of());
  }

  /** Prunes unknown fields and applies defaults in place; objects of other kinds are left alone. */
  public void prepare(ObjectNode object) {
    schema(object.path("apiVersion").asText(), object.path("kind").asText()).ifPresent(schema -> {
      schema.prune(object);
      schema.applyDefaults(object);
    });
  }

  /**
   * The errors of {@code object} ({@code oldObject} for an update's transition rules, else null); empty when valid
   * or when no CRD defines its kind.
   */
  public List<SchemaFieldError> validate(JsonNode object, JsonNode oldObject) {
    Optional<StructuralSchema> schema = schema(object.path("apiVersion").asText(), object.path("kind").asText());
    if (schema.isEmpty()) {
      return List.of();
    }
    List<SchemaFieldError> errors = new ArrayList<>();
    String name = object.path("metadata").path("name").asText("");
    if (!name.isEmpty() && (name.length() > 253 || !DNS1123_SUBDOMAIN.matcher(name).matches())) {
      errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, "metadata.name", StructuralSchema.render(
          object.path("metadata").path("name")), "a lowercase RFC 1123 subdomain must consist of lower case "
          + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
          + "'example.com', regex used for validation is "
          + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
    }
    errors.addAll(schema.get().validate(object, oldObject));
    return errors;
  }

  /**
   * kube-apiserver's message for a rejected object: {@code TrainJob.trainer.kubeflow.org "x" is invalid: ...}, the
   * errors in brackets when there are several, each once (as kube's {@code ErrorList.ToAggregate}).
   */
  public static String message(String kind, String group, String name, List<SchemaFieldError> errors) {
    List<String> causes = new ArrayList<>(new LinkedHashSet<>(errors.stream().map(SchemaFieldError::toString).toList()));
    return kind + (group.isEmpty() ? "" : "." + group) + " \"" + name + "\" is invalid: "
        + (causes.size() == 1 ? causes.get(0) : "[" + String.join(", ", causes) + "]");
  }
}
