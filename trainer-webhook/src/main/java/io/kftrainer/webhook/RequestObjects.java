package io.kftrainer.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Objects;

/**
 * The objects of an admission request in the operator's model. fabric8 leaves {@code object} and
 * {@code oldObject} untyped (a map, or a resource when its kind is registered); both are converted through the
 * operator's serialization.
 */
final class RequestObjects {

  static final String CREATE = "CREATE";
  static final String UPDATE = "UPDATE";

  private final KubernetesSerialization serialization;

  RequestObjects(KubernetesSerialization serialization) {
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  /** {@code request.object} as a {@code type}. */
  <T extends HasMetadata> T object(AdmissionRequest request, Class<T> type) {
    return convert(request.getObject(), type, "object");
  }

  /** {@code request.oldObject} as a {@code type}; null on create. */
  <T extends HasMetadata> T oldObject(AdmissionRequest request, Class<T> type) {
    return request.getOldObject() == null ? null : convert(request.getOldObject(), type, "oldObject");
  }

  JsonNode tree(Object object) {
    return serialization.convertValue(object, JsonNode.class);
  }

  /** The object's name, or the request's when the object has none yet (generateName). */
  static String name(HasMetadata object, AdmissionRequest request) {
    String name = object.getMetadata() == null ? null : object.getMetadata().getName();
    return name == null || name.isEmpty() ? Objects.requireNonNullElse(request.getName(), "") : name;
  }

  private <T> T convert(Object value, Class<T> type, String field) {
    if (value == null) {
      throw new IllegalArgumentException("the admission request has no " + field);
    }
    try {
      return serialization.convertValue(value, type);
    } catch (IllegalArgumentException e) {
      if (e.getCause() instanceof com.fasterxml.jackson.databind.JsonMappingException mapping) {
        throw new UndecodableObjectException(mapping);
      }
      throw e;
    }
  }
}
