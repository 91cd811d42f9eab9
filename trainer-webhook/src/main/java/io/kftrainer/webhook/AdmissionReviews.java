package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.runtime.EventMessages;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code admission.k8s.io/v1} {@code AdmissionReview} protocol: decodes a request review, asks an
 * {@link AdmissionHandler}, and encodes the response review with the request's {@code uid}, as the API server
 * requires.
 *
 * <p>A handler that throws does not fail the call: the response denies the request with code 500. For a
 * {@link PluginException} the message names the plugin and phase ({@code plugin Torch failed in CustomValidation:
 * ...}), so that the user who sees the denial knows which plugin to look at.
 */
public final class AdmissionReviews {

  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionReviews.class);

  private final KubernetesSerialization serialization;

  public AdmissionReviews(KubernetesSerialization serialization) {
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  /** A request body that is not an {@code admission.k8s.io/v1} AdmissionReview with a request. */
  public static final class BadRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BadRequestException(String message) {
      super(message);
    }
  }

  /**
   * The response review to the serialized request review {@code body}.
   *
   * @throws BadRequestException if {@code body} is not a v1 AdmissionReview with a request and a uid
   */
  public byte[] answer(byte[] body, AdmissionHandler handler) {
    AdmissionReview review = read(body);
    AdmissionReview answer = new AdmissionReview(API_VERSION, KIND, null, answer(review.getRequest(), handler));
    return serialization.asJson(answer).getBytes(StandardCharsets.UTF_8);
  }

  /** The handler's response to {@code request}, with its uid; a throwing handler denies (code 500). */
  public AdmissionResponse answer(AdmissionRequest request, AdmissionHandler handler) {
    AdmissionResponse response;
    try {
      response = handler.admit(request);
    } catch (UndecodableObjectException e) {
      String kind = request.getKind() == null ? "" : request.getKind().getKind();
      String group = request.getKind() == null ? "" : request.getKind().getGroup();
      response = AdmissionResponses.denied(AdmissionResponses.invalid(group, kind, request.getName(), List.of(e.error())),
          List.of());
    } catch (PluginException e) {
      // a plugin's message is text we do not control: redacted in the log (no stack trace repeating it) and answer
      String message = EventMessages.of(e.getMessage());
      LOG.warn("AdmissionResponses of {} {} failed: {}", request.getKind() == null ? "?" : request.getKind().getKind(),
          objectName(request), message);
      response = AdmissionResponses.denied(AdmissionResponses.internalError(message), List.of());
    } catch (RuntimeException e) {
      LOG.error("AdmissionResponses of {} {} failed", request.getKind() == null ? "?" : request.getKind().getKind(),
          objectName(request), e);
      response = AdmissionResponses.denied(AdmissionResponses.internalError(EventMessages.of("the trainer webhook failed: " + e)),
          List.of());
    }
    response.setUid(request.getUid());
    return response;
  }

  private AdmissionReview read(byte[] body) {
    AdmissionReview review;
    try {
      review = serialization.unmarshal(new String(body, StandardCharsets.UTF_8), AdmissionReview.class);
    } catch (RuntimeException e) {
      throw new BadRequestException("the body is not an AdmissionReview: " + e.getMessage());
    }
    if (review == null || !API_VERSION.equals(review.getApiVersion()) || !KIND.equals(review.getKind())) {
      throw new BadRequestException("expected an " + KIND + " of " + API_VERSION);
    }
    if (review.getRequest() == null || review.getRequest().getUid() == null) {
      throw new BadRequestException("the " + KIND + " has no request uid");
    }
    return review;
  }

  private static String objectName(AdmissionRequest request) {
    return request.getNamespace() == null ? request.getName() : request.getNamespace() + "/" + request.getName();
  }
}
