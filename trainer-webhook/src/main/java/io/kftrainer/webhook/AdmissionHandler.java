package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;

/**
 * The decision of one admission webhook on one request, without transport: {@link AdmissionReviews} decodes the
 * request and encodes the response (setting its {@code uid}), {@link WebhookServer} carries them over HTTPS.
 *
 * <p>Invalid objects are answered with a denial ({@link AdmissionResponses}), never an exception. An exception is a bug
 * or a failing plugin; it becomes a denial naming its cause.
 */
@FunctionalInterface
public interface AdmissionHandler {

  AdmissionResponse admit(AdmissionRequest request);
}
