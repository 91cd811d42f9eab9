package io.kftrainer.plugins.torch;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;

/**
 * The DNS name of the first trainer pod, where rank 0 runs: {@code <trainJob>-<trainerJob>-0-0.<subdomain>}, the
 * name JobSet gives pod 0 of job 0 of the trainer's replicated job behind its headless service. The subdomain is
 * the template's {@code network.subdomain}, else the JobSet's name, which is the TrainJob's.
 *
 * <p>Upstream writes {@code <trainJob>-node-0-0.<trainJob>}: the same name for every runtime whose trainer job is
 * called {@code node} and sets no subdomain (all shipped runtimes), but an unresolvable one otherwise.
 */
record MasterEndpoint(String host) {

  static MasterEndpoint of(RuntimeInfo info, TrainJob trainJob) {
    String trainJobName = trainJob.getMetadata().getName();
    String trainerJob = info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER).map(PodSet::name)
        .orElse(TrainerConstants.CONTAINER_NODE);
    return new MasterEndpoint(trainJobName + "-" + trainerJob + "-0-0." + subdomain(info, trainJobName));
  }

  private static String subdomain(RuntimeInfo info, String trainJobName) {
    var template = info.template();
    if (template != null && template.getNetwork() != null && template.getNetwork().getSubdomain() != null) {
      return template.getNetwork().getSubdomain();
    }
    return trainJobName;
  }

  /** {@code host:port}, as torchrun's {@code --rdzv-endpoint} and torchtune's {@code --rdzv_endpoint} take it. */
  String hostAndPort() {
    return host + ":" + TorchEnv.MASTER_PORT_NUMBER;
  }
}
