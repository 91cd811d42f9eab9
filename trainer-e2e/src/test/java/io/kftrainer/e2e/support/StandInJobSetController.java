package io.kftrainer.e2e.support;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.JobSetStatus;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJobStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JobSet controller's part, played by the test: no JobSet controller runs in {@code local} mode (there are no
 * pods to run), so, like upstream's integration tests, the test writes the JobSet's status by hand, through the
 * {@code status} subresource as the JobSet controller does (a JSON merge patch of {@code status} only).
 *
 * <p>The counters follow the JobSet's spec: each replicated job has {@code replicas} Jobs, all active and ready
 * while running, all succeeded on completion; on failure the first replicated job's Jobs failed. Conditions carry
 * the JobSet controller's reasons and messages.
 */
public final class StandInJobSetController {

  public static final String COMPLETED_REASON = "AllJobsCompleted";
  public static final String COMPLETED_MESSAGE = "jobset completed successfully";
  public static final String FAILED_REASON = "FailedJobs";
  public static final String FAILED_MESSAGE = "jobset failed due to one or more job failures";

  private final KubernetesClient client;

  public StandInJobSetController(KubernetesClient client) {
    this.client = client;
  }

  /** Every Job of the JobSet active and ready, no condition. */
  public JobSet run(String namespace, String name) {
    return writeStatus(namespace, name, List.of(), job -> counters(job, replicas(job), replicas(job), 0, 0));
  }

  /** Every Job succeeded; {@code Completed=True}. */
  public JobSet complete(String namespace, String name) {
    return writeStatus(namespace, name, List.of(condition("Completed", COMPLETED_REASON, COMPLETED_MESSAGE)),
        job -> counters(job, 0, 0, replicas(job), 0));
  }

  /** The Jobs of the first replicated job failed, the others still active; {@code Failed=True}. */
  public JobSet fail(String namespace, String name) {
    JobSet jobSet = get(namespace, name);
    String failing = jobSet.getSpec().getReplicatedJobs().get(0).getName();
    return writeStatus(namespace, name, List.of(condition("Failed", FAILED_REASON, FAILED_MESSAGE)),
        job -> failing.equals(job.getName()) ? counters(job, 0, 0, 0, replicas(job))
            : counters(job, replicas(job), replicas(job), 0, 0));
  }

  private JobSet writeStatus(String namespace, String name, List<Condition> conditions,
      Function<ReplicatedJob, ReplicatedJobStatus> counters) {
    JobSet jobSet = get(namespace, name);
    JobSetStatus status = new JobSetStatus();
    status.setConditions(new ArrayList<>(conditions));
    status.setReplicatedJobsStatus(jobSet.getSpec().getReplicatedJobs().stream().map(counters).toList());
    status.setRestarts(0);
    if (!conditions.isEmpty()) {
      status.setTerminalState(conditions.get(0).getType());
    }
    String patch = client.getKubernetesSerialization().asJson(Map.of("status", status));
    return client.resources(JobSet.class).inNamespace(namespace).withName(name).subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  private JobSet get(String namespace, String name) {
    JobSet jobSet = client.resources(JobSet.class).inNamespace(namespace).withName(name).get();
    if (jobSet == null) {
      throw new AssertionError("no JobSet " + namespace + "/" + name);
    }
    return jobSet;
  }

  private static int replicas(ReplicatedJob job) {
    return job.getReplicas() == null ? 1 : job.getReplicas();
  }

  private static ReplicatedJobStatus counters(ReplicatedJob job, int active, int ready, int succeeded, int failed) {
    ReplicatedJobStatus status = new ReplicatedJobStatus();
    status.setName(job.getName());
    status.setActive(active);
    status.setReady(ready);
    status.setSucceeded(succeeded);
    status.setFailed(failed);
    status.setSuspended(0);
    return status;
  }

  private static Condition condition(String type, String reason, String message) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus("True")
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
        .build();
  }
}
