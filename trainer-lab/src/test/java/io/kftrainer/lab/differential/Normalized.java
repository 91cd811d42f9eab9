package io.kftrainer.lab.differential;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What differs between two servers by nature, taken out: uids, resourceVersions, timestamps and ages, tokens, and
 * the ports of their URLs. Objects keep their shape (a field present on one side only is a difference); only the
 * values that are each server's own are replaced by placeholders.
 */
final class Normalized {

  static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Pattern UID = Pattern.compile(
      "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  /** RFC 3339 as servers write it ({@code Z}) and as Python's client prints it ({@code +00:00}). */
  private static final Pattern TIME = Pattern.compile(
      "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})");
  private static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
  private static final Pattern URL = Pattern.compile("https://127\\.0\\.0\\.1:\\d+");
  private static final Pattern TOO_OLD = Pattern.compile("too old resource version: \\d+ \\(\\d+\\)");
  private static final Pattern RESOURCE_VERSION = Pattern.compile("(resourceVersion\"?:\\s*\"?)\\d+");
  /** An age as kubectl prints it in a table cell: {@code 0s}, {@code 12s}, {@code 2m3s}, {@code 5h}. */
  private static final Pattern AGE = Pattern.compile("(?<=\\s|^)\\d+[smhdy](\\d+[smh])?(?=\\s|$)",
      Pattern.MULTILINE);
  private static final List<String> SERVER_VALUES = List.of("uid", "resourceVersion");

  private Normalized() {
  }

  /** {@code object} with its server-owned values replaced: uid, resourceVersion, timestamps, tokens. */
  static JsonNode object(JsonNode object) {
    if (object == null || object.isMissingNode() || object.isNull()) {
      return JsonNodeFactory.instance.nullNode();
    }
    JsonNode copy = object.deepCopy();
    walk(copy);
    return copy;
  }

  private static void walk(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (SERVER_VALUES.contains(field.getKey()) && field.getValue().isValueNode()) {
          field.setValue(JsonNodeFactory.instance.textNode("<" + field.getKey() + ">"));
        } else if (field.getValue().isTextual()) {
          field.setValue(JsonNodeFactory.instance.textNode(text(field.getValue().asText())));
        } else {
          walk(field.getValue());
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        if (array.get(i).isTextual()) {
          array.set(i, JsonNodeFactory.instance.textNode(text(array.get(i).asText())));
        } else {
          walk(array.get(i));
        }
      }
    }
  }

  /** {@code text} with uids, timestamps, tokens, URLs' ports and resourceVersions replaced. */
  static String text(String text) {
    if (text == null) {
      return null;
    }
    String result = UID.matcher(text).replaceAll("<uid>");
    result = TIME.matcher(result).replaceAll("<time>");
    result = JWT.matcher(result).replaceAll("<token>");
    result = URL.matcher(result).replaceAll("https://127.0.0.1:<port>");
    result = TOO_OLD.matcher(result).replaceAll("too old resource version: <rv> (<rv>)");
    return RESOURCE_VERSION.matcher(result).replaceAll("$1<rv>");
  }

  /** kubectl's table output: {@link #text} and every age column ({@code 3s}, {@code 2m5s}) as {@code <age>}. */
  static String table(String output) {
    return AGE.matcher(text(output)).replaceAll("<age>");
  }

  /** kubectl's {@code -o json} or {@code -o yaml} output as a normalised object; the text when it is neither. */
  static JsonNode document(String output) {
    if (output.isBlank()) {
      return JsonNodeFactory.instance.textNode("");
    }
    try {
      return object(output.stripLeading().startsWith("{") ? JSON.readTree(output) : YAML.readTree(output));
    } catch (JsonProcessingException e) {
      return JsonNodeFactory.instance.textNode(text(output));
    }
  }

  /** A fabric8 client's failure as the fields a client reads from the Status: code, reason, causes, message. */
  static Observation failure(KubernetesClientException e) {
    Observation seen = new Observation().put("status", e.getCode());
    Status status = e.getStatus();
    if (status == null) {
      return seen.put("message", text(e.getMessage()));
    }
    return status(seen, Serialization.jsonMapper().valueToTree(status));
  }

  /** The fields a client reads from a Status body: reason, causes (field, reason), message. */
  static Observation status(Observation seen, JsonNode status) {
    seen.put("reason", status.path("reason").asText(""));
    ArrayNode causes = JsonNodeFactory.instance.arrayNode();
    for (JsonNode cause : status.path("details").path("causes")) {
      causes.addObject().put("field", cause.path("field").asText("")).put("reason", cause.path("reason").asText(""));
    }
    return seen.put("causes", causes).put("message", text(status.path("message").asText("")));
  }
}
