package io.kftrainer.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Test documents under {@code src/test/resources/documents}, read as plain Jackson trees (independent of the
 * model under test). A document of kind {@code List} stands for its items.
 */
final class Documents {

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final ObjectMapper JSON = new ObjectMapper();

  private Documents() {
  }

  static List<JsonNode> read(String name) {
    try (InputStream in = Documents.class.getResourceAsStream("/documents/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test document " + name);
      }
      JsonNode root = YAML.readTree(in);
      List<JsonNode> docs = new ArrayList<>();
      if ("List".equals(root.path("kind").asText())) {
        root.get("items").forEach(docs::add);
      } else {
        docs.add(root);
      }
      return docs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String yaml(JsonNode node) {
    try {
      return YAML.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode parseYaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode parseJson(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
