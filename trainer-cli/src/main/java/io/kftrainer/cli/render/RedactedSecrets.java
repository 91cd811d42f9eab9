package io.kftrainer.cli.render;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code render} prints of a Secret: its keys, each value replaced by {@value #REDACTED} (base64-encoded in
 * {@code data}, so that the output still passes {@code kubectl apply --dry-run=server}). Render output goes to
 * terminals, CI logs and review diffs; the key material it would show (MPI's SSH private key) is generated anew
 * by the operator for every TrainJob anyway, so the printed value was never the one a cluster would use.
 */
final class RedactedSecrets {

  static final String REDACTED = "[redacted]";
  private static final String REDACTED_DATA =
      Base64.getEncoder().encodeToString(REDACTED.getBytes(StandardCharsets.US_ASCII));

  private RedactedSecrets() {
  }

  static List<HasMetadata> of(List<HasMetadata> objects) {
    return objects.stream().map(RedactedSecrets::redacted).toList();
  }

  private static HasMetadata redacted(HasMetadata object) {
    if (object instanceof Secret secret) {
      return new SecretBuilder(secret)
          .withData(replaced(secret.getData(), REDACTED_DATA))
          .withStringData(replaced(secret.getStringData(), REDACTED))
          .build();
    }
    if (object instanceof GenericKubernetesResource generic && "v1".equals(generic.getApiVersion())
        && "Secret".equals(generic.getKind())) {
      GenericKubernetesResource copy = new GenericKubernetesResource();
      copy.setApiVersion(generic.getApiVersion());
      copy.setKind(generic.getKind());
      copy.setMetadata(generic.getMetadata());
      Map<String, Object> properties = new LinkedHashMap<>(generic.getAdditionalProperties());
      replaceIn(properties, "data", REDACTED_DATA);
      replaceIn(properties, "stringData", REDACTED);
      properties.forEach(copy::setAdditionalProperty);
      return copy;
    }
    return object;
  }

  private static Map<String, String> replaced(Map<String, String> values, String replacement) {
    if (values == null) {
      return null;
    }
    Map<String, String> copy = new LinkedHashMap<>();
    values.keySet().forEach(key -> copy.put(key, replacement));
    return copy;
  }

  private static void replaceIn(Map<String, Object> properties, String field, String replacement) {
    if (properties.get(field) instanceof Map<?, ?> values) {
      Map<String, String> copy = new LinkedHashMap<>();
      values.keySet().forEach(key -> copy.put(String.valueOf(key), replacement));
      properties.put(field, copy);
    }
  }
}
