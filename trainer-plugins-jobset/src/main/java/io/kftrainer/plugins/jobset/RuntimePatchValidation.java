package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.ContainerPatch;
import io.kftrainer.api.v1alpha1.JobSpecPatch;
import io.kftrainer.api.v1alpha1.JobTemplatePatch;
import io.kftrainer.api.v1alpha1.PodSpecPatch;
import io.kftrainer.api.v1alpha1.PodTemplatePatch;
import io.kftrainer.api.v1alpha1.ReplicatedJobPatch;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The content of {@code spec.runtimePatches}, with upstream's messages and paths:
 *
 * <ul>
 *   <li>each {@code manager} is a domain-prefixed path ({@code spec.runtimePatches.manager}, no index, as
 *       upstream);</li>
 *   <li>each patched replicated job, init container and container exists in the runtime template;</li>
 *   <li>no patch sets env on the containers the TrainJob itself configures: {@code node},
 *       {@code dataset-initializer} and {@code model-initializer}.</li>
 * </ul>
 *
 * <p>The template checked is the runtime's own, before any patch: upstream checks the template with the patches
 * already merged in, where a patched job or container that the runtime lacks has been added by the merge and so
 * always appears to exist.
 */
final class RuntimePatchValidation {

  static final FieldPath RUNTIME_PATCHES = FieldPath.of("spec", "runtimePatches");
  static final FieldPath MANAGER = RUNTIME_PATCHES.child("manager");

  static final String UNKNOWN_JOB = "must not have replicated job that doesn't exist in the runtime job template";
  static final String UNKNOWN_INIT_CONTAINER = "must not have initContainer that doesn't exist in the runtime job %s";
  static final String UNKNOWN_CONTAINER = "must not have container that doesn't exist in the runtime job %s";
  static final String RESERVED_ENV = "must not have envs for the " + TrainerConstants.CONTAINER_DATASET_INITIALIZER
      + ", " + TrainerConstants.CONTAINER_MODEL_INITIALIZER + ", " + TrainerConstants.CONTAINER_NODE + " containers";

  private static final Set<String> RESERVED_ENV_CONTAINERS = Set.of(TrainerConstants.CONTAINER_DATASET_INITIALIZER,
      TrainerConstants.CONTAINER_MODEL_INITIALIZER, TrainerConstants.CONTAINER_NODE);

  private RuntimePatchValidation() {
  }

  /** @param runtimeTemplate the runtime's JobSet spec without the TrainJob's patches */
  static List<FieldError> validate(TrainJob trainJob, JobSetSpec runtimeTemplate) {
    List<RuntimePatch> patches = trainJob.getSpec().getRuntimePatches();
    if (patches == null) {
      return List.of();
    }
    Map<String, Set<String>> containersByJob = containerNamesByJob(runtimeTemplate);
    List<FieldError> errors = new ArrayList<>();
    for (RuntimePatch patch : patches) {
      errors.addAll(DomainPrefixedPath.validate(MANAGER, patch.getManager()));
      for (ReplicatedJobPatch jobPatch : replicatedJobs(patch)) {
        Set<String> containers = containersByJob.get(jobPatch.getName());
        if (containers == null) {
          errors.add(invalid(patches, UNKNOWN_JOB));
          continue;
        }
        Optional<PodSpecPatch> pod = podSpec(jobPatch);
        for (ContainerPatch container : pod.map(PodSpecPatch::getInitContainers).orElse(List.of())) {
          if (!containers.contains(container.getName())) {
            errors.add(invalid(patches, UNKNOWN_INIT_CONTAINER.formatted(jobPatch.getName())));
          }
        }
        for (ContainerPatch container : pod.map(PodSpecPatch::getContainers).orElse(List.of())) {
          if (!containers.contains(container.getName())) {
            errors.add(invalid(patches, UNKNOWN_CONTAINER.formatted(jobPatch.getName())));
          } else if (container.getEnv() != null && !container.getEnv().isEmpty()
              && RESERVED_ENV_CONTAINERS.contains(container.getName())) {
            errors.add(invalid(patches, RESERVED_ENV));
          }
        }
      }
    }
    return errors;
  }

  private static FieldError invalid(List<RuntimePatch> patches, String detail) {
    return FieldError.invalid(RUNTIME_PATCHES, patches, detail);
  }

  /** Names of the init containers and containers of each replicated job (names are unique within a pod). */
  private static Map<String, Set<String>> containerNamesByJob(JobSetSpec template) {
    Map<String, Set<String>> names = new HashMap<>();
    for (ReplicatedJob job : ReplicatedJobs.of(template)) {
      Set<String> containers = new HashSet<>();
      PodSpec pod = ReplicatedJobs.podSpec(job).orElseGet(PodSpec::new);
      addNames(containers, pod.getInitContainers());
      addNames(containers, pod.getContainers());
      names.put(job.getName(), containers);
    }
    return names;
  }

  private static void addNames(Set<String> names, List<Container> containers) {
    if (containers != null) {
      containers.forEach(c -> names.add(c.getName()));
    }
  }

  private static List<ReplicatedJobPatch> replicatedJobs(RuntimePatch patch) {
    if (patch.getTrainingRuntimeSpec() == null || patch.getTrainingRuntimeSpec().getTemplate() == null
        || patch.getTrainingRuntimeSpec().getTemplate().getSpec() == null
        || patch.getTrainingRuntimeSpec().getTemplate().getSpec().getReplicatedJobs() == null) {
      return List.of();
    }
    return patch.getTrainingRuntimeSpec().getTemplate().getSpec().getReplicatedJobs();
  }

  private static Optional<PodSpecPatch> podSpec(ReplicatedJobPatch patch) {
    return Optional.ofNullable(patch.getTemplate())
        .map(JobTemplatePatch::getSpec)
        .map(JobSpecPatch::getTemplate)
        .map(PodTemplatePatch::getSpec);
  }
}
