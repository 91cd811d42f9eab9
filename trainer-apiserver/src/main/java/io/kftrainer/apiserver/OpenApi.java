package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAPI documents for kubectl: v3 ({@code /openapi/v3}, {@code /openapi/v3/api/v1}, {@code /openapi/v3/apis/G/V})
 * and v2 ({@code /openapi/v2}, JSON only).
 *
 * <p>Each group version lists one PATCH operation per resource carrying {@code x-kubernetes-group-version-kind}, the
 * {@code fieldValidation} query parameter ({@link FieldValidation}) and the patch media types this server accepts:
 * kubectl checks them before it sends {@code fieldValidation=Strict} (without them {@code kubectl create/apply} fail
 * with "failed to download openapi"). Strategic merge patch is not listed, so client-side {@code kubectl apply} sends JSON merge patches for
 * custom resources, as with a real server.
 *
 * <p>Schemas are published for the kinds of the stored CRDs, as kube-apiserver builds them: the version's
 * {@code openAPIV3Schema} with {@code apiVersion}, {@code kind} and {@code metadata} (a reference to
 * {@code ObjectMeta}), named {@code <reversed group>.<version>.<Kind>} and tagged with
 * {@code x-kubernetes-group-version-kind}; this is what {@code kubectl explain} reads. Built-in kinds have no schema.
 * kubectl before 1.27 asks for v2 in protobuf only, which this server does not encode (406).
 */
final class OpenApi {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String PREFIX = "/openapi/v3";
  private static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
  private static final List<String> PATCH_TYPES = List.of("application/json-patch+json",
      "application/merge-patch+json", "application/apply-patch+yaml");

  private OpenApi() {
  }

  /** Answers {@code /openapi/v3[/...]}; null when {@code path} is something else. */
  static JsonNode handle(String path, Map<String, Map<String, List<ObjectNode>>> groups, List<JsonNode> crds,
      String serverVersion) {
    Map<String, ObjectNode> documents = new LinkedHashMap<>();
    groups.forEach((group, versions) -> versions.forEach((version, resources) -> documents.put(
        group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version,
        document(group, version, resources, crds, serverVersion))));
    if (path.equals(PREFIX) || path.equals(PREFIX + "/")) {
      ObjectNode index = NODES.objectNode();
      ObjectNode paths = index.putObject("paths");
      documents.forEach((key, document) -> paths.putObject(key)
          .put("serverRelativeURL", PREFIX + "/" + key + "?hash=" + hash(document.toString())));
      return index;
    }
    if (path.startsWith(PREFIX + "/")) {
      return documents.get(path.substring(PREFIX.length() + 1));
    }
    return null;
  }

  /** The Swagger 2.0 document of every CRD schema (the v2 endpoint: definitions only, no operations). */
  static JsonNode swagger(List<JsonNode> crds, String serverVersion) {
    ObjectNode doc = NODES.objectNode().put("swagger", "2.0");
    doc.putObject("info").put("title", "Kubernetes").put("version", serverVersion);
    doc.putObject("paths");
    ObjectNode definitions = doc.putObject("definitions");
    definitions.set(OBJECT_META, objectMeta());
    for (JsonNode crd : crds) {
      for (JsonNode version : crd.path("spec").path("versions")) {
        String group = crd.path("spec").path("group").asText();
        ObjectNode schema = kindSchema(crd, version, "#/definitions/");
        if (schema != null) {
          definitions.set(schemaName(group, version.path("name").asText(),
              crd.path("spec").path("names").path("kind").asText()), schema);
        }
      }
    }
    return doc;
  }

