package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.Initializer;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A TrainJob with {@code spec.initializer.dataset} (or {@code model}) needs a runtime whose template has a
 * replicated job named {@code dataset-initializer} (or {@code model-initializer}) with a container of the same name
 * that mounts the {@value JobSetPlugin#VOLUME_INITIALIZER} volume. Errors are on {@code spec.runtimeRef}, with
 * upstream's messages; the template is the one with the TrainJob's runtime patches merged.
 */
final class InitializerValidation {

  static final FieldPath RUNTIME_REF = FieldPath.of("spec", "runtimeRef");

  private InitializerValidation() {
  }

  static List<FieldError> validate(TrainJob trainJob, JobSetSpec template) {
    Optional<Initializer> initializer = Optional.ofNullable(trainJob.getSpec().getInitializer());
    Stream<FieldError> dataset = initializer.map(Initializer::getDataset).stream()
        .flatMap(d -> check(trainJob, template, TrainerConstants.ANCESTOR_DATASET_INITIALIZER, "datasetConfig"));
    Stream<FieldError> model = initializer.map(Initializer::getModel).stream()
        .flatMap(m -> check(trainJob, template, TrainerConstants.ANCESTOR_MODEL_INITIALIZER, "modelConfig"));
    return Stream.concat(dataset, model).toList();
  }

  /** @param name the name of the job and of its container, {@code dataset-initializer} or {@code model-initializer} */
  private static Stream<FieldError> check(TrainJob trainJob, JobSetSpec template, String name, String config) {
    Optional<ReplicatedJob> job = ReplicatedJobs.of(template).stream()
        .filter(j -> name.equals(j.getName()))
        .findFirst();
    String detail;
    if (job.isEmpty()) {
      detail = "must have " + name + " job when trainJob is configured with input " + config;
    } else if (allContainers(job.get()).noneMatch(c -> name.equals(c.getName()))) {
      detail = "must have container with name - " + name + " in the " + name + " job";
    } else if (!mountsInitializerVolume(job.get(), name)) {
      detail = "must have volumeMount with name - " + JobSetPlugin.VOLUME_INITIALIZER + " in container " + name
          + " of the " + name + " job";
    } else {
      return Stream.empty();
    }
    return Stream.of(FieldError.invalid(RUNTIME_REF, trainJob.getSpec().getRuntimeRef(), detail));
  }

  private static Stream<Container> allContainers(ReplicatedJob job) {
    PodSpec pod = ReplicatedJobs.podSpec(job).orElseGet(PodSpec::new);
    return Stream.concat(stream(pod.getInitContainers()), stream(pod.getContainers()));
  }

  private static boolean mountsInitializerVolume(ReplicatedJob job, String containerName) {
    return stream(ReplicatedJobs.podSpec(job).map(PodSpec::getContainers).orElse(null))
        .filter(c -> containerName.equals(c.getName()))
        .flatMap(c -> stream(c.getVolumeMounts()))
        .anyMatch(m -> JobSetPlugin.VOLUME_INITIALIZER.equals(m.getName()));
  }

  private static <T> Stream<T> stream(List<T> list) {
    return list == null ? Stream.empty() : list.stream();
  }
}
