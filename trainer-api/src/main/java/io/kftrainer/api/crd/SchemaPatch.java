package io.kftrainer.api.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Map;

/**
 * CRD generator hook that applies an RFC 7386 JSON merge patch (the annotation's {@code input}) to the schema
 * generated for the annotated class. It carries what fabric8's annotations cannot express: list-map keys and
 * list types, enums on string fields, {@code format: date-time}, item constraints and {@code minProperties}.
 *
 * <p>Used as {@code @SchemaCustomizer(value = SchemaPatch.class, input = "{...}")}. fabric8's own
 * {@code MergePatchCustomizer} is not used because it replaces nested objects (the whole {@code properties} map)
 * instead of merging them.
 *
 * <p>Only the CRD generator runs this class, at build time.
 */
public final class SchemaPatch implements SchemaCustomizer.Customizer {

  @Override
  public JSONSchemaProps apply(JSONSchemaProps props, String input, KubernetesSerialization serialization) {
    ObjectNode target = serialization.convertValue(props, ObjectNode.class);
    JsonNode patch = serialization.unmarshal(input, JsonNode.class);
    if (!patch.isObject()) {
      throw new IllegalArgumentException("schema patch must be a JSON object: " + input);
    }
    merge(target, (ObjectNode) patch);
    return serialization.convertValue(target, JSONSchemaProps.class);
  }

  private static void merge(ObjectNode target, ObjectNode patch) {
    for (Map.Entry<String, JsonNode> e : new ArrayList<>(patch.properties())) {
      JsonNode value = e.getValue();
      JsonNode existing = target.get(e.getKey());
      if (value.isNull()) {
        target.remove(e.getKey());
      } else if (value.isObject() && existing != null && existing.isObject()) {
        merge((ObjectNode) existing, (ObjectNode) value);
      } else {
        target.set(e.getKey(), value.deepCopy());
      }
    }
  }
}
