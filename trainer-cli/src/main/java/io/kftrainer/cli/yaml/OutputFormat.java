package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * How objects are printed for {@code kubectl apply -f -}: each object is first turned into its JSON tree by the
 * operator's fabric8 serialization (exactly the body the operator would send), then written as
 *
 * <ul>
 *   <li>{@link #YAML}: one document per object, each starting with {@code ---}; strings are quoted where YAML
 *       needs it and wherever a YAML 1.1 or 1.2 resolver would read them as another type
 *       ({@link ResolverSafeQuoting}), multi-line strings are literal blocks;</li>
 *   <li>{@link #JSON}: one {@code v1 List} object with the objects as {@code items}, indented.</li>
 * </ul>
 *
 * Field order is the model's. Nothing else is printed; an empty list prints nothing (YAML) or an empty list.
 */
public enum OutputFormat {
  YAML {
    @Override
    public String format(List<? extends HasMetadata> objects) {
      StringBuilder out = new StringBuilder();
      for (HasMetadata object : objects) {
        out.append("---\n").append(write(YAML_MAPPER, tree(object)));
      }
      return out.toString();
    }
  },
  JSON {
    @Override
    public String format(List<? extends HasMetadata> objects) {
      ObjectNode list = JsonNodeFactory.instance.objectNode();
      list.put("apiVersion", "v1");
      list.put("kind", "List");
      ArrayNode items = list.putArray("items");
      objects.forEach(object -> items.add(tree(object)));
      return write(JSON_MAPPER, list) + "\n";
    }
  };

  private static final ObjectMapper YAML_MAPPER = new ObjectMapper(YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
      .disable(YAMLGenerator.Feature.SPLIT_LINES)
      .stringQuotingChecker(ResolverSafeQuoting.INSTANCE)
      .build());
  private static final ObjectMapper JSON_MAPPER = JsonMapper.builder()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .build();

  /** The objects as text in this format. */
  public abstract String format(List<? extends HasMetadata> objects);

  /** An object as the operator would send it. */
  public static JsonNode tree(Object object) {
    return Serialization.kubernetes().convertValue(object, JsonNode.class);
  }

  private static String write(ObjectMapper mapper, JsonNode tree) {
    try {
      return mapper.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
