package io.kftrainer.framework.model;

import java.util.Objects;

/**
 * One problem with one field, as Kubernetes reports them ({@code field.Error}): its type, the path, the bad value
 * (may be null) and a human detail. {@link #toString()} gives {@code <path>: <detail>}.
 */
public record FieldError(Type type, FieldPath field, Object badValue, String detail) {

  /** The error types of Kubernetes' field validation, with the reason used in a {@code Status} cause. */
  public enum Type {
    REQUIRED("FieldValueRequired", "Required value"),
    INVALID("FieldValueInvalid", "Invalid value"),
    FORBIDDEN("FieldValueForbidden", "Forbidden"),
    NOT_FOUND("FieldValueNotFound", "Not found"),
    NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
    DUPLICATE("FieldValueDuplicate", "Duplicate value"),
    TOO_MANY("FieldValueTooMany", "Too many");

    private final String reason;
    private final String label;

    Type(String reason, String label) {
      this.reason = reason;
      this.label = label;
    }

    /** The cause type of an API {@code Status}, e.g. {@code FieldValueInvalid}. */
    public String reason() {
      return reason;
    }

    /** The words Kubernetes prints for this type, e.g. {@code Invalid value}. */
    public String label() {
      return label;
    }
  }

  public FieldError {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(detail, "detail");
  }

  public static FieldError required(FieldPath field, String detail) {
    return new FieldError(Type.REQUIRED, field, null, detail);
  }

  public static FieldError invalid(FieldPath field, Object badValue, String detail) {
    return new FieldError(Type.INVALID, field, badValue, detail);
  }

  public static FieldError forbidden(FieldPath field, String detail) {
    return new FieldError(Type.FORBIDDEN, field, null, detail);
  }

  public static FieldError notFound(FieldPath field, Object badValue, String detail) {
    return new FieldError(Type.NOT_FOUND, field, badValue, detail);
  }

  public static FieldError notSupported(FieldPath field, Object badValue, String detail) {
    return new FieldError(Type.NOT_SUPPORTED, field, badValue, detail);
  }

  public static FieldError duplicate(FieldPath field, Object badValue) {
    return new FieldError(Type.DUPLICATE, field, badValue, "must be unique");
  }

  /** The message without the path, as Kubernetes words it: {@code Invalid value: 0: must be >= 1}. */
  public String message() {
    return badValue == null ? type.label() + ": " + detail : type.label() + ": " + badValue + ": " + detail;
  }

  @Override
  public String toString() {
    return field + ": " + detail;
  }
}
