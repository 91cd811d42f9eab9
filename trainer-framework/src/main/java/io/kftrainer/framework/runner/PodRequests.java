package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kftrainer.framework.model.Quantities;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resources one pod requests, computed as Kubernetes' {@code resourcehelper.PodRequests} does (which upstream
 * uses for PodGroups): the containers' requests summed; each init container runs alone, except restartable
 * (sidecar) init containers, which keep running beside the later ones and the main containers; the larger of the
 * two wins per resource; then the pod overhead. Only requests count: a template is not defaulted, so a limit
 * without a request adds nothing.
 */
final class PodRequests {

  private static final String RESTART_ALWAYS = "Always";

  private PodRequests() {
  }

  static Map<String, Quantity> of(PodSpec pod) {
    Map<String, BigDecimal> total = new LinkedHashMap<>();
    nullToEmpty(pod.getContainers()).forEach(c -> add(total, requests(c)));

    Map<String, BigDecimal> sidecars = new LinkedHashMap<>();
    Map<String, BigDecimal> initPeak = new LinkedHashMap<>();
    for (Container init : nullToEmpty(pod.getInitContainers())) {
      Map<String, BigDecimal> running;
      if (RESTART_ALWAYS.equals(init.getRestartPolicy())) {
        add(total, requests(init));
        add(sidecars, requests(init));
        running = sidecars;
      } else {
        running = new LinkedHashMap<>(sidecars);
        add(running, requests(init));
      }
      running.forEach((name, amount) -> initPeak.merge(name, amount, BigDecimal::max));
    }
    initPeak.forEach((name, amount) -> total.merge(name, amount, BigDecimal::max));
    if (pod.getOverhead() != null) {
      pod.getOverhead().forEach((name, q) -> total.merge(name, q.getNumericalAmount(), BigDecimal::add));
    }

    Map<String, Quantity> result = new LinkedHashMap<>();
    total.forEach((name, amount) -> result.put(name, Quantities.of(amount)));
    return result;
  }

  private static Map<String, BigDecimal> requests(Container container) {
    Map<String, BigDecimal> result = new LinkedHashMap<>();
    if (container.getResources() != null && container.getResources().getRequests() != null) {
      container.getResources().getRequests().forEach((name, q) -> result.put(name, q.getNumericalAmount()));
    }
    return result;
  }

  private static void add(Map<String, BigDecimal> total, Map<String, BigDecimal> more) {
    more.forEach((name, amount) -> total.merge(name, amount, BigDecimal::add));
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
