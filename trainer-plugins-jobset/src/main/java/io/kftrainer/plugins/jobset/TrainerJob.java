package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.Container;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Binds {@code spec.trainer} to the replicated job whose ancestor label is {@code trainer}, in two steps around
 * {@link PodSetMerge}:
 *
 * <ol>
 *   <li>{@link #override}: the job runs once (replicas 1) and its container {@code node} takes the TrainJob's
 *       image, command and args where set;</li>
 *   <li>{@link #upsertEnv}: {@code trainer.env} is upserted into container {@code node} of the trainer job, and of
 *       job {@code node} when MPI runs the launcher as a node. The ML plugins have usually upserted it into the pod
 *       set already, before their own variables; upserting again keeps those positions and also covers runtimes
 *       without an ML plugin.</li>
 * </ol>
 */
final class TrainerJob {

  private TrainerJob() {
  }

  static void override(JobSetSpec spec, TrainJob trainJob) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    for (ReplicatedJob job : ReplicatedJobs.of(spec)) {
      if (ReplicatedJobs.hasAncestor(job, TrainerConstants.ANCESTOR_TRAINER)) {
        job.setReplicas(1);
        if (trainer != null) {
          nodeContainers(job).forEach(c -> override(c, trainer));
        }
      }
    }
  }

  static void upsertEnv(JobSetSpec spec, RuntimeInfo info, TrainJob trainJob) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    if (trainer == null || trainer.getEnv() == null || trainer.getEnv().isEmpty()) {
      return;
    }
    boolean launcherAsNode = info.mlPolicy().map(MLPolicy::getMpi)
        .map(mpi -> Boolean.TRUE.equals(mpi.getRunLauncherAsNode())).orElse(false);
    for (ReplicatedJob job : ReplicatedJobs.of(spec)) {
      if (ReplicatedJobs.hasAncestor(job, TrainerConstants.ANCESTOR_TRAINER)
          || launcherAsNode && TrainerConstants.CONTAINER_NODE.equals(job.getName())) {
        nodeContainers(job).forEach(c -> c.setEnv(EnvVars.upsert(c.getEnv(), trainer.getEnv())));
      }
    }
  }

  private static void override(Container container, Trainer trainer) {
    if (trainer.getImage() != null) {
      container.setImage(trainer.getImage());
    }
    if (trainer.getCommand() != null) {
      container.setCommand(new ArrayList<>(trainer.getCommand()));
    }
    if (trainer.getArgs() != null) {
      container.setArgs(new ArrayList<>(trainer.getArgs()));
    }
  }

  private static List<Container> nodeContainers(ReplicatedJob job) {
    return ReplicatedJobs.podSpec(job).map(pod -> pod.getContainers()).orElse(List.of()).stream()
        .filter(c -> TrainerConstants.CONTAINER_NODE.equals(c.getName()))
        .toList();
  }
}
