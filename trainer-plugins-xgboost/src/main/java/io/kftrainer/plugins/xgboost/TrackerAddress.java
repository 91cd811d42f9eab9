package io.kftrainer.plugins.xgboost;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;

/**
 * Where the workers find the Rabit/collective tracker, which rank 0 runs:
 * {@code <trainJob>-<trainerJob>-0-0.<subdomain>}, the DNS name JobSet gives pod 0 of job 0 of the trainer's
 * replicated job. The subdomain is the template's
 * {@code network.subdomain}, else the TrainJob's name.
 *
 * <p>Upstream writes {@code <trainJob>-node-0-0.<trainJob>}: the same for every runtime whose trainer job is called
 * {@code node} and sets no subdomain (the shipped {@code xgboost-distributed}), unresolvable otherwise.
 */
record TrackerAddress(String host) {

  static final int PORT = 29500;

  static TrackerAddress of(RuntimeInfo info, TrainJob trainJob) {
    String trainJobName = trainJob.getMetadata().getName();
    String trainerJob = info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER).map(PodSet::name)
        .orElse(TrainerConstants.CONTAINER_NODE);
    var template = info.template();
    String subdomain = template != null && template.getNetwork() != null
        && template.getNetwork().getSubdomain() != null ? template.getNetwork().getSubdomain() : trainJobName;
    return new TrackerAddress(trainJobName + "-" + trainerJob + "-0-0." + subdomain);
  }
}
