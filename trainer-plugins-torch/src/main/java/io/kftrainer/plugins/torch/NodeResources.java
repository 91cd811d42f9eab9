package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.Quantities;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The compute resources of one trainer node, as upstream resolves them for {@code numProcPerNode}: the TrainJob's
 * {@code trainer.resourcesPerNode} as a whole when set (a full replacement, not a merge), else the resources of
 * container {@code node} in the first runtime job that is named {@code node} or has the trainer ancestor label.
 */
record NodeResources(Map<String, Quantity> requests, Map<String, Quantity> limits) {

  private static final NodeResources NONE = new NodeResources(Map.of(), Map.of());

  static NodeResources of(RuntimeInfo info, TrainJob trainJob) {
    var trainer = trainJob.getSpec().getTrainer();
    if (trainer != null && trainer.getResourcesPerNode() != null) {
      return of(trainer.getResourcesPerNode());
    }
    return fromRuntime(info).map(NodeResources::of).orElse(NONE);
  }

  private static NodeResources of(ResourceRequirements resources) {
    return new NodeResources(nullToEmpty(resources.getRequests()), nullToEmpty(resources.getLimits()));
  }

  private static Optional<ResourceRequirements> fromRuntime(RuntimeInfo info) {
    return RuntimeTemplate.jobs(info).stream()
        .filter(job -> TrainerConstants.CONTAINER_NODE.equals(job.getName()) || RuntimeTemplate.hasTrainerAncestor(job))
        .flatMap(job -> RuntimeTemplate.nodeContainer(job).stream())
        .map(Container::getResources)
        .filter(Objects::nonNull)
        .findFirst();
  }

  /**
   * GPUs per node: the first resource whose name contains {@code gpu}, from the requests, else from the limits;
   * rounded up; 0 without one.
   */
  int gpus() {
    int requested = gpus(requests);
    return requested > 0 ? requested : gpus(limits);
  }

  /** CPUs per node: the CPU request rounded up, else the CPU limit rounded up; 0 without either. */
  int cpus() {
    Quantity request = requests.get("cpu");
    if (request != null && Quantities.amount(request).signum() != 0) {
      return (int) Quantities.roundedUp(request);
    }
    Quantity limit = limits.get("cpu");
    return limit == null ? 0 : (int) Quantities.roundedUp(limit);
  }

  private static int gpus(Map<String, Quantity> resources) {
    return resources.entrySet().stream()
        .filter(e -> e.getKey().toLowerCase(Locale.ROOT).contains("gpu"))
        .findFirst()
        .map(e -> (int) Quantities.roundedUp(e.getValue()))
        .orElse(0);
  }

  private static Map<String, Quantity> nullToEmpty(Map<String, Quantity> map) {
    return Objects.requireNonNullElse(map, Map.of());
  }
}
