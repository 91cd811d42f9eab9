package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * kube-apiserver's checks of {@code metadata.labels} and {@code metadata.annotations} (k8s.io/apimachinery
 * {@code ValidateLabels}, {@code ValidateAnnotations}), with its messages: maps of strings, qualified-name keys,
 * label values of at most 63 characters of the label-value syntax, annotations of at most 256 KiB in all.
 *
 * <p>Without them, the server stored what no cluster stores (a label value with control characters), and clients
 * that parse such an object choked on it: fabric8's watch reader stops an informer on a control character, which
 * stopped the operator.
 */
final class ObjectMetaValidation {

  private static final Pattern NAME_PART = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final int TOTAL_ANNOTATION_SIZE = 256 * 1024;

  private ObjectMetaValidation() {
  }

  /** The errors of {@code metadata} ({@code <path>: <type>: <detail>}), empty when valid. */
  static List<String> errors(JsonNode metadata) {
    List<String> errors = new ArrayList<>();
    JsonNode labels = metadata.path("labels");
    if (isMapOfStrings(labels, "metadata.labels", errors)) {
      for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
        var label = it.next();
        String path = "metadata.labels";
        qualifiedName(label.getKey(), path, errors);
        String value = label.getValue().asText();
        if (value.length() > 63) {
          errors.add(path + ": Invalid value: \"" + abbreviate(value) + "\": must be no more than 63 characters");
        } else if (!value.isEmpty() && !NAME_PART.matcher(value).matches()) {
          errors.add(path + ": Invalid value: \"" + abbreviate(value) + "\": a valid label must be an empty string "
              + "or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
              + "character");
        }
      }
    }
    JsonNode annotations = metadata.path("annotations");
    if (isMapOfStrings(annotations, "metadata.annotations", errors)) {
      long size = 0;
      for (Iterator<Map.Entry<String, JsonNode>> it = annotations.fields(); it.hasNext(); ) {
        var annotation = it.next();
        qualifiedName(annotation.getKey().toLowerCase(), "metadata.annotations", errors);
        size += annotation.getKey().getBytes(StandardCharsets.UTF_8).length
            + annotation.getValue().asText().getBytes(StandardCharsets.UTF_8).length;
      }
      if (size > TOTAL_ANNOTATION_SIZE) {
        errors.add("metadata.annotations: Too long: must have at most " + TOTAL_ANNOTATION_SIZE + " bytes");
      }
    }
    return errors;
  }

  private static boolean isMapOfStrings(JsonNode node, String path, List<String> errors) {
    if (node.isMissingNode() || node.isNull()) {
      return false;
    }
    boolean strings = node.isObject();
    for (Iterator<JsonNode> it = node.elements(); strings && it.hasNext(); ) {
      strings = it.next().isTextual();
    }
    if (!strings) {
      errors.add(path + ": Invalid value: " + abbreviate(node.toString()) + ": must be a map of strings");
    }
    return strings;
  }

  /** A key: an optional DNS-subdomain prefix and {@code /}, then a name part of at most 63 characters. */
  private static void qualifiedName(String key, String path, List<String> errors) {
    int slash = key.indexOf('/');
    String prefix = slash < 0 ? "" : key.substring(0, slash);
    String name = slash < 0 ? key : key.substring(slash + 1);
    boolean valid = name.length() <= 63 && NAME_PART.matcher(name).matches()
        && (slash < 0 || (prefix.length() <= 253 && DNS_SUBDOMAIN.matcher(prefix).matches()));
    if (!valid) {
      errors.add(path + ": Invalid value: \"" + abbreviate(key) + "\": name part must consist of alphanumeric "
          + "characters, '-', '_' or '.', and must start and end with an alphanumeric character");
    }
  }

  private static String abbreviate(String text) {
    return text.length() > 100 ? text.substring(0, 100) + "..." : text;
  }
}
