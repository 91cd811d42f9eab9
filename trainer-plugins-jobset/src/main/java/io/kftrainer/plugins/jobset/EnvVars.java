package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Env lists merged by name, the way upstream's {@code apply.UpsertEnvVars} does. */
final class EnvVars {

  private EnvVars() {
  }

  /**
   * {@code base} with {@code additions} upserted: a variable already present keeps its position and takes the new
   * value, a new one is appended in the order given. Null when the result is empty, so that an absent list stays
   * absent.
   */
  static List<EnvVar> upsert(List<EnvVar> base, List<EnvVar> additions) {
    Map<String, EnvVar> byName = new LinkedHashMap<>();
    if (base != null) {
      base.forEach(e -> byName.put(e.getName(), e));
    }
    if (additions != null) {
      additions.forEach(e -> byName.put(e.getName(), e));
    }
    return byName.isEmpty() ? null : new ArrayList<>(byName.values());
  }
}
