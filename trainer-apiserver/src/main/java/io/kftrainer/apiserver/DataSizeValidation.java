package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;

/**
 * kube-apiserver's limit on what a ConfigMap or a Secret holds ({@code core.MaxSecretSize}, 1 MiB): the sum of a
 * ConfigMap's {@code data} values (UTF-8 bytes) and {@code binaryData} values (decoded), or of a Secret's decoded
 * {@code data} values ({@code stringData} is merged in by then). Over it, one {@code Too long} error, on {@code []}
 * (the whole object) for a ConfigMap and on {@code data} for a Secret, as kube-apiserver words them.
 */
final class DataSizeValidation {

  static final int MAX_BYTES = 1024 * 1024;
  private static final String TOO_LONG = "Too long: may not be more than " + MAX_BYTES + " bytes";

  private DataSizeValidation() {
  }

  static List<String> errors(Target target, JsonNode object) {
    if (!target.rp().group().isEmpty() || target.rp().subresource() != null) {
      return List.of();
    }
    return switch (target.rp().plural()) {
      case "configmaps" -> size(object.path("data"), false) + size(object.path("binaryData"), true) > MAX_BYTES
          ? List.of("[]: " + TOO_LONG) : List.of();
      case "secrets" -> size(object.path("data"), true) > MAX_BYTES ? List.of("data: " + TOO_LONG) : List.of();
      default -> List.of();
    };
  }

  /** The bytes of a map's values: UTF-8 strings, or base64 that is decoded (undecodable values count as written). */
  private static long size(JsonNode map, boolean base64) {
    long total = 0;
    for (Iterator<JsonNode> values = map.elements(); values.hasNext(); ) {
      String value = values.next().asText("");
      if (base64) {
        try {
          total += Base64.getDecoder().decode(value).length;
          continue;
        } catch (IllegalArgumentException e) {
          // counted as written; kube refuses the value when it decodes the object
        }
      }
      total += value.getBytes(StandardCharsets.UTF_8).length;
    }
    return total;
  }
}
