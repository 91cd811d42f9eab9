package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

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
   * Checks that the document is a Kubernetes object: a mapping with {@code apiVersion} and {@code kind}.
   *
   * @throws ManifestException if it is not
   */
  public void check() {
    if (!tree.isObject()) {
      throw new ManifestException(location(), "not a Kubernetes object (a YAML mapping)", null);
    }
    if (apiVersion().isEmpty() || kind().isEmpty()) {
      throw new ManifestException(location(), "not a Kubernetes object: apiVersion and kind are required", null);
    }
  }

  /**
   * The document as an object of the model.
   *
   * @throws ManifestException if the content does not fit the type, with a detail that names the field as the API
   *     server would: {@code spec.trainer.numNodes: Invalid value: "two": must be of type integer}
   */
  public <T extends HasMetadata> T as(Class<T> type) {
    try {
      return Serialization.kubernetes().convertValue(tree, type);
    } catch (IllegalArgumentException e) {
      throw new ManifestException(location(), describe(e.getCause() == null ? e : e.getCause()), e);
    }
  }

  /**
   * The fields of this document that {@code object} (read from it with {@link #as}) does not keep, e.g.
   * {@code spec.trainr}: misspelt or unknown to the model ({@link UnknownFields}).
   */
  public List<String> unknownFields(HasMetadata object) {
    return UnknownFields.find(tree, OutputFormat.tree(object));
  }

  private String describe(Throwable problem) {
    if (problem instanceof UnrecognizedPropertyException unknown) {
      return fieldPath(unknown) + ": unknown field";
    }
    if (problem instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      JsonNode value = tree.at(jsonPointer(mismatch));
      return fieldPath(mismatch) + ": Invalid value: " + value + ": must be of type "
          + jsonType(mismatch.getTargetType());
    }
    String message = problem instanceof JsonMappingException mapping ? mapping.getOriginalMessage()
        : problem.getMessage();
    String path = problem instanceof JsonMappingException mapping ? fieldPath(mapping) : "";
    return (path.isEmpty() ? "" : path + ": ") + ManifestReader.firstLine(message);
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
    return path.toString();
  }

  private static JsonPointer jsonPointer(JsonMappingException e) {
    JsonPointer pointer = JsonPointer.empty();
    for (JsonMappingException.Reference reference : e.getPath()) {
      pointer = reference.getFieldName() != null ? pointer.appendProperty(reference.getFieldName())
          : pointer.appendIndex(reference.getIndex());
    }
    return pointer;
  }

  /** The OpenAPI type a Java type is written as. */
  private static String jsonType(Class<?> type) {
    if (type == Integer.class || type == Long.class || type == int.class || type == long.class) {
      return "integer";
    } else if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
      return "number";
    } else if (type == Boolean.class || type == boolean.class) {
      return "boolean";
    } else if (type == String.class) {
      return "string";
    } else if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "array";
    }
    return "object";
  }

  /** {@code <source>, document <n>} for messages. */
  public String location() {
    return source + ", document " + document;
  }
}
