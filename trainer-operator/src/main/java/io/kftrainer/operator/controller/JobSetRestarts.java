package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.PostExecutionResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the restarts of a TrainJob's JobSet visible on the TrainJob (issue 35, item 2). Upstream's API has no place
 * for them (KEP-2899 and kubeflow/trainer issue #4052 name none; {@code jobsStatus} keeps upstream's shape), so:
 *
 * <ul>
 *   <li>the annotation {@value #ANNOTATION} holds the number of restarts reported, the JobSet's
 *       {@code status.restarts} (the {@code Restarts} printer column shows it);</li>
 *   <li>each restart is a Warning Event {@value #REASON} (JobSet's own reason) on the TrainJob naming the pod that
 *       failed first in the attempt, its node and why: an exit code, {@code OOMKilled}, a preemption or an
 *       eviction, e.g. {@code restart 1/3 after pod default/x-node-0-1-7nd7v on node-1 failed: exit code 137}.</li>
 * </ul>
 *
 * <p>A TrainJob that fails because its JobSet's Jobs did gets the pod that failed first in the last attempt after
 * JobSet's message ({@link #nameFailedPod}): JobSet names the first failed Job only.
 *
 * <p>The failed pods come from an informer of JobSet pods in phase {@code Failed} (a label and a field selector, so
 * the cache holds failed pods only), whose events call {@link #record}: a JobSet restart deletes the pods of the
 * attempt, often before the TrainJob's reconcile sees the new {@code restarts}, so the first failure of each attempt
 * is kept here, per JobSet uid, for the last {@value #JOBSETS_KEPT} JobSets that had one. A restart whose failure
 * the informer has not delivered is looked up with a list of the attempt's failed pods; one whose pods are gone
 * (the operator was down) is reported without the pod.
 */
public final class JobSetRestarts {

  /** The TrainJob annotation holding the restarts reported: a count, as the JobSet's {@code status.restarts}. */
  public static final String ANNOTATION = "kftrainer.io/restarts";
  /** The Event reason of a restart: JobSet's ({@code constants.JobSetRestartReason}). */
  public static final String REASON = "Restarting";
  public static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
  public static final String JOBSET_UID_LABEL = "jobset.sigs.k8s.io/jobset-uid";
  public static final String RESTART_ATTEMPT_LABEL = "jobset.sigs.k8s.io/restart-attempt";

  static final int JOBSETS_KEPT = 1024;
  private static final Logger LOG = LoggerFactory.getLogger(JobSetRestarts.class);

  /**
   * What failed in an attempt: the pod, its node, why, and the failed container's termination message (the last
   * lines of its log with {@code terminationMessagePolicy: FallbackToLogsOnError}, and always in {@code local}), or
   * null.
   */
  public record PodFailure(String namespace, String pod, String node, String reason, String container,
      String lastLines) {

    public PodFailure(String namespace, String pod, String node, String reason) {
      this(namespace, pod, node, reason, null, null);
    }

    /**
     * {@code pod default/x-node-0-1-7nd7v on node-1: container node exited with code 3; last lines: ...}, or
     * {@code pod ... failed: evicted ...} when no container failed or the pod was disrupted.
     */
    String explain() {
      boolean disrupted = reason.startsWith("evicted") || reason.startsWith("preempted");
      return "pod " + namespace + "/" + pod + (node == null ? "" : " on " + node)
          + (container != null && !disrupted ? ": " + container : " failed: " + reason)
          + (lastLines == null ? "" : "; last lines:\n" + lastLines);
    }

    /** {@code pod default/x-node-0-1-7nd7v on node-1 failed: exit code 137}. */
    String describe() {
      return "pod " + namespace + "/" + pod + (node == null ? "" : " on " + node) + " failed: " + reason;
    }
  }

  /** JobSet's reasons for a JobSet that failed because its Jobs did ({@code pkg/constants}). */
  private static final Set<String> JOB_FAILURE_REASONS = Set.of("FailedJobs", "ReachedMaxRestarts",
      "FailJobSetFailurePolicyAction");

  /** Told of each restart reported ({@code local}'s progress line). */
  public interface Listener {

    Listener NONE = (trainJob, restart, total, failure) -> { };

    /**
     * @param restart the restart's number, from 1
     * @param maxRestarts the JobSet's {@code failurePolicy.maxRestarts}, 0 when it has none
     * @param failure what failed, when it was seen
     */
    void restarted(TrainJob trainJob, int restart, int maxRestarts, Optional<PodFailure> failure);
  }

  /** JobSet uid to restart attempt to its first failure; access-ordered, bounded. */
  private final Map<String, NavigableMap<Integer, PodFailure>> failures =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, NavigableMap<Integer, PodFailure>> eldest) {
          return size() > JOBSETS_KEPT;
        }
      };
  private final KubernetesClient client;
  private final TrainJobEvents events;
  private final Listener listener;

  JobSetRestarts(KubernetesClient client, TrainJobEvents events, Listener listener) {
    this.client = client;
    this.events = events;
    this.listener = listener;
  }

  /** Keeps the failure of a failed JobSet pod, unless its attempt has one already. Always true (a filter). */
  boolean record(Pod pod) {
    if (pod == null || pod.getMetadata().getLabels() == null || pod.getStatus() == null
        || !"Failed".equals(pod.getStatus().getPhase())) {
      return true;
    }
    Map<String, String> labels = pod.getMetadata().getLabels();
    String uid = labels.get(JOBSET_UID_LABEL);
    Integer attempt = parse(labels.get(RESTART_ATTEMPT_LABEL));
    if (uid == null || attempt == null) {
      return true;
    }
    PodFailure failure = new PodFailure(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
        pod.getSpec() == null ? null : pod.getSpec().getNodeName(), reason(pod), containerExit(pod), lastLines(pod));
    synchronized (failures) {
      failures.computeIfAbsent(uid, key -> new TreeMap<>()).putIfAbsent(attempt, failure);
    }
    return true;
  }

  /**
   * Reports the restarts of the TrainJob's JobSet that its annotation does not count yet: an Event each, then the
   * annotation (a merge patch of it alone, put into JOSDK's cache of TrainJobs).
   */
  void report(TrainJob trainJob, Optional<JobSet> jobSet, Context<TrainJob> context) {
    if (jobSet.isEmpty() || jobSet.get().getStatus() == null || jobSet.get().getStatus().getRestarts() == null) {
      return;
    }
    int restarts = jobSet.get().getStatus().getRestarts();
    int reported = Optional.ofNullable(trainJob.getMetadata().getAnnotations()).map(a -> parse(a.get(ANNOTATION)))
        .orElse(0);
    if (restarts <= reported) {
      return;
    }
    int maxRestarts = jobSet.get().getSpec() == null || jobSet.get().getSpec().getFailurePolicy() == null
        || jobSet.get().getSpec().getFailurePolicy().getMaxRestarts() == null ? 0
        : jobSet.get().getSpec().getFailurePolicy().getMaxRestarts();
    List<String> messages = new ArrayList<>();
    for (int restart = reported + 1; restart <= restarts; restart++) {
      Optional<PodFailure> failure = failure(jobSet.get(), restart - 1);
      String message = counted(restart, maxRestarts) + " after "
          + failure.map(PodFailure::describe).orElse("a failure of attempt " + (restart - 1)
              + " (its failed pod was not seen)");
      messages.add(message);
      events.record(trainJob, TrainJobEvents.WARNING, REASON, message);
      try {
        listener.restarted(trainJob, restart, maxRestarts, failure);
      } catch (RuntimeException e) {
        LOG.debug("Restart listener failed", e);
      }
    }
    String patch = "{\"metadata\":{\"annotations\":{\"" + ANNOTATION + "\":\"" + restarts + "\"}}}";
    PatchContext mergePatch = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE)
        .withFieldManager(TrainJobReconciler.FIELD_MANAGER).build();
    try {
      PrimaryUpdateAndCacheUtils.updateAndCacheResource(trainJob, context, UnaryOperator.identity(),
          resource -> client.resources(TrainJob.class).inNamespace(resource.getMetadata().getNamespace())
              .withName(resource.getMetadata().getName()).patch(mergePatch, patch),
          0, 0, 0);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
    LOG.info("TrainJob {}/{}: {}", trainJob.getMetadata().getNamespace(), trainJob.getMetadata().getName(),
        String.join("; ", messages));
  }

  /**
   * The first failure of the JobSet's attempt: from the informer's events, else (its event not delivered yet, the
   * operator down meanwhile) from a list of the attempt's failed pods, once per restart reported; empty when the
   * restart deleted them already.
   */
  private Optional<PodFailure> failure(JobSet jobSet, int attempt) {
    Optional<PodFailure> seen = failure(jobSet.getMetadata().getUid(), attempt);
    if (seen.isPresent()) {
      return seen;
    }
    try {
      client.pods().inNamespace(jobSet.getMetadata().getNamespace())
          .withLabel(JOBSET_UID_LABEL, jobSet.getMetadata().getUid())
          .withLabel(RESTART_ATTEMPT_LABEL, String.valueOf(attempt))
          .withField("status.phase", "Failed").list().getItems()
          .stream().sorted(Comparator.comparing(pod -> pod.getMetadata().getCreationTimestamp(),
              Comparator.nullsLast(Comparator.naturalOrder())))
          .forEach(this::record);
    } catch (KubernetesClientException e) {
      LOG.debug("Cannot list the failed pods of JobSet {}/{}", jobSet.getMetadata().getNamespace(),
          jobSet.getMetadata().getName(), e);
    }
    return failure(jobSet.getMetadata().getUid(), attempt);
  }

  /**
   * Names the pod behind a TrainJob's new {@code Failed} condition that its JobSet's failed Jobs caused: JobSet's
   * message names the first failed Job ({@code jobset failed due to reaching max number of restarts (first failed
   * job: x-node-0)}); the pod that failed first in the last attempt follows, with its node, why and its last lines,
   * in the condition of the status and in its transition (its Event).
   */
  void nameFailedPod(PostExecutionResult result, Optional<JobSet> jobSet) {
    if (jobSet.isEmpty()) {
      return;
    }
    for (Condition transition : result.transitions()) {
      if (!TrainerConstants.CONDITION_FAILED.equals(transition.getType()) || !"True".equals(transition.getStatus())
          || !JOB_FAILURE_REASONS.contains(transition.getReason())) {
        continue;
      }
      int attempt = jobSet.get().getStatus() == null || jobSet.get().getStatus().getRestarts() == null ? 0
          : jobSet.get().getStatus().getRestarts();
      Optional<PodFailure> failure = failure(jobSet.get(), attempt);
      if (failure.isEmpty()) {
        return;
      }
      String message = transition.getMessage() + "; " + failure.get().explain();
      transition.setMessage(message);
      Optional.ofNullable(result.status().getConditions()).orElse(List.of()).stream()
          .filter(c -> TrainerConstants.CONDITION_FAILED.equals(c.getType())).forEach(c -> c.setMessage(message));
    }
  }

  /** {@code restart 1/3}, or {@code restart 1} without a {@code maxRestarts}: how every restart line begins. */
  public static String counted(int restart, int maxRestarts) {
    return "restart " + restart + (maxRestarts > 0 ? "/" + maxRestarts : "");
  }

  Optional<PodFailure> failure(String jobSetUid, int attempt) {
    synchronized (failures) {
      NavigableMap<Integer, PodFailure> attempts = failures.get(jobSetUid);
      return Optional.ofNullable(attempts == null ? null : attempts.get(attempt));
    }
  }

  /**
   * Why the pod failed, as a person reads it: a preemption or eviction (its {@code DisruptionTarget} condition, or
   * the kubelet's {@code Evicted}), else its first failed container's {@code OOMKilled} or exit code, else the
   * pod's reason.
   */
  static String reason(Pod pod) {
    for (PodCondition condition : Optional.ofNullable(pod.getStatus().getConditions()).orElse(List.of())) {
      if ("DisruptionTarget".equals(condition.getType()) && "True".equals(condition.getStatus())) {
        String kind = "PreemptionByScheduler".equals(condition.getReason()) ? "preempted" : "evicted";
        return kind + " (" + condition.getReason() + ")" + message(condition.getMessage());
      }
    }
    if ("Evicted".equals(pod.getStatus().getReason())) {
      return "evicted" + message(pod.getStatus().getMessage());
    }
    Optional<ContainerStateTerminated> failed = failedContainer(pod).map(c -> c.getState().getTerminated());
    if (failed.isPresent()) {
      ContainerStateTerminated terminated = failed.get();
      if ("OOMKilled".equals(terminated.getReason())) {
        return "OOMKilled (exit code " + terminated.getExitCode() + ")";
      }
      String why = terminated.getReason() == null || "Error".equals(terminated.getReason()) ? ""
          : " (" + terminated.getReason() + ")";
      return "exit code " + terminated.getExitCode() + why;
    }
    return Optional.ofNullable(pod.getStatus().getReason()).orElse("failed") + message(pod.getStatus().getMessage());
  }

  /** {@code container node exited with code 137 (OOMKilled)} for the first failed container, or null. */
  private static String containerExit(Pod pod) {
    return failedContainer(pod).map(c -> {
      ContainerStateTerminated t = c.getState().getTerminated();
      return "container " + c.getName() + " exited with code " + t.getExitCode()
          + (t.getReason() == null || "Error".equals(t.getReason()) ? "" : " (" + t.getReason() + ")");
    }).orElse(null);
  }

  /** The first failed container's termination message, or null. */
  private static String lastLines(Pod pod) {
    return failedContainer(pod).map(c -> c.getState().getTerminated().getMessage())
        .filter(m -> !m.isBlank()).map(String::strip).orElse(null);
  }

  private static Optional<ContainerStatus> failedContainer(Pod pod) {
    List<ContainerStatus> containers = new ArrayList<>();
    containers.addAll(Optional.ofNullable(pod.getStatus().getInitContainerStatuses()).orElse(List.of()));
    containers.addAll(Optional.ofNullable(pod.getStatus().getContainerStatuses()).orElse(List.of()));
    return containers.stream().filter(c -> c.getState() != null && c.getState().getTerminated() != null
        && c.getState().getTerminated().getExitCode() != null && c.getState().getTerminated().getExitCode() != 0)
        .findFirst();
  }

  private static String message(String message) {
    return message == null || message.isBlank() ? "" : ": " + message.strip().lines().findFirst().orElse("");
  }

  private static Integer parse(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Integer.valueOf(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
