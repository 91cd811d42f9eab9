package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.Map;

/**
 * The MPI host file: one line per pod that runs training processes, with its slots, in the ConfigMap
 * {@code <trainjob>-mpi-hostfile} that the launcher mounts at {@value #DIR}.
 *
 * <p>The hosts are the endpoints (pod DNS names) of pod set {@code node}, and of pod set {@code launcher} when the
 * launcher runs as a node, in the order of the runtime's replicated jobs. Endpoints are filled in by a
 * {@code PreBuildSync} plugin (JobSet), which runs before builders.
 */
final class Hostfile {

  static final String VOLUME_NAME = "mpi-hostfile";
  static final String KEY = "hostfile";
  static final String DIR = "/etc/mpi";
  static final String PATH = DIR + "/" + KEY;
  private static final String NAME_SUFFIX = "-mpi-hostfile";
  private static final int FILE_MODE = 0444;

  private Hostfile() {
  }

  static String configMapName(String trainJobName) {
    return trainJobName + NAME_SUFFIX;
  }

  static String text(RuntimeInfo info, MpiSettings settings, MpiImplementation implementation, int slots) {
    StringBuilder text = new StringBuilder();
    for (PodSet podSet : info.podSets()) {
      if (runsTraining(podSet, settings)) {
        podSet.endpoints().forEach(endpoint -> text.append(implementation.hostfileLine(endpoint, slots)));
      }
    }
    return text.toString();
  }

  static ConfigMap configMap(String trainJobName, String text) {
    return new ConfigMapBuilder()
        .withNewMetadata().withName(configMapName(trainJobName)).endMetadata()
        .withData(Map.of(KEY, text))
        .build();
  }

  /** The launcher's volume of the host file ConfigMap. */
  static Volume volume(String trainJobName) {
    return new VolumeBuilder()
        .withName(VOLUME_NAME)
        .withNewConfigMap()
        .withName(configMapName(trainJobName))
        .addNewItem().withKey(KEY).withPath(KEY).withMode(FILE_MODE).endItem()
        .endConfigMap()
        .build();
  }

  static VolumeMount mount() {
    return new VolumeMountBuilder().withName(VOLUME_NAME).withMountPath(DIR).build();
  }

  private static boolean runsTraining(PodSet podSet, MpiSettings settings) {
    return podSet.name().equals(MPIPlugin.NODE)
        || (settings.runLauncherAsNode() && podSet.name().equals(MPIPlugin.LAUNCHER));
  }
}
