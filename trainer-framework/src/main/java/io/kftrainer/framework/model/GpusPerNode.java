package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPUs of one trainer node, resolved as upstream's {@code ExtractResourcePerNodeFromRuntime} and
 * {@code GetNumGPUPerNode} do (used by the XGBoost and Flux plugins): from the TrainJob's
 * {@code trainer.resourcesPerNode} as a whole when set, else from container {@code node} of the first runtime job
 * that is named {@code node} or has the trainer ancestor label; the first resource whose name contains
 * {@code gpu}, requests before limits, rounded up; 0 without one.
 */
public final class GpusPerNode {

  private GpusPerNode() {
  }

  public static int of(RuntimeInfo info, TrainJob trainJob) {
    var trainer = trainJob.getSpec() == null ? null : trainJob.getSpec().getTrainer();
    Optional<ResourceRequirements> resources = trainer != null && trainer.getResourcesPerNode() != null
        ? Optional.of(trainer.getResourcesPerNode()) : fromRuntime(info);
    return resources.map(GpusPerNode::count).orElse(0);
  }

  private static int count(ResourceRequirements resources) {
    int requested = count(resources.getRequests());
    return requested > 0 ? requested : count(resources.getLimits());
  }

  private static int count(Map<String, Quantity> resources) {
    return Objects.requireNonNullElse(resources, Map.<String, Quantity>of()).entrySet().stream()
        .filter(e -> e.getKey().toLowerCase(Locale.ROOT).contains("gpu"))
        .findFirst()
        .map(e -> (int) Quantities.roundedUp(e.getValue()))
        .orElse(0);
  }

  private static Optional<ResourceRequirements> fromRuntime(RuntimeInfo info) {
    List<ReplicatedJob> jobs = info.template() == null || info.template().getReplicatedJobs() == null
        ? List.of() : info.template().getReplicatedJobs();
    return jobs.stream()
        .filter(job -> TrainerConstants.CONTAINER_NODE.equals(job.getName()) || hasTrainerAncestor(job))
        .flatMap(job -> nodeContainer(job).stream())
        .map(Container::getResources)
        .filter(Objects::nonNull)
        .findFirst();
  }

  private static boolean hasTrainerAncestor(ReplicatedJob job) {
    return job.getTemplate() != null && job.getTemplate().getMetadata() != null
        && job.getTemplate().getMetadata().getLabels() != null
        && TrainerConstants.ANCESTOR_TRAINER.equals(
            job.getTemplate().getMetadata().getLabels().get(TrainerConstants.LABEL_TRAINJOB_ANCESTOR));
  }

  private static Optional<Container> nodeContainer(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(t -> t.getSpec())
        .map(JobSpec::getTemplate)
        .map(PodTemplateSpec::getSpec)
        .map(PodSpec::getContainers)
        .orElse(List.of())
        .stream()
        .filter(c -> TrainerConstants.CONTAINER_NODE.equals(c.getName()))
        .findFirst();
  }
}
