package io.kftrainer.webhook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.runtime.FieldErrorText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Admission responses, built in one place so that every webhook answers alike.
 *
 * <p>A validation failure is a {@code Status} as the API server builds one for an invalid object
 * ({@code apierrors.NewInvalid}): code 422, reason {@code Invalid}, message
 * {@code <Kind>.<group> "<name>" is invalid: <errors>} where {@code <errors>} is the one error, or the errors in
 * brackets separated by ", " (duplicates dropped), each {@code <path>: <type>: <value>: <detail>}
 * ({@link FieldErrorText}), and one {@code details.causes} entry per error with the field path, the type's reason
 * (e.g. {@code FieldValueInvalid}) and the message without the path. The API server prefixes the message with
 * {@code admission webhook "<name>" denied the request: } when it passes it on.
 */
public final class AdmissionResponses {

  static final String PATCH_TYPE_JSON_PATCH = "JSONPatch";

  private AdmissionResponses() {
  }

  public static AdmissionResponse allowed(List<String> warnings) {
    AdmissionResponse response = new AdmissionResponse();
    response.setAllowed(true);
    setWarnings(response, warnings);
    return response;
  }

  public static AdmissionResponse allowed() {
    return allowed(List.of());
  }

  /** Allowed with a JSON patch (RFC 6902) of the object; a plain allow if {@code operations} is empty. */
  public static AdmissionResponse patched(ArrayNode operations) {
    AdmissionResponse response = allowed();
    if (!operations.isEmpty()) {
      response.setPatchType(PATCH_TYPE_JSON_PATCH);
      response.setPatch(Base64.getEncoder().encodeToString(operations.toString().getBytes(StandardCharsets.UTF_8)));
    }
    return response;
  }

  public static AdmissionResponse denied(Status status, List<String> warnings) {
    AdmissionResponse response = new AdmissionResponse();
    response.setAllowed(false);
    response.setStatus(status);
    setWarnings(response, warnings);
    return response;
  }

  /**
   * The response to a validation: allowed with its warnings if it has no error, else denied as invalid.
   *
   * @param group the object's API group
   * @param kind the object's kind
   * @param name the object's name
   */
  public static AdmissionResponse of(ValidationResult result, String group, String kind, String name) {
    if (result.isValid()) {
      return allowed(result.warnings());
    }
    return denied(invalid(group, kind, name, result.errors()), result.warnings());
  }

  /** The {@code Status} of an invalid object (see the class comment); {@code errors} must not be empty. */
  public static Status invalid(String group, String kind, String name, List<FieldError> errors) {
    List<StatusCause> causes = new ArrayList<>();
    Set<String> messages = new LinkedHashSet<>();
    for (FieldError error : errors) {
      String field = error.field().value();
      String message = FieldErrorText.describe(error);
      causes.add(new StatusCause(field, message.substring(field.length() + 2), error.type().reason()));
      messages.add(message);
    }
    String aggregate = messages.size() == 1 ? messages.iterator().next() : "[" + String.join(", ", messages) + "]";
    return new StatusBuilder()
        .withStatus("Failure")
        .withCode(422)
        .withReason("Invalid")
        .withMessage(kind + "." + group + " \"" + name + "\" is invalid: " + aggregate)
        .withNewDetails()
        .withGroup(group)
        .withKind(kind)
        .withName(name)
        .withCauses(causes)
        .endDetails()
        .build();
  }

  /** A request the webhook could not decide because it failed: code 500, reason {@code InternalError}. */
  public static Status internalError(String message) {
    return new StatusBuilder().withStatus("Failure").withCode(500).withReason("InternalError").withMessage(message)
        .build();
  }

  private static void setWarnings(AdmissionResponse response, List<String> warnings) {
    if (!warnings.isEmpty()) {
      response.setWarnings(List.copyOf(warnings));
    }
  }
}
