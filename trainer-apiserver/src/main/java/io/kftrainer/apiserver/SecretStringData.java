package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A Secret's {@code stringData}, write-only as in kube-apiserver: merged into {@code data} (base64, over a key of the
 * same name) when the Secret is written, before admission, and never stored or returned.
 */
final class SecretStringData {

  private SecretStringData() {
  }

  static boolean applies(Target target) {
    return target.rp().group().isEmpty() && target.rp().plural().equals("secrets") && target.rp().subresource() == null;
  }

  /** Moves {@code secret}'s {@code stringData} into its {@code data}. */
  static void mergeIntoData(ObjectNode secret) {
    JsonNode strings = secret.remove("stringData");
    if (strings == null || !strings.isObject() || strings.isEmpty()) {
      return;
    }
    JsonNode existing = secret.get("data");
    ObjectNode data = existing instanceof ObjectNode object ? object : secret.putObject("data");
    strings.fields().forEachRemaining(entry -> data.put(entry.getKey(),
        Base64.getEncoder().encodeToString(entry.getValue().asText().getBytes(StandardCharsets.UTF_8))));
  }
}
