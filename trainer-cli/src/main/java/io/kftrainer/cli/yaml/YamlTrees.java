package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The documents of a YAML stream as JSON trees, with anchors ({@code &res}), aliases ({@code *res}) and merge keys
 * ({@code <<: *defaults}) resolved as kubectl resolves them. Jackson's tree reader keeps an alias as the string
 * {@code res} and a merge key as a field named {@code <<}; this reader builds the trees from the parser's tokens
 * itself. Scalars keep Jackson's typing. Anchors are per document, as in YAML.
 *
 * <p>Merge keys follow the YAML 1.1 merge type: a mapping's own keys win over merged ones, and of several merged
 * mappings ({@code <<: [*a, *b]}) the earlier wins.
 */
final class YamlTrees {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String MERGE_KEY = "<<";

  private final YAMLParser parser;
  private final Map<String, JsonNode> anchors = new HashMap<>();

  private YamlTrees(YAMLParser parser) {
    this.parser = parser;
  }

  /** Every document of the parser's stream, in order; an empty document is null. */
  static List<JsonNode> read(YAMLParser parser) throws IOException {
    YamlTrees trees = new YamlTrees(parser);
    List<JsonNode> documents = new ArrayList<>();
    while (parser.nextToken() != null) {
      trees.anchors.clear();
      documents.add(trees.value());
    }
    return documents;
  }

  /** The value starting at the current token. */
  private JsonNode value() throws IOException {
    if (parser.isCurrentAlias()) {
      String alias = parser.getText();
      JsonNode anchored = anchors.get(alias);
      if (anchored == null) {
        throw new JsonParseException(parser, "found undefined alias *" + alias);
      }
      return anchored.deepCopy();
    }
    String anchor = parser.getCurrentAnchor();
    JsonNode value = switch (parser.currentToken()) {
      case START_OBJECT -> object();
      case START_ARRAY -> array();
      case VALUE_STRING -> NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number();
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_EMBEDDED_OBJECT -> NODES.pojoNode(parser.getEmbeddedObject());
      default -> NODES.nullNode();
    };
    if (anchor != null) {
      anchors.put(anchor, value);
    }
    return value;
  }

  /** A number as Jackson's own tree reader types it. */
  private JsonNode number() throws IOException {
    return switch (parser.getNumberType()) {
      case INT -> NODES.numberNode(parser.getIntValue());
      case LONG -> NODES.numberNode(parser.getLongValue());
      case BIG_INTEGER -> NODES.numberNode(parser.getBigIntegerValue());
      case BIG_DECIMAL -> NODES.numberNode(parser.getDecimalValue());
      default -> NODES.numberNode(parser.getDoubleValue());
    };
  }

  private ObjectNode object() throws IOException {
    ObjectNode own = NODES.objectNode();
    List<JsonNode> merged = new ArrayList<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      parser.nextToken();
      JsonNode value = value();
      if (MERGE_KEY.equals(name)) {
        merged.add(value);
      } else {
        own.set(name, value);
      }
    }
    if (merged.isEmpty()) {
      return own;
    }
    ObjectNode result = NODES.objectNode();
    for (JsonNode source : merged) {
      for (JsonNode mapping : source.isArray() ? source : List.of(source)) {
        if (!mapping.isObject()) {
          throw new JsonParseException(parser, "a merge key (<<) takes a mapping or a list of mappings, not "
              + mapping.getNodeType().toString().toLowerCase());
        }
        mapping.properties().forEach(field -> {
          if (!own.has(field.getKey()) && !result.has(field.getKey())) {
            result.set(field.getKey(), field.getValue().deepCopy());
          }
        });
      }
    }
    result.setAll(own);
    return result;
  }

  private ArrayNode array() throws IOException {
    ArrayNode array = NODES.arrayNode();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      array.add(value());
    }
    return array;
  }
}
