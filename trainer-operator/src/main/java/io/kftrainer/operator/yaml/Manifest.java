package io.kftrainer.operator.yaml;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * One document of a manifest file: where it came from (source and 1-based position among the file's non-empty
 * documents) and its content as a JSON tree.
 */
public record Manifest(String source, int document, JsonNode tree) {

  public String apiVersion() {
    return tree.path("apiVersion").asText("");
  }

  public String kind() {
    return tree.path("kind").asText("");
  }

  public String name() {
    return tree.path("metadata").path("name").asText("");
  }

  public String namespace() {
    return tree.path("metadata").path("namespace").asText("");
  }

  /**
   * The document as an object of the model.
   *
   * @throws ManifestException if the content does not fit the type, naming the field ({@code spec.trainer.numNodes:
   *     ...})
   */
  public <T extends HasMetadata> T as(Class<T> type) {
    try {
      return Serialization.kubernetes().convertValue(tree, type);
    } catch (IllegalArgumentException e) {
      String detail = e.getCause() instanceof JsonMappingException mapping
          ? fieldPath(mapping) + ManifestReader.firstLine(mapping.getOriginalMessage())
          : ManifestReader.firstLine(e.getMessage());
      throw new ManifestException(location(), detail, e);
    }
  }

  private static String fieldPath(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : e.getPath()) {
      if (reference.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? "" : path + ": ";
  }

  /** {@code <source>, document <n>} for messages. */
  public String location() {
    return source + ", document " + document;
  }
}
