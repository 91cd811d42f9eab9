package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes what the plugins decided for each pod set into the pod template of the replicated job of the same name.
 *
 * <p>A pod set's lists are complete (each started as the template's own and plugins upserted into them), so they
 * replace the template's: the pod's volumes, and each container's env, ports and volume mounts. Init containers a
 * plugin added to the pod set and the template lacks are appended, as upstream does, so that plugins only ever
 * write to pod sets.
 *
 * <p>A container's image and command are written only where a plugin changed them, that is where they differ from
 * the runtime template's. This runs after the TrainJob's own image and command were applied to the trainer
 * container ({@link TrainerJob}), so a plugin's value wins over the TrainJob's: upstream's torchtune support
 * extends the TrainJob's command in place, which a plugin here, seeing a read-only TrainJob, does by writing the
 * whole command to the pod set. Args a plugin decided ({@link ContainerInfo#args()}, Flux's wrapper) replace the
 * template's and the TrainJob's.
 */
final class PodSetMerge {

  private PodSetMerge() {
  }

  /**
   * @param spec the JobSet spec being built
   * @param info the pod sets, and in {@link RuntimeInfo#template()} the unchanged runtime template
   */
  static void merge(JobSetSpec spec, RuntimeInfo info) {
    for (ReplicatedJob job : ReplicatedJobs.of(spec)) {
      info.podSet(job.getName()).ifPresent(ps -> merge(ReplicatedJobs.podTemplateOf(job).getSpec(), ps,
          originalPod(info.template(), job.getName())));
    }
  }

  private static void merge(PodSpec pod, PodSet podSet, PodSpec original) {
    pod.setVolumes(orNull(podSet.volumes()));
    List<Container> containers = pod.getContainers() == null ? new ArrayList<>() : pod.getContainers();
    for (ContainerInfo info : podSet.containers()) {
      find(containers, info.name())
          .ifPresent(container -> apply(container, info, find(original.getContainers(), info.name())));
    }
    List<Container> initContainers = pod.getInitContainers() == null ? new ArrayList<>() : pod.getInitContainers();
    for (ContainerInfo info : podSet.initContainers()) {
      Container container = find(initContainers, info.name()).orElseGet(() -> {
        Container added = new Container();
        added.setName(info.name());
        initContainers.add(added);
        return added;
      });
      apply(container, info, find(original.getInitContainers(), info.name()));
    }
    pod.setInitContainers(orNull(initContainers));
  }

  private static void apply(Container container, ContainerInfo info, Optional<Container> original) {
    info.image()
        .filter(image -> !image.equals(original.map(Container::getImage).orElse(null)))
        .ifPresent(container::setImage);
    List<String> originalCommand = original.map(Container::getCommand).orElse(null);
    if (!info.command().isEmpty() && !info.command().equals(Objects.requireNonNullElse(originalCommand, List.of()))) {
      container.setCommand(new ArrayList<>(info.command()));
    }
    info.args().ifPresent(args -> container.setArgs(orNull(args)));
    container.setEnv(orNull(info.env()));
    container.setPorts(orNull(info.ports()));
    container.setVolumeMounts(orNull(info.volumeMounts()));
  }

  private static PodSpec originalPod(JobSetSpec template, String jobName) {
    return ReplicatedJobs.of(template).stream()
        .filter(job -> jobName.equals(job.getName()))
        .findFirst()
        .flatMap(ReplicatedJobs::podSpec)
        .orElseGet(PodSpec::new);
  }

  private static Optional<Container> find(List<Container> containers, String name) {
    return containers == null ? Optional.empty()
        : containers.stream().filter(c -> name.equals(c.getName())).findFirst();
  }

  private static <T> List<T> orNull(List<T> list) {
    return list.isEmpty() ? null : new ArrayList<>(list);
  }
}
