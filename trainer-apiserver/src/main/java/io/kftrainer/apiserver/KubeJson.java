package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Kubernetes objects as Jackson trees: request bodies decoded, metadata, timestamps. */
final class KubeJson {

  private static final String METADATA = "metadata";
  private static final ObjectMapper JSON_MAPPER = Json.MAPPER;
  private static final ObjectMapper YAML_MAPPER = new ObjectMapper(new YAMLFactory());

  private KubeJson() {
  }

  static JsonNode parseYamlOrJson(byte[] body) throws IOException {
    String text = new String(body, StandardCharsets.UTF_8).trim();
    return text.startsWith("{") || text.startsWith("[") ? JSON_MAPPER.readTree(text) : YAML_MAPPER.readTree(text);
  }

  static ObjectNode parseObject(byte[] body, String contentType) {
    JsonNode node;
    try {
      node = contentType != null && contentType.contains("yaml") ? parseYamlOrJson(body) : JSON_MAPPER.readTree(body);
    } catch (IOException e) {
      throw new ApiException(Response.status(400, "BadRequest", "the body of the request could not be decoded: "
          + e.getMessage()));
    }
    if (node == null || !node.isObject()) {
      throw new ApiException(Response.status(400, "BadRequest", "the body of the request is not a JSON object"));
    }
    return (ObjectNode) node;
  }

  static ObjectNode metadata(ObjectNode object) {
    JsonNode metadata = object.get(METADATA);
    if (metadata == null || !metadata.isObject()) {
      return object.putObject(METADATA);
    }
    return (ObjectNode) metadata;
  }

  static void setOrRemove(ObjectNode node, String field, JsonNode value) {
    if (value == null || value.isNull()) {
      node.remove(field);
    } else {
      node.set(field, value.deepCopy());
    }
  }

  /** Kubernetes timestamps: RFC 3339 in UTC, whole seconds. */
  static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
  }
}
