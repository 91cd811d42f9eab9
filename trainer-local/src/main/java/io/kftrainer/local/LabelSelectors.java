package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/**
 * Label selector matching as the API server does it for webhook {@code objectSelector}s and
 * {@code namespaceSelector}s: {@code matchLabels} and {@code matchExpressions} (In, NotIn, Exists, DoesNotExist),
 * all of which must hold; an absent or empty selector matches everything.
 */
final class LabelSelectors {

  private LabelSelectors() {
  }

  /**
   * Whether {@code labels} satisfy {@code selector}.
   *
   * @throws IllegalArgumentException for an unknown operator, which the API server would have refused
   */
  static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    Map<String, String> actual = labels == null ? Map.of() : labels;
    if (selector.getMatchLabels() != null) {
      for (Map.Entry<String, String> wanted : selector.getMatchLabels().entrySet()) {
        if (!wanted.getValue().equals(actual.get(wanted.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
        if (!matches(requirement, actual)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    String operator = requirement.getOperator();
    switch (operator == null ? "" : operator) {
      case "In":
        return value != null && values.contains(value);
      case "NotIn":
        return value == null || !values.contains(value);
      case "Exists":
        return value != null;
      case "DoesNotExist":
        return value == null;
      default:
        throw new IllegalArgumentException("unknown label selector operator \"" + operator + "\"");
    }
  }
}
