package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a gang needs to start: every pod of every pod set (initializers included) at once, so {@code minMember} is
 * the sum of the pod set counts and {@code minResources} the sum of each pod set's single-pod requests times its
 * count, per resource. Resources are keyed by name in sorted order, as Kubernetes serializes a resource list.
 * Shared by the gang-scheduling plugins (CoScheduling, Volcano).
 */
public record GangSize(int minMember, Map<String, Quantity> minResources) {

  public GangSize {
    minResources = Collections.unmodifiableMap(new TreeMap<>(minResources));
  }

  public static GangSize of(List<PodSet> podSets) {
    int members = 0;
    Map<String, BigDecimal> total = new TreeMap<>();
    for (PodSet podSet : podSets) {
      members += podSet.count();
      BigDecimal count = BigDecimal.valueOf(podSet.count());
      podSet.singlePodRequests().forEach((resource, quantity) ->
          total.merge(resource, Quantities.amount(quantity).multiply(count), BigDecimal::add));
    }
    Map<String, Quantity> resources = new TreeMap<>();
    total.forEach((resource, amount) -> resources.put(resource, Quantities.of(amount)));
    return new GangSize(members, resources);
  }

  /**
   * {@link #minResources()} as the PodGroup CRDs of scheduler-plugins and Volcano type them: int-or-string, each
   * value a quantity's canonical text.
   */
  public Map<String, IntOrString> minResourcesAsIntOrString() {
    Map<String, IntOrString> resources = new TreeMap<>();
    minResources.forEach((resource, quantity) -> resources.put(resource, new IntOrString(quantity.toString())));
    return resources;
  }
}
