package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a pod asks of a node, as kube-scheduler computes it: the larger, per resource, of the sum over its containers
 * and the largest init container (init containers run one at a time, before the others), plus
 * {@code spec.overhead}. A container's request is its {@code requests} entry, else its {@code limits} entry (the
 * API server's defaulting on a node's cluster). Amounts are in the resource's base unit (cores, bytes, devices).
 */
final class PodRequests {

  static final String GPU = "nvidia.com/gpu";

  private PodRequests() {
  }

  static Map<String, BigDecimal> of(PodSpec spec) {
    Map<String, BigDecimal> sum = new TreeMap<>();
    for (Container c : spec.getContainers()) {
      of(c).forEach((k, v) -> sum.merge(k, v, BigDecimal::add));
    }
    for (Container c : Optional.ofNullable(spec.getInitContainers()).orElse(List.of())) {
      of(c).forEach((k, v) -> sum.merge(k, v, BigDecimal::max));
    }
    Optional.ofNullable(spec.getOverhead()).orElse(Map.of())
        .forEach((k, v) -> sum.merge(k, v.getNumericalAmount(), BigDecimal::add));
    sum.values().removeIf(v -> v.signum() == 0);
    return sum;
  }

  static Map<String, BigDecimal> of(Container container) {
    Map<String, BigDecimal> requests = new TreeMap<>();
    ResourceRequirements resources = container.getResources();
    if (resources == null) {
      return requests;
    }
    Optional.ofNullable(resources.getLimits()).orElse(Map.of())
        .forEach((k, v) -> requests.put(k, v.getNumericalAmount()));
    Optional.ofNullable(resources.getRequests()).orElse(Map.of())
        .forEach((k, v) -> requests.put(k, v.getNumericalAmount()));
    return requests;
  }

  /** The GPUs a container asks for: whole devices, as the device plugin hands them out. */
  static int gpus(Container container) {
    return of(container).getOrDefault(GPU, BigDecimal.ZERO).setScale(0, java.math.RoundingMode.CEILING).intValue();
  }

  /** A quantity in the notation kubectl prints: cores as {@code 1500m} or {@code 2}, bytes as {@code 512Mi}. */
  static Quantity quantity(String resource, BigDecimal amount) {
    if ("cpu".equals(resource)) {
      BigDecimal millis = amount.movePointRight(3);
      return millis.remainder(BigDecimal.valueOf(1000)).signum() == 0
          ? new Quantity(amount.stripTrailingZeros().toPlainString())
          : new Quantity(millis.setScale(0, java.math.RoundingMode.CEILING).toPlainString() + "m");
    }
    if ("memory".equals(resource) || resource.startsWith("ephemeral-storage")) {
      long bytes = amount.longValue();
      if (bytes % (1024L * 1024) == 0) {
        return new Quantity(bytes / (1024L * 1024) + "Mi");
      }
      if (bytes % 1024 == 0) {
        return new Quantity(bytes / 1024 + "Ki");
      }
    }
    return new Quantity(amount.stripTrailingZeros().toPlainString());
  }
}
