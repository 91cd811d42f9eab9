package io.kftrainer.apiserver;

import java.util.ArrayList;
import java.util.List;

/**
 * A write's {@code fieldValidation} query parameter: what kube-apiserver does with the unknown fields
 * ({@link UnknownFields}) and repeated keys ({@link DuplicateFields}) of its body, the problems its strict decoder
 * reports. {@code Ignore} drops unknown fields silently (a non-strict decoder), {@code Warn} drops them and answers
 * one {@code Warning} header per problem, {@code Strict} refuses the request. Absent or empty is {@code Warn}, as
 * kube-apiserver (handlers/rest.go {@code fieldValidation}); kubectl sends {@code Strict} unless
 * {@code --validate=warn|ignore}. Any other value is refused with the options' 422.
 */
enum FieldValidation {
  IGNORE("Ignore"), WARN("Warn"), STRICT("Strict");

  static final String PARAMETER = "fieldValidation";

  private final String value;

  FieldValidation(String value) {
    this.value = value;
  }

  /**
   * The directive of {@code rp}'s request.
   *
   * @throws ApiException kube-apiserver's 422 of {@code optionsKind} ({@code CreateOptions}, {@code UpdateOptions})
   *                      for a value it does not support
   */
  static FieldValidation of(ResourcePath rp, String optionsKind) {
    String error = optionError(rp);
    if (error != null) {
      throw new ApiException(invalidOptions(optionsKind, List.of(error)));
    }
    return parse(rp.query().get(PARAMETER));
  }

  /**
   * The cause kube-apiserver's options validation gives an unsupported value
   * ({@code fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"}); null when the
   * value is supported.
   */
  static String optionError(ResourcePath rp) {
    String requested = rp.query().get(PARAMETER);
    if (requested == null || requested.isEmpty()) {
      return null;
    }
    for (FieldValidation directive : values()) {
      if (directive.value.equals(requested)) {
        return null;
      }
    }
    return PARAMETER + ": Unsupported value: " + GoText.quote(requested)
        + ": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"";
  }

  /** kube's 422 for invalid request options: {@code PatchOptions.meta.k8s.io "" is invalid: <causes>}. */
  static Response invalidOptions(String optionsKind, List<String> causes) {
    return StatusErrors.invalid("meta.k8s.io", optionsKind, "", causes);
  }

  private static FieldValidation parse(String requested) {
    if (requested != null) {
      for (FieldValidation directive : values()) {
        if (directive.value.equals(requested)) {
          return directive;
        }
      }
    }
    return WARN;
  }

  /** Whether problems are looked for (kube-apiserver decodes strictly under {@code Warn} and {@code Strict}). */
  boolean reports() {
    return this != IGNORE;
  }

  /** kube's {@code runtime.NewStrictDecodingError}: {@code strict decoding error: <problem>, <problem>}. */
  static String strictDecodingError(List<String> problems) {
    return "strict decoding error: " + String.join(", ", problems);
  }

  /**
   * The warnings of {@code Warn}: one per problem, and one per line of go-yaml's error (kube's
   * {@code addStrictDecodingWarnings} strips {@code yaml: unmarshal errors:} and splits the rest).
   */
  static List<String> warnings(List<String> problems) {
    List<String> warnings = new ArrayList<>();
    for (String problem : problems) {
      String lines = problem.startsWith(YAML_LONG_PREFIX) ? problem.substring(YAML_LONG_PREFIX.length())
          : problem.startsWith(DuplicateFields.YAML_ERRORS) ? problem.substring(DuplicateFields.YAML_ERRORS.length())
          : null;
      if (lines == null) {
        warnings.add(problem);
      } else {
        for (String line : lines.split("\n")) {
          warnings.add(line.trim());
        }
      }
    }
    return warnings;
  }

  /** sigs.k8s.io/yaml's wrapping of go-yaml's error when it converts a whole document ({@code UnmarshalStrict}). */
  static final String YAML_LONG_PREFIX = "error converting YAML to JSON: " + DuplicateFields.YAML_ERRORS;
}
