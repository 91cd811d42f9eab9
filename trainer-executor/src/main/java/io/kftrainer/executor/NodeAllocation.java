package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What the pods admitted to this node hold, as kube-scheduler's {@code NodeResourcesFit} filter and the kubelet's
 * admission and device manager account for it: a pod is admitted only when its {@link PodRequests} and one more pod
 * fit the node's allocatable resources less what the admitted pods hold, else it is refused with kube-scheduler's
 * message ({@code 0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient nvidia.com/gpu.}). An admitted pod's
 * GPUs are its own until {@link #release}: each container gets distinct ones, as the NVIDIA device plugin
 * allocates them, and init containers (which run before the others) reuse the pod's.
 *
 * <p>Called from the kubelet's thread and from the threads that end pods: synchronized.
 */
final class NodeAllocation {

  /**
   * A pod admitted (its GPUs by container), refused for now ({@code refusal}, kube-scheduler's message), or
   * rejected for good ({@code rejection}: it asks for more than the node has at all).
   */
  record Decision(Map<String, List<Gpu>> gpus, String refusal, Rejection rejection) {
    boolean admitted() {
      return refusal == null && rejection == null;
    }
  }

  /**
   * What the kubelet's admission says of a pod that asks for more of {@code resource} than the node's allocatable
   * ({@code OutOf<resource>}, "Pod was rejected: Node didn't have enough resource: ..."). A cluster's scheduler would
   * keep it {@code Pending} for a node that may come; this machine is the only node there will be.
   */
  record Rejection(String reason, String message) {
  }

  private final NodeCapacity node;
  private final Map<String, BigDecimal> allocatable;
  /** By pod uid: what each admitted pod holds, and its GPUs. */
  private final Map<String, Map<String, BigDecimal>> held = new HashMap<>();
  private final Map<String, List<Gpu>> heldGpus = new HashMap<>();

  NodeAllocation(NodeCapacity node) {
    this.node = node;
    this.allocatable = node.allocatable();
  }

  synchronized Decision admit(String podUid, PodSpec spec) {
    Map<String, BigDecimal> requests = PodRequests.of(spec);
    for (Map.Entry<String, BigDecimal> request : new java.util.TreeMap<>(requests).entrySet()) {
      BigDecimal capacity = allocatable.getOrDefault(request.getKey(), BigDecimal.ZERO);
      if (request.getValue().compareTo(capacity) > 0) {
        return new Decision(Map.of(), null, new Rejection("OutOf" + request.getKey(), "Pod was rejected: Node "
            + "didn't have enough resource: " + request.getKey() + ", requested: " + amount(request.getKey(),
            request.getValue()) + ", used: " + amount(request.getKey(), used().getOrDefault(request.getKey(),
            BigDecimal.ZERO)) + ", capacity: " + amount(request.getKey(), capacity)));
      }
    }
    Map<String, BigDecimal> used = used();
    TreeSet<String> reasons = new TreeSet<>();
    if (used.getOrDefault("pods", BigDecimal.ZERO).add(BigDecimal.ONE).compareTo(allocatable.get("pods")) > 0) {
      reasons.add("1 Too many pods");
    }
    requests.forEach((resource, amount) -> {
      BigDecimal free = allocatable.getOrDefault(resource, BigDecimal.ZERO)
          .subtract(used.getOrDefault(resource, BigDecimal.ZERO));
      if (amount.compareTo(free) > 0) {
        reasons.add("1 Insufficient " + resource);
      }
    });
    if (!reasons.isEmpty()) {
      return new Decision(Map.of(), "0/1 nodes are available: " + String.join(", ", reasons) + ".", null);
    }
    Map<String, BigDecimal> holds = new HashMap<>(requests);
    holds.put("pods", BigDecimal.ONE);
    held.put(podUid, holds);
    int gpuCount = requests.getOrDefault(PodRequests.GPU, BigDecimal.ZERO).intValue();
    List<Gpu> free = new ArrayList<>(node.gpus());
    heldGpus.values().forEach(free::removeAll);
    List<Gpu> mine = List.copyOf(free.subList(0, gpuCount));
    heldGpus.put(podUid, mine);
    return new Decision(byContainer(spec, mine), null, null);
  }

  /** As the kubelet writes amounts in its rejection: CPU in millicores, the rest in units. */
  private static String amount(String resource, BigDecimal value) {
    return (resource.equals("cpu") ? value.movePointRight(3) : value).setScale(0, java.math.RoundingMode.CEILING)
        .toPlainString();
  }

  /** Gives back what a pod held; nothing when it held nothing. */
  synchronized void release(String podUid) {
    held.remove(podUid);
    heldGpus.remove(podUid);
  }

  NodeCapacity node() {
    return node;
  }

  private Map<String, BigDecimal> used() {
    Map<String, BigDecimal> used = new HashMap<>();
    held.values().forEach(h -> h.forEach((k, v) -> used.merge(k, v, BigDecimal::add)));
    return used;
  }

  private static Map<String, List<Gpu>> byContainer(PodSpec spec, List<Gpu> gpus) {
    Map<String, List<Gpu>> result = new LinkedHashMap<>();
    for (Container c : Optional.ofNullable(spec.getInitContainers()).orElse(List.of())) {
      result.put(c.getName(), gpus.subList(0, Math.min(gpus.size(), PodRequests.gpus(c))));
    }
    int next = 0;
    for (Container c : spec.getContainers()) {
      int count = Math.min(gpus.size() - next, PodRequests.gpus(c));
      result.put(c.getName(), gpus.subList(next, next + count));
      next += count;
    }
    return result;
  }
}
