package io.kftrainer.e2e.support;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The status the Kubeflow Python SDK's Kubernetes backend shows for a TrainJob ({@code get_job}), derived as the
 * SDK derives it (read in November 2026): {@code Complete} or {@code Failed} from a true condition of that type;
 * with no condition at all, {@code Running} when every node step (a pod of the {@code node} replicated job) is
 * {@code Running} or {@code Succeeded}; {@code Created} otherwise, and for any other condition list.
 */
public final class SdkStatus {

  public static final String CREATED = "Created";
  public static final String RUNNING = "Running";

  /** The replicated jobs whose pods are the SDK's steps. */
  private static final Set<String> STEPS = Set.of("dataset-initializer", "model-initializer", "launcher", "node");
  private static final String JOBSET_NAME = "jobset.sigs.k8s.io/jobset-name";
  private static final String REPLICATED_JOB_NAME = "jobset.sigs.k8s.io/replicatedjob-name";

  private SdkStatus() {
  }

  /** The TrainJob's SDK status, its step pods read as the SDK reads them. */
  public static String of(KubernetesClient client, TrainJob trainJob) {
    List<Pod> pods = client.pods().inNamespace(trainJob.getMetadata().getNamespace())
        .withLabel(JOBSET_NAME, trainJob.getMetadata().getName()).list().getItems().stream()
        .filter(pod -> STEPS.contains(labels(pod).get(REPLICATED_JOB_NAME)))
        .toList();
    return of(trainJob, pods);
  }

  static String of(TrainJob trainJob, List<Pod> steps) {
    List<Condition> conditions = trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null
        ? List.of() : trainJob.getStatus().getConditions();
    String status = CREATED;
    if (!conditions.isEmpty()) {
      for (Condition condition : conditions) {
        if (("Complete".equals(condition.getType()) || "Failed".equals(condition.getType()))
            && "True".equals(condition.getStatus())) {
          status = condition.getType();
        }
      }
      return status;
    }
    long runningNodes = steps.stream()
        .filter(pod -> "node".equals(labels(pod).get(REPLICATED_JOB_NAME)))
        .filter(pod -> pod.getStatus() != null
            && ("Running".equals(pod.getStatus().getPhase()) || "Succeeded".equals(pod.getStatus().getPhase())))
        .count();
    Integer numNodes = trainJob.getSpec().getTrainer() == null ? null : trainJob.getSpec().getTrainer().getNumNodes();
    return numNodes != null && numNodes == runningNodes ? RUNNING : status;
  }

  private static Map<String, String> labels(Pod pod) {
    return pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
  }
}
