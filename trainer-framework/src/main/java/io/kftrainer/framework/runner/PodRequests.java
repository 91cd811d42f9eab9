package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import io.kftrainer.framework.model.Quantities;
import java.util.List;
import java.util.Map;

/**
 * The resources one pod requests, as the scheduler counts them: the sum over containers, or the largest init
 * container if that is more, per resource. A container with a limit and no request requests its limit, as
 * Kubernetes defaults it.
 */
final class PodRequests {

  private PodRequests() {
  }

  static Map<String, Quantity> of(PodSpec pod) {
    Map<String, BigDecimal> total = new LinkedHashMap<>();
    for (Container container : nullToEmpty(pod.getContainers())) {
      requests(container).forEach((name, amount) -> total.merge(name, amount, BigDecimal::add));
    }
    for (Container init : nullToEmpty(pod.getInitContainers())) {
      requests(init).forEach((name, amount) -> total.merge(name, amount, BigDecimal::max));
    }
    Map<String, Quantity> result = new LinkedHashMap<>();
    total.forEach((name, amount) -> result.put(name, Quantities.of(amount)));
    return result;
  }

  private static Map<String, BigDecimal> requests(Container container) {
    Map<String, BigDecimal> result = new LinkedHashMap<>();
    ResourceRequirements resources = container.getResources();
    if (resources == null) {
      return result;
    }
    if (resources.getLimits() != null) {
      resources.getLimits().forEach((name, q) -> result.put(name, q.getNumericalAmount()));
    }
    if (resources.getRequests() != null) {
      resources.getRequests().forEach((name, q) -> result.put(name, q.getNumericalAmount()));
    }
    return result;
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
