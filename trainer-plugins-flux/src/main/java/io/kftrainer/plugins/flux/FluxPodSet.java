package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * What a Flux runtime's pods get, as upstream's {@code EnforceMLPolicy} gives it to pod set {@value #NODE}:
 *
 * <ul>
 *   <li>volumes: {@value #SPACK_VOLUME} and {@value #INSTALL_VOLUME} (emptyDirs for the Flux view and its
 *       software), the entrypoint ConfigMap (mode 0755), {@value #MEMORY_VOLUME} (a memory emptyDir for
 *       {@code /dev/shm}) and the curve Secret;</li>
 *   <li>init container {@value #INSTALLER}: the Flux view image running {@code init.sh}, which fills the install
 *       volume;</li>
 *   <li>container {@value #NODE}: the five mounts, and its command wrapped in the entrypoint
 *       ({@link WrappedCommand}); its args become the runtime template's again, the TrainJob's being part of the
 *       wrapped command line (upstream clears the TrainJob's args and so keeps the template's).</li>
 * </ul>
 *
 * <p>Before that, the trainer pod set gets the node count and the TrainJob's {@code trainer.env}, the steps that
 * upstream's PlainML plugin takes for Flux runtimes.
 */
final class FluxPodSet {

  static final String NODE = TrainerConstants.CONTAINER_NODE;
  static final String INSTALLER = "flux-installer";
  static final String CONFIG_PATH = "/etc/flux-config";
  static final String INSTALL_VOLUME = "flux-install";
  static final String INSTALL_PATH = "/mnt/flux";
  static final String SPACK_VOLUME = "spack-install";
  static final String SPACK_PATH = "/opt/software";
  static final String MEMORY_VOLUME = "shared-memory";
  static final String MEMORY_PATH = "/dev/shm";
  private static final int CONFIG_MODE = 0755;

  private FluxPodSet() {
  }

  static void enforce(RuntimeInfo info, TrainJob trainJob, FluxJob job) {
    List<String> command = WrappedCommand.of(info, trainJob);
    applyTrainerSettings(info, trainJob, job);
    List<String> templateArgs = info.podSpec(NODE).stream()
        .flatMap(pod -> pod.getContainers().stream())
        .filter(c -> NODE.equals(c.getName()))
        .findFirst()
        .map(Container::getArgs)
        .orElse(List.of());
    String configMap = EntrypointConfigMap.name(job.name());
    info.updatePodSet(NODE, podSet -> {
      PodSet changed = podSet;
      for (Volume volume : volumes(job.name())) {
        changed = changed.withVolumeUpserted(volume);
      }
      List<ContainerInfo> initContainers = new ArrayList<>(changed.initContainers());
      initContainers.add(installer(job, configMap));
      return changed.withInitContainers(initContainers).withContainer(NODE, node -> withMounts(node, configMap)
          .withCommand(command)
          .withArgs(List.copyOf(templateArgs)));
    });
  }

  private static void applyTrainerSettings(RuntimeInfo info, TrainJob trainJob, FluxJob job) {
    Trainer trainer = trainJob.getSpec() == null ? null : trainJob.getSpec().getTrainer();
    List<EnvVar> env = trainer == null || trainer.getEnv() == null ? List.of() : trainer.getEnv();
    info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER).ifPresent(podSet -> info.putPodSet(
        podSet.withCount(job.nodes()).withContainer(NODE, node -> node.withEnvUpserted(env))));
  }

  private static List<Volume> volumes(String trainJobName) {
    String configMap = EntrypointConfigMap.name(trainJobName);
    return List.of(
        new VolumeBuilder().withName(SPACK_VOLUME).withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(INSTALL_VOLUME).withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(configMap)
            .withNewConfigMap().withName(configMap).withDefaultMode(CONFIG_MODE).endConfigMap().build(),
        new VolumeBuilder().withName(MEMORY_VOLUME).withNewEmptyDir().withMedium("Memory").endEmptyDir().build(),
        CurveSecret.volume(trainJobName));
  }

  private static ContainerInfo installer(FluxJob job, String configMap) {
    return ContainerInfo.builder()
        .name(INSTALLER)
        .image(job.settings().viewImage())
        .command(List.of("/bin/bash", CONFIG_PATH + "/" + EntrypointConfigMap.INIT))
        .volumeMounts(List.of(mount(INSTALL_VOLUME, INSTALL_PATH, false), mount(configMap, CONFIG_PATH, true)))
        .build();
  }

  private static ContainerInfo withMounts(ContainerInfo node, String configMap) {
    return node.withVolumeMountUpserted(mount(INSTALL_VOLUME, INSTALL_PATH, false))
        .withVolumeMountUpserted(mount(SPACK_VOLUME, SPACK_PATH, false))
        .withVolumeMountUpserted(mount(configMap, CONFIG_PATH, true))
        .withVolumeMountUpserted(mount(CurveSecret.VOLUME_NAME, CurveSecret.MOUNT_PATH, true))
        .withVolumeMountUpserted(mount(MEMORY_VOLUME, MEMORY_PATH, true));
  }

  private static VolumeMount mount(String name, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).withReadOnly(readOnly ? true : null).build();
  }
}
