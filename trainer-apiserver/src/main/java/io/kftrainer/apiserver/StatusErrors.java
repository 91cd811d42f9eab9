package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.StatusDetails;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** kube-apiserver's failure answers, as {@code Status} bodies with its reasons and messages. */
final class StatusErrors {

  private static final int UNPROCESSABLE = 422;

  private StatusErrors() {
  }

  static StatusDetails details(Target target, String name) {
    StatusDetails details = new StatusDetails();
    details.setName(name);
    details.setGroup(target.rp().group());
    details.setKind(target.rp().plural());
    return details;
  }

  static Response notFound(Target target) {
    String name = target.rp().name();
    return Response.json(404, Response.failure(404, "NotFound", target.qualified() + " \"" + name + "\" not found",
        details(target, name)));
  }

  static Response alreadyExists(Target target, String name) {
    return Response.json(409, Response.failure(409, "AlreadyExists", target.qualified() + " \"" + name
        + "\" already exists", details(target, name)));
  }

  static Response conflict(Target target) {
    String name = target.rp().name();
    return Response.json(409, Response.failure(409, "Conflict", "Operation cannot be fulfilled on "
        + target.qualified() + " \"" + name + "\": the object has been modified; please apply your changes to the "
        + "latest version and try again", details(target, name)));
  }

  /** 422 Invalid with kube-apiserver's message: {@code Kind.group "name" is invalid: [cause, cause]}. */
  static Response invalid(Target target, String name, List<String> causes) {
    return invalid(target.rp().group(), target.kindName(), name, causes);
  }

  /**
   * 422 Invalid of an object of {@code group} and {@code kind} named {@code name} (none when empty, as
   * kube-apiserver's TokenRequests before they take their ServiceAccount's name), with one cause per error.
   */
  static Response invalid(String group, String kindName, String name, List<String> causes) {
    String kind = kindName + (group.isEmpty() ? "" : "." + group);
    String joined = causes.size() == 1 ? causes.get(0) : "[" + String.join(", ", causes) + "]";
    StatusDetails details = new StatusDetails();
    details.setName(name.isEmpty() ? null : name);
    details.setGroup(group);
    details.setKind(kindName);
    List<io.fabric8.kubernetes.api.model.StatusCause> statusCauses = new ArrayList<>();
    for (String cause : causes) {
      io.fabric8.kubernetes.api.model.StatusCause c = new io.fabric8.kubernetes.api.model.StatusCause();
      int colon = cause.indexOf(": ");
      c.setField(colon < 0 ? "" : cause.substring(0, colon));
      c.setMessage(colon < 0 ? cause : cause.substring(colon + 2));
      c.setReason(causeType(c.getMessage()));
      statusCauses.add(c);
    }
    details.setCauses(statusCauses);
    return Response.json(UNPROCESSABLE, Response.failure(UNPROCESSABLE, "Invalid", kind + " \"" + name
        + "\" is invalid: " + joined, details));
  }

  /** kube's cause types ({@code field.ErrorType}) by the text that starts an error's body. */
  private static final Map<String, String> CAUSE_TYPES = Map.of("Required value", "FieldValueRequired",
      "Unsupported value", "FieldValueNotSupported", "Duplicate value", "FieldValueDuplicate",
      "Too long", "FieldValueTooLong", "Too many", "FieldValueTooMany", "Forbidden", "FieldValueForbidden",
      "Not found", "FieldValueNotFound", "Internal error", "InternalError");

  private static String causeType(String body) {
    return CAUSE_TYPES.entrySet().stream().filter(type -> body.startsWith(type.getKey())).map(Map.Entry::getValue)
        .findFirst().orElse("FieldValueInvalid");
  }
}
