package io.kftrainer.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Readable YAML for golden files: no document marker noise, minimal quotes, stable field order. */
public final class Yaml {

  private static final YAMLFactory FACTORY = YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .disable(YAMLGenerator.Feature.SPLIT_LINES)
      .build();
  private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

  private Yaml() {
  }

  /** One object as YAML, through fabric8's serialization (so model annotations apply). */
  public static String dump(Object object) {
    return dumpTree(tree(object));
  }

  /** Several objects as one multi-document YAML text. */
  public static String dumpAll(List<?> objects) {
    StringBuilder out = new StringBuilder();
    for (Object object : objects) {
      out.append("---\n").append(dump(object));
    }
    return out.toString();
  }

  /** The JSON tree of an object as fabric8 serializes it. */
  public static JsonNode tree(Object object) {
    return Fixtures.serialization().convertValue(object, JsonNode.class);
  }

  static String dumpTree(JsonNode tree) {
    try {
      return MAPPER.writeValueAsString(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The documents of a multi-document YAML text as trees; empty documents are skipped. */
  public static List<JsonNode> trees(String yaml) {
    List<JsonNode> trees = new ArrayList<>();
    try (YAMLParser parser = FACTORY.createParser(yaml)) {
      var iterator = MAPPER.readValues(parser, JsonNode.class);
      while (iterator.hasNext()) {
        JsonNode tree = iterator.next();
        if (tree != null && !tree.isNull() && !tree.isMissingNode()) {
          trees.add(tree);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return trees;
  }

  /** The documents of a multi-document YAML text, each re-serialized on its own. */
  static List<String> documents(String yaml) {
    return trees(yaml).stream().map(Yaml::dumpTree).toList();
  }
}
