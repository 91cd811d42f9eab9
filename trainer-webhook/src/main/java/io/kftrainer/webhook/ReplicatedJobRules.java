package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Upstream's rules for the replicated jobs of a runtime template ({@code validateReplicatedJobs} in
 * {@code pkg/webhooks/trainingruntime_webhook.go}): a job labelled with an ancestor step the TrainJob fills in
 * ({@code trainer}, {@code model-initializer}, {@code dataset-initializer}) runs exactly one replica, and contains
 * the container that step's TrainJob fields go to ({@code node}, {@code model-initializer},
 * {@code dataset-initializer}). Jobs without an ancestor label are not checked. Expects the CRD defaults set
 * ({@code replicas} 1 when absent).
 */
public final class ReplicatedJobRules {

  static final String REPLICAS_MESSAGE = "always must be 1";
  static final String CONTAINER_MESSAGE = "must contain the required container for the ancestor: %s";

  /** Ancestor label value to the container it requires, in upstream's order. */
  private static final Map<String, String> REQUIRED_CONTAINERS = Map.of(
      TrainerConstants.ANCESTOR_TRAINER, TrainerConstants.CONTAINER_NODE,
      TrainerConstants.ANCESTOR_MODEL_INITIALIZER, TrainerConstants.CONTAINER_MODEL_INITIALIZER,
      TrainerConstants.ANCESTOR_DATASET_INITIALIZER, TrainerConstants.CONTAINER_DATASET_INITIALIZER);

  private ReplicatedJobRules() {
  }

  /** The errors of {@code spec}'s replicated jobs, in job order; empty when there is no template. */
  public static List<FieldError> validate(TrainingRuntimeSpec spec) {
    List<ReplicatedJob> jobs = Optional.ofNullable(spec)
        .map(TrainingRuntimeSpec::getTemplate)
        .map(template -> template.getSpec())
        .map(jobSet -> jobSet.getReplicatedJobs())
        .orElse(List.of());
    FieldPath jobsPath = FieldPath.of("spec", "template", "spec", "replicatedJobs");
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      ReplicatedJob job = jobs.get(i);
      Optional<String> ancestor = ancestor(job.getTemplate());
      if (ancestor.isEmpty()) {
        continue;
      }
      FieldPath jobPath = jobsPath.index(i);
      int replicas = job.getReplicas() == null ? 0 : job.getReplicas();
      if (replicas != 1) {
        errors.add(FieldError.invalid(jobPath.child("replicas"), replicas, REPLICAS_MESSAGE));
      }
      List<Container> containers = containers(job.getTemplate());
      String required = REQUIRED_CONTAINERS.get(ancestor.get());
      if (containers.stream().noneMatch(container -> required.equals(container.getName()))) {
        errors.add(FieldError.invalid(jobPath.child("template").child("spec").child("template").child("spec")
            .child("containers"), containers, String.format(CONTAINER_MESSAGE, ancestor.get())));
      }
    }
    return errors;
  }

  private static Optional<String> ancestor(JobTemplateSpec template) {
    if (template == null || template.getMetadata() == null || template.getMetadata().getLabels() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(template.getMetadata().getLabels().get(TrainerConstants.LABEL_TRAINJOB_ANCESTOR))
        .filter(REQUIRED_CONTAINERS::containsKey);
  }

  private static List<Container> containers(JobTemplateSpec template) {
    if (template.getSpec() == null || template.getSpec().getTemplate() == null
        || template.getSpec().getTemplate().getSpec() == null
        || template.getSpec().getTemplate().getSpec().getContainers() == null) {
      return List.of();
    }
    return template.getSpec().getTemplate().getSpec().getContainers();
  }
}
