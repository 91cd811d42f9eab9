package io.kftrainer.framework.model;

/**
 * A path to a field of an object, rendered as Kubernetes does: {@code spec.trainer.env[2].name},
 * {@code metadata.labels[team]}.
 */
public record FieldPath(String value) {

  public static FieldPath of(String first, String... more) {
    FieldPath path = new FieldPath(first);
    for (String name : more) {
      path = path.child(name);
    }
    return path;
  }

  public FieldPath child(String name) {
    return new FieldPath(value + "." + name);
  }

  public FieldPath index(int index) {
    return new FieldPath(value + "[" + index + "]");
  }

  public FieldPath key(String key) {
    return new FieldPath(value + "[" + key + "]");
  }

  @Override
  public String toString() {
    return value;
  }
}
