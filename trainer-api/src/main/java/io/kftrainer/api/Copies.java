package io.kftrainer.api;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Deep copies of model objects (ours and fabric8's) through a JSON round trip with fabric8's serialization.
 */
public final class Copies {

  // Stateless once built; building a KubernetesSerialization scans the classpath, so do it once.
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Copies() {
  }

  /**
   * Returns a deep copy of {@code value}, of the same class, or {@code null} for {@code null}.
   */
  public static <T> T deepCopy(T value) {
    if (value == null) {
      return null;
    }
    return SERIALIZATION.clone(value);
  }
}
