package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.Quantities;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The MPI slots per node: how many processes {@code mpirun} starts on each host, written to the host file and to
 * the launcher's env.
 *
 * <ol>
 *   <li>the TrainJob's {@code trainer.numProcPerNode}, when it is an int;</li>
 *   <li>otherwise the policy's {@code numProcPerNode}; when that is 1 and a node has more than one GPU, the GPU
 *       count, so that one process drives each GPU.</li>
 * </ol>
 *
 * <p>A node's GPUs are read from the TrainJob's {@code trainer.resourcesPerNode} when set (it replaces the runtime's
 * resources as a whole, as upstream reads it), else from container {@code node} of the runtime's first job named
 * {@code node} or labelled as the trainer. The count is the first resource whose name contains "gpu", from the
 * requests, then from the limits, rounded up.
 *
 * <p>Both the ML policy step and the builder compute it, because the runtime info does not carry plugin state:
 * the inputs are the same in both phases, so the results are too.
 */
final class Slots {

  private Slots() {
  }

  static int perNode(TrainJob trainJob, RuntimeInfo info, MpiSettings settings) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    IntOrString requested = trainer == null ? null : trainer.getNumProcPerNode();
    if (requested != null && requested.getIntVal() != null) {
      return requested.getIntVal();
    }
    if (settings.numProcPerNode() != 1) {
      return settings.numProcPerNode();
    }
    ResourceRequirements resources = trainer != null && trainer.getResourcesPerNode() != null
        ? trainer.getResourcesPerNode()
        : runtimeNodeResources(info).orElse(null);
    int gpus = gpusPerNode(resources);
    return gpus > 1 ? gpus : settings.numProcPerNode();
  }

  static int gpusPerNode(ResourceRequirements resources) {
    if (resources == null) {
      return 0;
    }
    int fromRequests = gpus(resources.getRequests());
    return fromRequests > 0 ? fromRequests : gpus(resources.getLimits());
  }

  private static int gpus(Map<String, Quantity> resources) {
    if (resources == null) {
      return 0;
    }
    return resources.entrySet().stream()
        .filter(e -> e.getKey().toLowerCase(Locale.ROOT).contains("gpu"))
        .findFirst()
        .map(e -> Math.toIntExact(Quantities.roundedUp(e.getValue())))
        .orElse(0);
  }

  private static Optional<ResourceRequirements> runtimeNodeResources(RuntimeInfo info) {
    for (ReplicatedJob job : nullToEmpty(info.template().getReplicatedJobs())) {
      if (!TrainerConstants.CONTAINER_NODE.equals(job.getName()) && !isTrainer(job)) {
        continue;
      }
      Optional<ResourceRequirements> resources = containers(job).stream()
          .filter(c -> TrainerConstants.CONTAINER_NODE.equals(c.getName()) && c.getResources() != null)
          .map(Container::getResources)
          .findFirst();
      if (resources.isPresent()) {
        return resources;
      }
    }
    return Optional.empty();
  }

  private static boolean isTrainer(ReplicatedJob job) {
    return job.getTemplate() != null && job.getTemplate().getMetadata() != null
        && job.getTemplate().getMetadata().getLabels() != null
        && TrainerConstants.ANCESTOR_TRAINER.equals(
            job.getTemplate().getMetadata().getLabels().get(TrainerConstants.LABEL_TRAINJOB_ANCESTOR));
  }

  private static List<Container> containers(ReplicatedJob job) {
    if (job.getTemplate() == null || job.getTemplate().getSpec() == null
        || job.getTemplate().getSpec().getTemplate() == null
        || job.getTemplate().getSpec().getTemplate().getSpec() == null) {
      return List.of();
    }
    return nullToEmpty(job.getTemplate().getSpec().getTemplate().getSpec().getContainers());
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
