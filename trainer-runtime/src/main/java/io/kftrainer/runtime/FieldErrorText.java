package io.kftrainer.runtime;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.framework.model.FieldError;

/**
 * A field error as Kubernetes prints it: {@code <path>: <type>: <bad value>: <detail>}, e.g.
 * {@code spec.trainer.numNodes: Invalid value: 0: must be >= 1}. The bad value is written as JSON (strings quoted,
 * objects and lists as compact JSON through the operator's serialization) so that it reads the same whatever its
 * Java type; it is left out when the error has none.
 */
public final class FieldErrorText {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private FieldErrorText() {
  }

  public static String describe(FieldError error) {
    String value = error.badValue() == null ? "" : json(error.badValue()) + ": ";
    return error.field() + ": " + error.type().label() + ": " + value + error.detail();
  }

  private static String json(Object value) {
    try {
      return SERIALIZATION.asJson(value);
    } catch (RuntimeException e) {
      return String.valueOf(value);
    }
  }
}