  private static ObjectNode document(String group, String version, List<ObjectNode> resources, List<JsonNode> crds,
      String serverVersion) {    ObjectNode doc = NODES.objectNode().put("openapi", "3.0.0");
    doc.putObject("info").put("title", "Kubernetes").put("version", serverVersion);
    ObjectNode paths = doc.putObject("paths");
    String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    for (ObjectNode resource : resources) {
      String name = resource.path("name").asText();
      if (name.contains("/")) {
        continue; // subresources: the main resource's operation is the one kubectl looks for
      }
      String path = prefix + (resource.path("namespaced").asBoolean() ? "/namespaces/{namespace}/" : "/") + name
          + "/{name}";
      ObjectNode patch = paths.putObject(path).putObject("patch");
      patch.put("operationId", "patch" + resource.path("kind").asText());
      patch.putObject("x-kubernetes-group-version-kind").put("group", group).put("version", version)
          .put("kind", resource.path("kind").asText());
      patch.put("x-kubernetes-action", "patch");
      ObjectNode parameter = patch.putArray("parameters").addObject();
      parameter.put("name", "fieldValidation").put("in", "query").put("description",
          "fieldValidation instructs the server on how to handle objects in the request containing unknown or "
              + "duplicate fields: Ignore drops unknown fields and keeps the last of repeated ones silently; Warn "
              + "(the default) does the same and answers a Warning header for each; Strict refuses the request "
              + "(BadRequest), naming every unknown and repeated field");
      parameter.putObject("schema").put("type", "string").put("uniqueItems", true);
      ObjectNode content = patch.putObject("requestBody").putObject("content");
      PATCH_TYPES.forEach(type -> content.putObject(type).putObject("schema").put("type", "object"));
      patch.putObject("responses").putObject("200").put("description", "OK");
    }
    ObjectNode schemas = doc.putObject("components").putObject("schemas");
    for (JsonNode crd : crds) {
      if (!crd.path("spec").path("group").asText().equals(group)) {
        continue;
      }
      for (JsonNode v : crd.path("spec").path("versions")) {
        ObjectNode schema = v.path("name").asText().equals(version) ? kindSchema(crd, v, "#/components/schemas/")
            : null;
        if (schema != null) {
          schemas.set(schemaName(group, version, crd.path("spec").path("names").path("kind").asText()), schema);
          schemas.set(OBJECT_META, objectMeta());
        }
      }
    }
    return doc;
  }

  /** {@code trainer.kubeflow.org}, {@code v1alpha1}, {@code TrainJob} -> {@code org.kubeflow.trainer.v1alpha1.TrainJob}. */
  static String schemaName(String group, String version, String kind) {
    List<String> parts = new java.util.ArrayList<>(List.of(group.split("\\.")));
    java.util.Collections.reverse(parts);
    return String.join(".", parts) + "." + version + "." + kind;
  }

  private static ObjectNode kindSchema(JsonNode crd, JsonNode version, String refPrefix) {
    JsonNode source = version.path("schema").path("openAPIV3Schema");
    if (!source.isObject()) {
      return null;
    }
    ObjectNode schema = ((ObjectNode) source).deepCopy();
    ObjectNode properties = schema.has("properties") ? (ObjectNode) schema.get("properties")
        : schema.putObject("properties");
    properties.putObject("apiVersion").put("type", "string").put("description", "APIVersion defines the versioned "
        + "schema of this representation of an object. Servers should convert recognized schemas to the latest "
        + "internal value, and may reject unrecognized values.");
    properties.putObject("kind").put("type", "string").put("description", "Kind is a string value representing the "
        + "REST resource this object represents. Servers may infer this from the endpoint the client submits "
        + "requests to. Cannot be updated. In CamelCase.");
    ObjectNode metadata = properties.putObject("metadata");
    metadata.put("description", "Standard object's metadata.");
    metadata.putArray("allOf").addObject().put("$ref", refPrefix + OBJECT_META);
    schema.putArray("x-kubernetes-group-version-kind").addObject()
        .put("group", crd.path("spec").path("group").asText())
        .put("kind", crd.path("spec").path("names").path("kind").asText())
        .put("version", version.path("name").asText());
    return schema;
  }

  private static ObjectNode objectMeta() {
    ObjectNode meta = NODES.objectNode().put("type", "object").put("description", "ObjectMeta is metadata that all "
        + "persisted resources must have, which includes all objects users must create.");
    ObjectNode properties = meta.putObject("properties");
    string(properties, "name", "Name must be unique within a namespace.");
    string(properties, "generateName", "An optional prefix, used by the server, to generate a unique name.");
    string(properties, "namespace", "Namespace defines the space within which each name must be unique.");
    string(properties, "uid", "UID is the unique in time and space value for this object.");
    string(properties, "resourceVersion", "An opaque value that represents the internal version of this object.");
    properties.putObject("generation").put("type", "integer").put("format", "int64")
        .put("description", "A sequence number representing a specific generation of the desired state.");
    string(properties, "creationTimestamp", "The time this object was created (RFC 3339).");
    string(properties, "deletionTimestamp", "The time this object will be deleted (RFC 3339).");
    for (String map : List.of("labels", "annotations")) {
      properties.putObject(map).put("type", "object").put("description", "Map of string keys and values.")
          .putObject("additionalProperties").put("type", "string");
    }
    properties.putObject("finalizers").put("type", "array").put("description",
        "Must be empty before the object is deleted from the registry.").putObject("items").put("type", "string");
    properties.putObject("ownerReferences").put("type", "array").put("description",
        "List of objects depended by this object.").putObject("items").put("type", "object");
    return meta;
  }

  private static void string(ObjectNode properties, String name, String description) {
    properties.putObject(name).put("type", "string").put("description", description);
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().withUpperCase().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
