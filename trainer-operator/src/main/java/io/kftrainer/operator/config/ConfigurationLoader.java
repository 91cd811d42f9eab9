package io.kftrainer.operator.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kftrainer.runtime.FieldErrorText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads upstream's Configuration file as upstream's manager does ({@code pkg/config/config.go}): strictly, with the
 * {@code apiVersion} and {@code kind} required, then defaulted ({@link Configuration#withDefaults()}) and checked
 * ({@link ConfigurationValidation}). Strict as Kubernetes' strict decoding: a field the type does not have, a field
 * given twice, or a value of the wrong type (a string for a port, a number for a duration) is an error naming the
 * field, so that a misspelt option cannot be silently ignored.
 */
public final class ConfigurationLoader {

  private static final ObjectMapper YAML = JsonMapper.builder(YAMLFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .build();

  private static final Logger LOG = LoggerFactory.getLogger(ConfigurationLoader.class);
  private static final String PROGRESS_SERVER = "progressServer";

  private ConfigurationLoader() {
  }

  /**
   * The defaulted, valid configuration of {@code file}.
   *
   * @throws ConfigurationException naming the file and every problem
   */
  public static Configuration load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ConfigurationException(file.toString(), List.of("cannot read the file: " + e));
    }
    return parse(text, file.toString());
  }

  /** As {@link #load}, from text; {@code source} names it in errors. */
  public static Configuration parse(String yaml, String source) {
    Configuration decoded = decode(yaml, source);
    Configuration defaulted = decoded.withDefaults();
    List<String> problems = new ArrayList<>();
    ConfigurationValidation.validate(defaulted).forEach(error -> problems.add(FieldErrorText.describe(error)));
    if (!problems.isEmpty()) {
      throw new ConfigurationException(source, problems);
    }
    return defaulted;
  }

  private static Configuration decode(String yaml, String source) {
    JsonNode tree;
    try {
      tree = YAML.readTree(yaml);
    } catch (JacksonException e) {
      throw new ConfigurationException(source, List.of(describe(e)));
    }
    if (tree == null || !tree.isObject()) {
      throw new ConfigurationException(source, List.of("the file must hold a " + Configuration.KIND + " object "
          + "(apiVersion: " + Configuration.API_VERSION + ", kind: " + Configuration.KIND + ")"));
    }
    List<String> problems = new ArrayList<>();
    typeMeta(tree, "apiVersion", Configuration.API_VERSION, problems);
    typeMeta(tree, "kind", Configuration.KIND, problems);
    renameProgressServer((ObjectNode) tree, source, problems);
    try {
      Configuration decoded = YAML.treeToValue(tree, Configuration.class);
      if (problems.isEmpty()) {
        return decoded;
      }
    } catch (JacksonException e) {
      problems.add(describe(e));
    }
    throw new ConfigurationException(source, problems);
  }

  /**
   * {@code progressServer}, the status server's section in upstream's first implementation of KEP-2779 (PR #3227,
   * renamed {@code statusServer} before its release), read as {@code statusServer} so that a file written then
   * still works; errors in it are reported under {@code statusServer}.
   */
  private static void renameProgressServer(ObjectNode tree, String source, List<String> problems) {
    JsonNode older = tree.remove(PROGRESS_SERVER);
    if (older == null) {
      return;
    }
    if (tree.has("statusServer")) {
      problems.add(PROGRESS_SERVER + ": Forbidden: the earlier name of statusServer: give only statusServer");
      return;
    }
    LOG.warn("{}: {} is the earlier name of statusServer: read as statusServer", source, PROGRESS_SERVER);
    tree.set("statusServer", older);
  }

  private static void typeMeta(JsonNode tree, String field, String expected, List<String> problems) {
    JsonNode value = tree.get(field);
    if (value == null || value.isNull() || value.asText().isEmpty()) {
      problems.add(field + ": Required value: must be " + expected);
    } else if (!value.isTextual() || !expected.equals(value.asText())) {
      problems.add(field + ": Unsupported value: \"" + value.asText() + "\": supported values: \"" + expected + "\"");
    }
  }

  /** A decoding problem as strict decoding words it: {@code unknown field "metrics.secureServign"}. */
  private static String describe(JacksonException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      return "unknown field \"" + path(unknown) + "\"";
    }
    if (e instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()
        && mismatch.getTargetType() != null) {
      return path(mismatch) + ": must be " + expected(mismatch.getTargetType());
    }
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return path(mapping) + ": " + firstLine(e.getOriginalMessage());
    }
    String location = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
    return "not a valid YAML document" + location + ": " + firstLine(e.getOriginalMessage());
  }

  /** What a field of {@code type} holds, in the words of a YAML reader. */
  private static String expected(Class<?> type) {
    if (type == Integer.class || type == int.class) {
      return "an integer";
    }
    if (type == Double.class || type == double.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "a mapping";
    }
    return Collection.class.isAssignableFrom(type) ? "a list" : "a " + type.getSimpleName();
  }

  /** {@code metrics.auth.enabled}, {@code tls.cipherSuites[1]}. */
  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : e.getPath()) {
      if (reference.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static String firstLine(String message) {
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
