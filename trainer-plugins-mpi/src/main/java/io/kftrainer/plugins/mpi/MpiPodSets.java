package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import java.util.List;

/**
 * The MPI policy applied to the pod sets (upstream's {@code EnforceMLPolicy}), in upstream's order:
 *
 * <ol>
 *   <li>pod set {@code node} runs {@code numNodes} pods (the TrainJob's, else the policy's), one fewer (at least
 *       one) when the launcher runs as a node, and pod set {@code launcher} one pod (upstream leaves it at the
 *       policy's {@code numNodes}, since the launcher is labelled as the trainer: two launchers would run mpirun
 *       twice);</li>
 *   <li>pod sets {@code node} and {@code launcher} get the SSH key volume, the launcher also the host file
 *       volume;</li>
 *   <li>in those pod sets, containers named {@code node} mount the keys at {@code sshAuthMountPath}; the launcher's
 *       also mounts the host file and gets the implementation's env ({@link MpiImplementation#launcherEnv});</li>
 *   <li>the TrainJob's {@code trainer.env} is upserted into container {@code node} of the trainer pod set, and of pod
 *       set {@code node} when the launcher runs as a node (upstream's JobSet builder does this for MPI, after the
 *       pod set env, so it comes last here too).</li>
 * </ol>
 */
final class MpiPodSets {

  private MpiPodSets() {
  }

  static void enforce(BuildContext context, MpiSettings settings) {
    TrainJob trainJob = context.trainJob();
    RuntimeInfo info = context.info();
    MpiImplementation implementation = settings.requireImplementation();
    int numNodes = info.numNodes(trainJob);
    info.updatePodSet(MPIPlugin.NODE,
        podSet -> podSet.withCount(settings.runLauncherAsNode() ? Math.max(numNodes - 1, 1) : numNodes));
    // One mpirun per TrainJob: the launcher, labelled as the trainer, was counted with the policy's numNodes.
    info.updatePodSet(MPIPlugin.LAUNCHER, podSet -> podSet.withCount(1));
    int slots = Slots.perNode(trainJob, info, settings);
    String trainJobName = trainJob.getMetadata().getName();
    for (PodSet podSet : List.copyOf(info.podSets())) {
      boolean launcher = podSet.name().equals(MPIPlugin.LAUNCHER);
      if (launcher || podSet.name().equals(MPIPlugin.NODE)) {
        info.putPodSet(withMpi(podSet, launcher, trainJobName, settings, implementation.launcherEnv(slots)));
      }
    }
    List<EnvVar> trainerEnv = trainerEnv(trainJob);
    if (!trainerEnv.isEmpty()) {
      for (PodSet podSet : List.copyOf(info.podSets())) {
        if (podSet.hasAncestor(TrainerConstants.ANCESTOR_TRAINER)
            || (settings.runLauncherAsNode() && podSet.name().equals(MPIPlugin.NODE))) {
          info.putPodSet(podSet.withContainer(TrainerConstants.CONTAINER_NODE, c -> c.withEnvUpserted(trainerEnv)));
        }
      }
    }
  }

  private static PodSet withMpi(PodSet podSet, boolean launcher, String trainJobName, MpiSettings settings,
      List<EnvVar> launcherEnv) {
    PodSet updated = podSet.withVolumeUpserted(SshAuthSecret.volume(trainJobName));
    if (launcher) {
      updated = updated.withVolumeUpserted(Hostfile.volume(trainJobName));
    }
    return updated.withContainer(TrainerConstants.CONTAINER_NODE, container -> {
      ContainerInfo withKeys = container.withVolumeMountUpserted(SshAuthSecret.mount(settings.sshAuthMountPath()));
      return launcher
          ? withKeys.withVolumeMountUpserted(Hostfile.mount()).withEnvUpserted(launcherEnv)
          : withKeys;
    });
  }

  /** Copies, so that nothing downstream can change the TrainJob through them. */
  private static List<EnvVar> trainerEnv(TrainJob trainJob) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    if (trainer == null || trainer.getEnv() == null) {
      return List.of();
    }
    return trainer.getEnv().stream().map(e -> new EnvVarBuilder(e).build()).toList();
  }
}
