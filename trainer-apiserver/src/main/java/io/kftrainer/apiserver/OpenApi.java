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
 * A minimal OpenAPI v3 surface ({@code /openapi/v3} and {@code /openapi/v3/api/v1}, {@code /openapi/v3/apis/G/V}):
 * one PATCH operation per resource carrying {@code x-kubernetes-group-version-kind}, the {@code fieldValidation}
 * query parameter and the patch media types this server accepts. That is what kubectl checks before it sends
 * {@code fieldValidation=Strict} instead of validating on the client against a schema (without it,
 * {@code kubectl create/apply} fail with "failed to download openapi"). No schemas are published: {@code kubectl
 * explain} finds nothing, and {@code kubectl apply} (client-side) computes its patches from its built-in types, or a
 * JSON merge patch for custom resources, exactly as with a real server that does not list strategic merge patch.
 */
final class OpenApi {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String PREFIX = "/openapi/v3";
  private static final List<String> PATCH_TYPES = List.of("application/json-patch+json",
      "application/merge-patch+json", "application/apply-patch+yaml");

  private OpenApi() {
  }

  /** Answers {@code /openapi/v3[/...]}; null when {@code path} is something else. */
  static JsonNode handle(String path, Map<String, Map<String, List<ObjectNode>>> groups, String serverVersion) {
    Map<String, ObjectNode> documents = new LinkedHashMap<>();
    groups.forEach((group, versions) -> versions.forEach((version, resources) -> documents.put(
        group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version,
        document(group, version, resources, serverVersion))));
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

  private static ObjectNode document(String group, String version, List<ObjectNode> resources, String serverVersion) {
    ObjectNode doc = NODES.objectNode().put("openapi", "3.0.0");
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
              + "duplicate fields (accepted and ignored by this server)");
      parameter.putObject("schema").put("type", "string").put("uniqueItems", true);
      ObjectNode content = patch.putObject("requestBody").putObject("content");
      PATCH_TYPES.forEach(type -> content.putObject(type).putObject("schema").put("type", "object"));
      patch.putObject("responses").putObject("200").put("description", "OK");
    }
    doc.putObject("components").putObject("schemas");
    return doc;
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
