package io.kftrainer.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code openAPIV3Schema} of one CRD version, applied as kube-apiserver applies it to a custom resource: unknown
 * fields {@linkplain #prune pruned}, {@linkplain #applyDefaults defaults} set, then {@linkplain #validate validation}
 * of types, {@code required}, {@code enum}, {@code minimum}/{@code maximum} (exclusive too), {@code minLength}/
 * {@code maxLength}, {@code pattern}, {@code minItems}/{@code maxItems}, {@code x-kubernetes-list-type} set and map
 * uniqueness, {@code nullable}, {@code x-kubernetes-int-or-string}, and the {@code x-kubernetes-validations} CEL
 * rules, transition rules ({@code oldSelf}) included on updates, with kube-apiserver's messages: the Kubernetes CEL
 * libraries ({@link io.kftrainer.schema.cel.KubernetesCel}), {@code messageExpression}, {@code reason},
 * {@code fieldPath}, and kube's per-call and per-object cost limits (on an approximate cost, see {@link CelRules}).
 *
 * <p>Transition rules see the old value of the same field: object properties and map values are correlated, list
 * items only in {@code x-kubernetes-list-type: map} lists (by their keys), as in Kubernetes. Not implemented:
 * {@code format} checks, {@code allOf}/{@code anyOf}/{@code oneOf}/{@code not}, the static cost estimate kube
 * checks when a CRD is created, and ratcheting (rules of unchanged fields are evaluated again on update).
 *
 * <p>Thread-safe; build one per CRD version and keep it.
 */
public final class StructuralSchema {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");

  private final JsonNode schema;
  private final CelRules cel;
  private final long costBudget;
  private final Map<String, Pattern> patterns = new java.util.concurrent.ConcurrentHashMap<>();

  private StructuralSchema(JsonNode schema, long perCallLimit, long perObjectBudget) {
    this.schema = Objects.requireNonNull(schema);
    this.cel = new CelRules(perCallLimit);
    this.costBudget = perObjectBudget;
  }

  /** The schema of a CRD version's {@code schema.openAPIV3Schema}, with kube's CEL cost limits. */
  public static StructuralSchema of(JsonNode openApiV3Schema) {
    return new StructuralSchema(openApiV3Schema, CelRules.PER_CALL_LIMIT, CelRules.PER_OBJECT_BUDGET);
  }

  /** With other cost limits than kube's, for tests that exhaust them quickly. */
  static StructuralSchema withCostLimits(JsonNode openApiV3Schema, long perCallLimit, long perObjectBudget) {
    return new StructuralSchema(openApiV3Schema, perCallLimit, perObjectBudget);
  }

  /**
   * Removes the fields the schema does not declare (apiVersion, kind and metadata stay at the root) and returns
   * their paths, sorted, as kube-apiserver's pruning reports them for {@code fieldValidation}: {@code spec.a},
   * {@code spec.list[0].b}. A removed field's own fields are not listed: only the field the schema does not know.
   */
  public List<String> prune(ObjectNode object) {
    List<String> pruned = new ArrayList<>();
    prune(schema, object, true, "", pruned);
    // kube sorts the paths (Go's sort.Strings, by bytes; UTF-16 order is the same below the surrogates)
    pruned.sort(null);
    return pruned;
  }

  private static void prune(JsonNode schema, JsonNode value, boolean root, String path, List<String> pruned) {
    if (schema == null || value == null) {
      return;
    }
    if (value.isObject()) {
      JsonNode properties = schema.get("properties");
      JsonNode additional = schema.get("additionalProperties");
      boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
      boolean embedded = root || schema.path("x-kubernetes-embedded-resource").asBoolean(false);
      Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (embedded && ROOT_FIELDS.contains(field.getKey())) {
          continue; // type meta and ObjectMeta are the API server's, whatever the CRD's schema says of them
        }
        JsonNode child = properties == null ? null : properties.get(field.getKey());
        String childPath = child(path, field.getKey());
        if (child != null) {
          prune(child, field.getValue(), false, childPath, pruned);
        } else if (additional != null && additional.isObject()) {
          prune(additional, field.getValue(), false, childPath, pruned);
        } else if (!preserve && !(additional != null && additional.asBoolean(false))) {
          fields.remove();
          pruned.add(childPath);
        }
      }
    } else if (value.isArray() && schema.has("items")) {
      for (int i = 0; i < value.size(); i++) {
        prune(schema.get("items"), value.get(i), false, path + "[" + i + "]", pruned);
      }
    }
  }

  /** Sets the schema's {@code default}s of absent fields, top-down, as kube-apiserver does on read and write. */
  public void applyDefaults(ObjectNode object) {
    applyDefaults(schema, object);
  }

  private static void applyDefaults(JsonNode schema, JsonNode value) {
    if (schema == null || value == null) {
      return;
    }
    if (value.isObject()) {
      ObjectNode object = (ObjectNode) value;
      JsonNode properties = schema.get("properties");
      if (properties != null) {
        properties.fields().forEachRemaining(property -> {
          JsonNode defaultValue = property.getValue().get("default");
          if (!object.has(property.getKey()) && defaultValue != null) {
            object.set(property.getKey(), defaultValue.deepCopy());
          }
          applyDefaults(property.getValue(), object.get(property.getKey()));
        });
      }
      JsonNode additional = schema.get("additionalProperties");
      if (additional != null && additional.isObject()) {
        object.forEach(child -> applyDefaults(additional, child));
      }
    } else if (value.isArray() && schema.has("items")) {
      value.forEach(item -> applyDefaults(schema.get("items"), item));
    }
  }

  /**
   * Validates {@code object} (and, on an update, the transition rules against {@code oldObject}, else null), as
   * kube-apiserver does: the schema first, then the CEL rules of every node, each node's own rules before its
   * children's. After an error that kube calls blocking ({@link SchemaFieldError.Type#blocksRules()}: a wrong type, a
   * missing required field...) no rule is evaluated and one error says so. Returns every error found.
   */
  public List<SchemaFieldError> validate(JsonNode object, JsonNode oldObject) {
    List<SchemaFieldError> errors = new ArrayList<>();
    validate(schema, object, "", errors);
    if (errors.stream().anyMatch(e -> e.type().blocksRules())) {
      errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, "", quote("null"), "some validation rules were not checked "
          + "because the object was invalid; correct the existing errors to complete validation"));
    } else {
      validateRules(schema, object, oldObject, "", errors, new CelRules.Budget(costBudget));
    }
    return errors;
  }

  private void validate(JsonNode schema, JsonNode value, String path, List<SchemaFieldError> errors) {
    if (value.isNull()) {
      if (!schema.path("nullable").asBoolean(false) && schema.has("type")) {
        errors.add(typeError(schema, path, "null"));
      }
      return;
    }
    if (!typeMatches(schema, value)) {
      errors.add(typeError(schema, path, typeName(value)));
      return;
    }
    checkEnum(schema, value, path, errors);
    if (value.isNumber()) {
      checkNumber(schema, value, path, errors);
    } else if (value.isTextual()) {
      checkString(schema, value, path, errors);
    } else if (value.isArray()) {
      checkArray(schema, value, path, errors);
    } else if (value.isObject()) {
      checkObject(schema, value, path, errors);
    }
  }

  private static boolean typeMatches(JsonNode schema, JsonNode value) {
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      return integral(value) || value.isTextual();
    }
    switch (schema.path("type").asText("")) {
      case "object":
        return value.isObject();
      case "array":
        return value.isArray();
      case "string":
        return value.isTextual();
      case "integer":
        return integral(value);
      case "number":
        return value.isNumber();
      case "boolean":
        return value.isBoolean();
      default:
        return true;
    }
  }

  /**
   * An integer as kube-apiserver's schema validation sees one: an integral JSON number, or a number with a fraction
   * of zero within ±2^53 ({@code 1.0}: go-openapi's {@code IsFloat64AJSONInteger}), for {@code integer} and
   * {@code x-kubernetes-int-or-string} alike. The Kubeflow SDK sends {@code resourcesPerNode} quantities so
   * ({@code cpu: 1.0}).
   */
  private static boolean integral(JsonNode value) {
    if (value.isIntegralNumber()) {
      return true;
    }
    if (!value.isNumber()) {
      return false;
    }
    double d = value.asDouble();
    return d == Math.rint(d) && Math.abs(d) <= 9007199254740992.0;
  }

  private static String typeName(JsonNode value) {
    if (value.isNull()) {
      return "null";
    }
    if (value.isObject()) {
      return "object";
    }
    if (value.isArray()) {
      return "array";
    }
    if (value.isTextual()) {
      return "string";
    }
    if (value.isIntegralNumber()) {
      return "integer";
    }
    return value.isNumber() ? "number" : "boolean";
  }

  private static SchemaFieldError typeError(JsonNode schema, String path, String actual) {
    String expected = schema.path("x-kubernetes-int-or-string").asBoolean(false) ? "integer,string"
        : schema.path("type").asText();
    return new SchemaFieldError(SchemaFieldError.Type.TYPE_INVALID, path, quote(actual),
        path + " in body must be of type " + expected + ": " + quote(actual));
  }

  private void checkEnum(JsonNode schema, JsonNode value, String path, List<SchemaFieldError> errors) {
    JsonNode values = schema.get("enum");
    if (values == null || !values.isArray()) {
      return;
    }
    for (JsonNode allowed : values) {
      if (allowed.equals(value)) {
        return;
      }
    }
    List<String> supported = new ArrayList<>();
    values.forEach(v -> supported.add(render(v)));
    errors.add(new SchemaFieldError(SchemaFieldError.Type.UNSUPPORTED, path, render(value),
        "supported values: " + String.join(", ", supported)));
  }

  private static void checkNumber(JsonNode schema, JsonNode value, String path, List<SchemaFieldError> errors) {
    double number = value.asDouble();
    if (schema.has("minimum")) {
      double minimum = schema.get("minimum").asDouble();
      boolean exclusive = schema.path("exclusiveMinimum").asBoolean(false);
      if (exclusive ? number <= minimum : number < minimum) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, render(value), path + " in body should be greater than "
            + (exclusive ? "" : "or equal to ") + render(schema.get("minimum"))));
      }
    }
    if (schema.has("maximum")) {
      double maximum = schema.get("maximum").asDouble();
      boolean exclusive = schema.path("exclusiveMaximum").asBoolean(false);
      if (exclusive ? number >= maximum : number > maximum) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, render(value), path + " in body should be less than "
            + (exclusive ? "" : "or equal to ") + render(schema.get("maximum"))));
      }
    }
    if (schema.has("multipleOf") && schema.get("multipleOf").asDouble() != 0) {
      double factor = schema.get("multipleOf").asDouble();
      if (Math.abs(number / factor - Math.rint(number / factor)) > 1e-9) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, render(value), path + " in body should be a multiple of "
            + render(schema.get("multipleOf"))));
      }
    }
  }

  private void checkString(JsonNode schema, JsonNode value, String path, List<SchemaFieldError> errors) {
    String text = value.asText();
    int length = text.codePointCount(0, text.length());
    if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
      int max = schema.get("maxLength").asInt();
      errors.add(new SchemaFieldError(SchemaFieldError.Type.TOO_LONG, path, render(value),
          "may not be more than " + max + (max == 1 ? " byte" : " bytes")));
    }
    if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
      errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, render(value), path + " in body should be at least "
          + schema.get("minLength").asInt() + " chars long"));
    }
    if (schema.has("pattern")) {
      String regex = schema.get("pattern").asText();
      Pattern pattern;
      try {
        pattern = patterns.computeIfAbsent(regex, Pattern::compile);
      } catch (PatternSyntaxException e) {
        return;
      }
      if (!pattern.matcher(text).find()) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, render(value), path + " in body should match '"
            + regex + "'"));
      }
    }
  }

  private void checkArray(JsonNode schema, JsonNode value, String path, List<SchemaFieldError> errors) {
    int size = value.size();
    if (schema.has("maxItems") && size > schema.get("maxItems").asInt()) {
      errors.add(new SchemaFieldError(SchemaFieldError.Type.TOO_MANY, path, Integer.toString(size),
          "must have at most " + schema.get("maxItems").asInt() + " items"));
    }
    if (schema.has("minItems") && size < schema.get("minItems").asInt()) {
      errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, Integer.toString(size), path
          + " in body should have at least " + schema.get("minItems").asInt() + " items"));
    }
    String listType = schema.path("x-kubernetes-list-type").asText("atomic");
    List<String> keys = new ArrayList<>();
    schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
    Set<JsonNode> seen = new HashSet<>();
    JsonNode items = schema.get("items");
    for (int i = 0; i < size; i++) {
      JsonNode item = value.get(i);
      String itemPath = path + "[" + i + "]";
      if (listType.equals("set") && !seen.add(item)) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.DUPLICATE, itemPath, render(item), ""));
      } else if (listType.equals("map") && !keys.isEmpty()) {
        JsonNode key = keyOf(item, keys);
        if (!seen.add(key)) {
          errors.add(new SchemaFieldError(SchemaFieldError.Type.DUPLICATE, itemPath, render(key), ""));
        }
      }
      if (items != null) {
        validate(items, item, itemPath, errors);
      }
    }
  }

  private static JsonNode keyOf(JsonNode item, List<String> keys) {
    ObjectNode key = MAPPER.createObjectNode();
    keys.forEach(k -> key.set(k, item.path(k)));
    return key;
  }

  private static JsonNode findByKey(JsonNode list, JsonNode item, List<String> keys) {
    if (keys.isEmpty()) {
      return null;
    }
    JsonNode key = keyOf(item, keys);
    for (JsonNode candidate : list) {
      if (keyOf(candidate, keys).equals(key)) {
        return candidate;
      }
    }
    return null;
  }

  private void checkObject(JsonNode schema, JsonNode value, String path, List<SchemaFieldError> errors) {
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.asText())) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.REQUIRED, child(path, required.asText()), null, ""));
      }
    }
    value.fields().forEachRemaining(field -> {
      JsonNode childSchema = propertySchema(schema, field.getKey());
      if (childSchema != null) {
        validate(childSchema, field.getValue(), child(path, field.getKey()), errors);
      }
    });
    if (schema.has("maxProperties") && value.size() > schema.get("maxProperties").asInt()) {
      errors.add(new SchemaFieldError(SchemaFieldError.Type.TOO_MANY, path, Integer.toString(value.size()),
          "must have at most " + schema.get("maxProperties").asInt() + " items"));
    }
  }

  /** The schema of an object's field: its property's, else {@code additionalProperties}', else null. */
  private static JsonNode propertySchema(JsonNode schema, String field) {
    JsonNode property = schema.path("properties").get(field);
    JsonNode additional = schema.get("additionalProperties");
    return property != null ? property : additional != null && additional.isObject() ? additional : null;
  }

  /**
   * The rules of {@code value}'s node, then of its children. Transition rules see the old value of the same field:
   * object properties and map values are correlated, list items only in {@code x-kubernetes-list-type: map} lists.
   */
  private void validateRules(JsonNode schema, JsonNode value, JsonNode old, String path, List<SchemaFieldError> errors,
      CelRules.Budget budget) {
    if (value == null || value.isNull() || budget.stopped()) {
      return;
    }
    checkRules(schema, value, old, path, errors, budget);
    if (value.isObject()) {
      value.fields().forEachRemaining(field -> {
        JsonNode childSchema = propertySchema(schema, field.getKey());
        if (childSchema != null) {
          JsonNode oldChild = old != null && old.isObject() ? old.get(field.getKey()) : null;
          validateRules(childSchema, field.getValue(), oldChild, child(path, field.getKey()), errors, budget);
        }
      });
    } else if (value.isArray() && schema.has("items")) {
      boolean map = schema.path("x-kubernetes-list-type").asText("atomic").equals("map");
      List<String> keys = new ArrayList<>();
      schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
      for (int i = 0; i < value.size(); i++) {
        JsonNode item = value.get(i);
        JsonNode oldItem = map && old != null && old.isArray() ? findByKey(old, item, keys) : null;
        validateRules(schema.get("items"), item, oldItem, path + "[" + i + "]", errors, budget);
      }
    }
  }

  private void checkRules(JsonNode schema, JsonNode value, JsonNode old, String path, List<SchemaFieldError> errors,
      CelRules.Budget budget) {
    JsonNode rules = schema.path("x-kubernetes-validations");
    if (rules.isEmpty()) {
      return;
    }
    Object self = CelRules.toCel(value);
    Object oldSelf = old == null || old.isNull() ? null : CelRules.toCel(old);
    String type = "\"" + schema.path("type").asText("") + "\""; // a schema type needs no escaping
    for (JsonNode rule : rules) {
      String expression = rule.path("rule").asText("");
      boolean transition = cel.referencesOldSelf(expression);
      if (expression.isEmpty() || (transition && oldSelf == null)) {
        continue;
      }
      CelRules.Outcome outcome = cel.evaluate(expression, self, transition ? oldSelf : null);
      String ruleText = ruleErrorString(rule);
      switch (outcome.kind()) {
        case COMPILE_ERROR -> {
          errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, type, "rule compile error: " + outcome.error()));
          continue;
        }
        case COST_LIMIT -> {
          errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, type, "'" + outcome.error() + "': no further "
              + "validation rules will be run due to call cost exceeds limit for rule: " + ruleText));
          budget.stop();
          return;
        }
        default -> {
        }
      }
      if (!budget.spend(outcome.cost())) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, type,
            "validation failed due to running out of cost budget, no further validation rules will be run"));
        budget.stop();
        return;
      }
      if (outcome.kind() == CelRules.Outcome.Kind.NO_SUCH_OVERLOAD) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, type, "'" + outcome.error() + "': call arguments did "
            + "not match a supported operator, function or macro signature for rule: " + ruleText));
      } else if (outcome.kind() == CelRules.Outcome.Kind.EVALUATION_ERROR) {
        errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, path, type, outcome.error() + " evaluating rule: "
            + ruleText));
      } else if (!outcome.isTrue()) {
        String field = path;
        String fieldPath = rule.path("fieldPath").asText("");
        if (!fieldPath.isEmpty()) {
          field = child(path, normalizedFieldPath(fieldPath));
        }
        String message = ruleMessageOrDefault(rule);
        String messageExpression = rule.path("messageExpression").asText("");
        if (!messageExpression.isEmpty()) {
          CelRules.Outcome evaluated = cel.evaluate(messageExpression, self, oldSelf);
          if (evaluated.kind() == CelRules.Outcome.Kind.COST_LIMIT) {
            errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, field, type, "no further validation rules will be run "
                + "due to call cost exceeds limit for messageExpression: " + quote(messageExpression)));
            budget.stop();
            return;
          }
          if (!budget.spend(evaluated.cost())) {
            errors.add(new SchemaFieldError(SchemaFieldError.Type.INVALID, field, type, "messageExpression evaluation failed due "
                + "to running out of cost budget, no further validation rules will be run"));
            budget.stop();
            return;
          }
          // kube falls back to the message when the expression fails, is not a string, is empty or multi-line
          if (evaluated.value() instanceof String text && !text.isBlank() && !text.contains("\n")
              && text.trim().length() <= MAX_MESSAGE_EXPRESSION_BYTES) {
            message = text.trim();
          }
        }
        errors.add(fieldErrorForReason(rule.path("reason").asText(""), field, type, message));
      }
    }
  }

  /** kube's {@code celconfig.MaxEvaluatedMessageExpressionSizeBytes}. */
  private static final int MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

  private static SchemaFieldError fieldErrorForReason(String reason, String field, String type, String message) {
    return switch (reason) {
      case "FieldValueRequired" -> new SchemaFieldError(SchemaFieldError.Type.REQUIRED, field, null, message);
      case "FieldValueForbidden" -> new SchemaFieldError(SchemaFieldError.Type.FORBIDDEN, field, null, message);
      case "FieldValueDuplicate" -> new SchemaFieldError(SchemaFieldError.Type.DUPLICATE, field, type, "");
      default -> new SchemaFieldError(SchemaFieldError.Type.INVALID, field, type, message);
    };
  }

  /** The rule's message, or {@code failed rule: <rule>} (kube's {@code ruleMessageOrDefault}). */
  private static String ruleMessageOrDefault(JsonNode rule) {
    String message = rule.path("message").asText("").trim();
    return message.isEmpty() ? "failed rule: " + rule.path("rule").asText("").trim() : message;
  }

  /** The rule's message, or the rule itself (kube's {@code ruleErrorString}). */
  private static String ruleErrorString(JsonNode rule) {
    String message = rule.path("message").asText("").trim();
    return message.isEmpty() ? rule.path("rule").asText("").trim() : message;
  }

  /** A rule's {@code fieldPath} ({@code .spec.a}, {@code ['b.c']}) as a field path relative to the rule's node. */
  static String normalizedFieldPath(String fieldPath) {
    List<String> segments = new ArrayList<>();
    java.util.regex.Matcher m = FIELD_PATH_SEGMENT.matcher(fieldPath);
    while (m.find()) {
      segments.add(m.group(1) != null ? m.group(1) : m.group(2).replace("\\'", "'"));
    }
    return String.join(".", segments);
  }

  private static final Pattern FIELD_PATH_SEGMENT = Pattern.compile("\\.([^.\\[]+)|\\['((?:[^'\\\\]|\\\\.)*)'\\]");

  private static String child(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  private static String quote(String text) {
    try {
      return MAPPER.writeValueAsString(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A value as kube-apiserver prints it in a field error: strings quoted, numbers and booleans plain. */
  static String render(JsonNode value) {
    if (value.isTextual()) {
      return quote(value.asText());
    }
    if (value.isIntegralNumber()) {
      return Long.toString(value.asLong());
    }
    if (value.isNumber()) {
      double d = value.asDouble();
      return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
    return value.toString();
  }
}
