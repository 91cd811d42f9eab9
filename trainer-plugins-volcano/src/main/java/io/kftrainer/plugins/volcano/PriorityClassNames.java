package io.kftrainer.plugins.volcano;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The priority classes a runtime's pods run with, which the Volcano PodGroup must carry so that Volcano orders and
 * preempts the whole gang by the same priority as its pods.
 */
final class PriorityClassNames {

  /**
   * The two built-in priority classes, which always exist without a PriorityClass object
   * (<a href="https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/">Kubernetes</a>).
   */
  static final Set<String> BUILT_IN = Set.of("system-cluster-critical", "system-node-critical");

  private PriorityClassNames() {
  }

  /** The non-empty {@code priorityClassName} of each replicated job's pod template, in template order. */
  static List<String> of(JobSetSpec template) {
    if (template == null || template.getReplicatedJobs() == null) {
      return List.of();
    }
    return template.getReplicatedJobs().stream()
        .map(PriorityClassNames::podSpec)
        .flatMap(Optional::stream)
        .map(PodSpec::getPriorityClassName)
        .filter(name -> name != null && !name.isEmpty())
        .toList();
  }

  /**
   * The class the PodGroup takes: upstream sets it once per replicated job in template order, so the last job that
   * names one wins.
   */
  static Optional<String> forPodGroup(JobSetSpec template) {
    List<String> names = of(template);
    return names.isEmpty() ? Optional.empty() : Optional.of(names.get(names.size() - 1));
  }

  private static Optional<PodSpec> podSpec(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(t -> t.getSpec())
        .map(s -> s.getTemplate())
        .map(t -> t.getSpec());
  }
}
