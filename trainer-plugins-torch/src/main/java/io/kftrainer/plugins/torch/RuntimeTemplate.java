package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.Container;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.List;
import java.util.Optional;

/** Read access to the runtime's JobSet template in a runtime info, null-safe at every level. */
final class RuntimeTemplate {

  private RuntimeTemplate() {
  }

  static List<ReplicatedJob> jobs(RuntimeInfo info) {
    return info.template() == null || info.template().getReplicatedJobs() == null
        ? List.of() : info.template().getReplicatedJobs();
  }

  static boolean hasTrainerAncestor(ReplicatedJob job) {
    return job.getTemplate() != null && job.getTemplate().getMetadata() != null
        && job.getTemplate().getMetadata().getLabels() != null
        && TrainerConstants.ANCESTOR_TRAINER.equals(
            job.getTemplate().getMetadata().getLabels().get(TrainerConstants.LABEL_TRAINJOB_ANCESTOR));
  }

  /** The job's container named {@code node}, if any. */
  static Optional<Container> nodeContainer(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(t -> t.getSpec())
        .map(s -> s.getTemplate())
        .map(t -> t.getSpec())
        .map(p -> p.getContainers())
        .orElse(List.of())
        .stream()
        .filter(c -> TrainerConstants.CONTAINER_NODE.equals(c.getName()))
        .findFirst();
  }
}
