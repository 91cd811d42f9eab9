package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.testkit.Fixtures;
import java.util.Map;
import java.util.UUID;

/** Admission requests as the API server sends them: objects as plain JSON maps, a fresh uid. */
final class TestingAdmission {

  static final KubernetesSerialization SERIALIZATION = Fixtures.serialization();

  private TestingAdmission() {
  }

  static AdmissionRequest create(HasMetadata object) {
    return request("CREATE", object, null);
  }

  static AdmissionRequest update(HasMetadata object, HasMetadata old) {
    return request("UPDATE", object, old);
  }

  static AdmissionRequest request(String operation, HasMetadata object, HasMetadata old) {
    AdmissionRequest request = new AdmissionRequest();
    request.setUid(UUID.randomUUID().toString());
    request.setOperation(operation);
    String[] apiVersion = object.getApiVersion().split("/");
    request.setKind(new GroupVersionKind(apiVersion[0], object.getKind(), apiVersion[1]));
    request.setName(object.getMetadata().getName());
    request.setNamespace(object.getMetadata().getNamespace());
    request.setObject(json(object));
    request.setOldObject(old == null ? null : json(old));
    return request;
  }

  /** The request wrapped in an admission.k8s.io/v1 AdmissionReview, as JSON. */
  static String review(AdmissionRequest request) {
    return SERIALIZATION.asJson(new AdmissionReview("admission.k8s.io/v1", "AdmissionReview", request, null));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(HasMetadata object) {
    return SERIALIZATION.convertValue(object, Map.class);
  }
}
