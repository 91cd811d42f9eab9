package io.kftrainer.schema;

/**
 * One invalid field, rendered as kube-apiserver renders a {@code field.Error}:
 * {@code spec.trainer.numNodes: Invalid value: -1: spec.trainer.numNodes in body should be greater than or equal to 1}.
 *
 * @param type   the kind of error
 * @param field  the field path ({@code spec.trainer.numNodes}); {@code <nil>} for the object itself
 * @param value  the bad value as kube-apiserver prints it (strings quoted, numbers plain), null when not printed
 * @param detail what is wrong, may be empty
 */
public record SchemaFieldError(Type type, String field, String value, String detail) {

  /** kube-apiserver's error types, with their printed names. */
  public enum Type {
    INVALID("Invalid value", true),
    /** A value of the wrong type: printed as {@link #INVALID}, but it stops CEL validation as kube's TypeInvalid. */
    TYPE_INVALID("Invalid value", true),
    REQUIRED("Required value", false),
    UNSUPPORTED("Unsupported value", true),
    DUPLICATE("Duplicate value", true),
    TOO_LONG("Too long", false),
    TOO_MANY("Too many", true),
    FORBIDDEN("Forbidden", false);

    private final String text;
    private final boolean printsValue;

    Type(String text, boolean printsValue) {
      this.text = text;
      this.printsValue = printsValue;
    }

    @Override
    public String toString() {
      return text;
    }

    /**
     * Whether kube-apiserver skips an object's CEL rules after an error of this type (its {@code hasBlockingErr}):
     * required, unsupported (enum), too long, too many, and wrong type.
     */
    public boolean blocksRules() {
      return this == REQUIRED || this == UNSUPPORTED || this == TOO_LONG || this == TOO_MANY || this == TYPE_INVALID;
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(field.isEmpty() ? "<nil>" : field).append(": ").append(type);
    if (type.printsValue) {
      sb.append(": ").append(value == null ? "null" : value);
    }
    if (detail != null && !detail.isEmpty()) {
      sb.append(": ").append(detail);
    }
    return sb.toString();
  }
}
