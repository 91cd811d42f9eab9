package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube-apiserver's checks of names (k8s.io/apimachinery {@code validation.IsDNS1123Subdomain},
 * {@code IsDNS1123Label}, {@code IsDNS1035Label}, {@code path.IsValidPathSegmentName}, {@code IsConfigMapKey}), with
 * its messages, and which kind's name follows which rule: namespaces are DNS-1123 labels, Services DNS-1035 labels,
 * Roles, ClusterRoles and their bindings path segments, every other kind (custom resources included) a DNS-1123
 * subdomain. An object's namespace must be a DNS-1123 label.
 *
 * <p>Names and keys become file and directory names in {@code local} mode: a name kube refuses ({@code ../../x},
 * {@code a/b}, {@code .}) is refused here too, before anything can use it as a path.
 */
final class NameValidation {

  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN = LABEL + "(\\." + LABEL + ")*";
  private static final String DNS1035 = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final String CONFIG_KEY = "[-._a-zA-Z0-9]+";
  private static final Pattern LABEL_PATTERN = Pattern.compile(LABEL);
  private static final Pattern SUBDOMAIN_PATTERN = Pattern.compile(SUBDOMAIN);
  private static final Pattern DNS1035_PATTERN = Pattern.compile(DNS1035);
  private static final Pattern CONFIG_KEY_PATTERN = Pattern.compile(CONFIG_KEY);
  private static final String RBAC = "rbac.authorization.k8s.io";

  private NameValidation() {
  }

  /** The errors of {@code object}'s {@code metadata.name} and {@code metadata.namespace} for its kind. */
  static List<String> errors(Target target, JsonNode object) {
    List<String> errors = new ArrayList<>();
    JsonNode metadata = object.path("metadata");
    String name = metadata.path("name").asText("");
    if (!name.isEmpty()) {
      nameMessages(target, name).forEach(message -> errors.add(invalid("metadata.name", name, message)));
    }
    String namespace = metadata.path("namespace").asText("");
    if (target.namespaced() && !namespace.isEmpty()) {
      dns1123Label(namespace).forEach(message -> errors.add(invalid("metadata.namespace", namespace, message)));
    }
    return errors;
  }

  private static List<String> nameMessages(Target target, String name) {
    String group = target.rp().group();
    String plural = target.rp().plural();
    if (group.isEmpty() && plural.equals("namespaces")) {
      return dns1123Label(name);
    }
    if (group.isEmpty() && plural.equals("services")) {
      return dns1035Label(name);
    }
    if (group.equals(RBAC)) {
      return pathSegment(name);
    }
    if (group.equals("apiextensions.k8s.io")) {
      return List.of(); // a CRD's name is <plural>.<group>, checked against its spec where it is validated
    }
    return dns1123Subdomain(name);
  }

  static List<String> dns1123Label(String value) {
    List<String> messages = new ArrayList<>();
    if (value.length() > 63) {
      messages.add(maxLength(63));
    }
    if (!LABEL_PATTERN.matcher(value).matches()) {
      messages.add(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
          + " and must start and end with an alphanumeric character", LABEL, "my-name", "123-abc"));
    }
    return messages;
  }

  static List<String> dns1123Subdomain(String value) {
    List<String> messages = new ArrayList<>();
    if (value.length() > 253) {
      messages.add(maxLength(253));
    }
    if (!SUBDOMAIN_PATTERN.matcher(value).matches()) {
      messages.add(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
          + "'-' or '.', and must start and end with an alphanumeric character", SUBDOMAIN, "example.com"));
    }
    return messages;
  }

  static List<String> dns1035Label(String value) {
    List<String> messages = new ArrayList<>();
    if (value.length() > 63) {
      messages.add(maxLength(63));
    }
    if (!DNS1035_PATTERN.matcher(value).matches()) {
      messages.add(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
          + "with an alphabetic character, and end with an alphanumeric character", DNS1035, "my-name", "abc-123"));
    }
    return messages;
  }

  static List<String> pathSegment(String value) {
    if (value.equals(".") || value.equals("..")) {
      return List.of("may not be '" + value + "'");
    }
    List<String> messages = new ArrayList<>();
    for (String forbidden : List.of("/", "%")) {
      if (value.contains(forbidden)) {
        messages.add("may not contain '" + forbidden + "'");
      }
    }
    return messages;
  }

  /** A ConfigMap or Secret data key ({@code IsConfigMapKey}). */
  static List<String> configMapKey(String value) {
    List<String> messages = new ArrayList<>();
    if (value.length() > 253) {
      messages.add(maxLength(253));
    }
    if (!CONFIG_KEY_PATTERN.matcher(value).matches()) {
      messages.add(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
          CONFIG_KEY, "key.name", "KEY_NAME", "key-name"));
    }
    if (value.equals(".")) {
      messages.add("must not be '.'");
    } else if (value.equals("..")) {
      messages.add("must not be '..'");
    } else if (value.startsWith("..")) {
      messages.add("must not start with '..'");
    }
    return messages;
  }

  /** {@code field.Invalid}'s text: {@code <path>: Invalid value: "<value>": <message>}. */
  static String invalid(String path, String value, String message) {
    return path + ": Invalid value: " + Json.MAPPER.getNodeFactory().textNode(value) + ": " + message;
  }

  private static String maxLength(int length) {
    return "must be no more than " + length + " characters";
  }

  /** apimachinery's {@code RegexError}, double space before "or" included. */
  private static String regexError(String message, String regex, String... examples) {
    StringBuilder text = new StringBuilder(message).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      text.append(i > 0 ? " or " : "").append('\'').append(examples[i]).append("', ");
    }
    return text.append("regex used for validation is '").append(regex).append("')").toString();
  }
}
