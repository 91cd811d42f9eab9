package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An {@link AdmissionHook}'s answer: allow, deny with a {@link Status}, or allow with a mutation given either as an
 * RFC 6902 JSON patch (what real mutating webhooks return) or as the whole mutated object.
 */
public final class AdmissionResponse {

  private static final AdmissionResponse ALLOW = new AdmissionResponse(true, null, null, null, List.of());

  private final boolean allowed;
  private final Status status;
  private final JsonNode jsonPatch;
  private final GenericKubernetesResource mutated;
  private final List<String> warnings;

  private AdmissionResponse(boolean allowed, Status status, JsonNode jsonPatch, GenericKubernetesResource mutated,
      List<String> warnings) {
    this.allowed = allowed;
    this.status = status;
    this.jsonPatch = jsonPatch;
    this.mutated = mutated;
    this.warnings = List.copyOf(warnings);
  }

  public static AdmissionResponse allow() {
    return ALLOW;
  }

  /** Denies with a Status of the given HTTP code (a webhook's default is 400 with reason {@code BadRequest}). */
  public static AdmissionResponse deny(int code, String message, StatusCause... causes) {
    StatusBuilder status = new StatusBuilder().withStatus("Failure").withCode(code).withMessage(message)
        .withReason(reasonFor(code));
    if (causes.length > 0) {
      status.withNewDetails().withCauses(Arrays.asList(causes)).endDetails();
    }
    return deny(status.build());
  }

  /** Denies with the given status; its code defaults to 400 when unset. */
  public static AdmissionResponse deny(Status status) {
    Objects.requireNonNull(status, "status");
    return new AdmissionResponse(false, status, null, null, List.of());
  }

  /** Allows with an RFC 6902 JSON patch (an array of operations) applied to the request's object. */
  public static AdmissionResponse patch(JsonNode jsonPatch) {
    if (jsonPatch == null || !jsonPatch.isArray()) {
      throw new IllegalArgumentException("a JSON patch is an array of operations");
    }
    return new AdmissionResponse(true, null, jsonPatch, null, List.of());
  }

  /** Allows with an RFC 6902 JSON patch given as JSON text. */
  public static AdmissionResponse patch(String jsonPatch) {
    try {
      return patch(Json.MAPPER.readTree(jsonPatch));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("invalid JSON patch: " + e.getMessage(), e);
    }
  }

  /** Allows and replaces the request's object with {@code mutated}. */
  public static AdmissionResponse mutate(GenericKubernetesResource mutated) {
    return new AdmissionResponse(true, null, null, Objects.requireNonNull(mutated, "mutated"), List.of());
  }

  /** A copy of this response carrying warnings (returned to clients in {@code Warning} headers). */
  public AdmissionResponse withWarnings(String... warnings) {
    return new AdmissionResponse(allowed, status, jsonPatch, mutated, Arrays.asList(warnings));
  }

  public boolean allowed() {
    return allowed;
  }

  /** The denial status, null when allowed. */
  public Status status() {
    return status;
  }

  /** The RFC 6902 patch, or null. */
  public JsonNode jsonPatch() {
    return jsonPatch;
  }

  /** The mutated object, or null. */
  public GenericKubernetesResource mutated() {
    return mutated;
  }

  public boolean isMutation() {
    return jsonPatch != null || mutated != null;
  }

  public List<String> warnings() {
    return warnings;
  }

  static String reasonFor(int code) {
    switch (code) {
      case 400: return "BadRequest";
      case 401: return "Unauthorized";
      case 403: return "Forbidden";
      case 404: return "NotFound";
      case 409: return "Conflict";
      case 422: return "Invalid";
      case 429: return "TooManyRequests";
      case 500: return "InternalError";
      case 503: return "ServiceUnavailable";
      case 504: return "Timeout";
      default: return "";
    }
  }
}
