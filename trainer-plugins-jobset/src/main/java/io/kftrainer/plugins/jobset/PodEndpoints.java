package io.kftrainer.plugins.jobset;

import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The stable DNS names of the pods of each pod set, as JobSet publishes them through its headless service:
 * {@code <trainJob>-<replicatedJob>-<jobIndex>-<podIndex>.<subdomain>}, for every replica of the replicated job
 * (default 1) and every pod of the pod set's count. The subdomain is the template's {@code network.subdomain}, else
 * the JobSet's name, which is the TrainJob's.
 */
final class PodEndpoints {

  private PodEndpoints() {
  }

  static void sync(RuntimeInfo info, TrainJob trainJob) {
    String trainJobName = trainJob.getMetadata().getName();
    String subdomain = subdomain(info.template(), trainJobName);
    for (ReplicatedJob job : ReplicatedJobs.of(info.template())) {
      int replicas = job.getReplicas() == null ? 1 : job.getReplicas();
      info.updatePodSet(job.getName(),
          ps -> PodSet.copyOf(ps).withEndpoints(endpoints(trainJobName, job.getName(), replicas, ps.count(),
              subdomain)));
    }
  }

  static List<String> endpoints(String trainJobName, String jobName, int replicas, int podCount,
      String subdomain) {
    List<String> endpoints = new ArrayList<>();
    for (int replica = 0; replica < replicas; replica++) {
      for (int pod = 0; pod < podCount; pod++) {
        endpoints.add(trainJobName + "-" + jobName + "-" + replica + "-" + pod + "." + subdomain);
      }
    }
    return endpoints;
  }

  private static String subdomain(JobSetSpec spec, String trainJobName) {
    if (spec != null && spec.getNetwork() != null && spec.getNetwork().getSubdomain() != null) {
      return spec.getNetwork().getSubdomain();
    }
    return trainJobName;
  }
}
