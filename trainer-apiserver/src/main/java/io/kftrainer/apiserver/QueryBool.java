package io.kftrainer.apiserver;

/**
 * A boolean query parameter read as kube-apiserver reads it (apimachinery's {@code Convert_Slice_string_To_bool}):
 * absent, {@code 0} or {@code false} in any case is false; any other value, the empty one included, is true. So
 * {@code follow=True} (the Kubernetes Python client's spelling of a Python {@code True}) and {@code watch=1} are true.
 */
final class QueryBool {

  private QueryBool() {
  }

  static boolean of(String value) {
    return value != null && !value.equals("0") && !value.equalsIgnoreCase("false");
  }
}
