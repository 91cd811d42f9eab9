package io.kftrainer.executor;

import static io.kftrainer.api.jobset.v1alpha2.JobSetConstants.*;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kftrainer.api.jobset.v1alpha2.DependsOn;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.JobSetStatus;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJobStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The JobSet controller (JobSet v0.x semantics, for JobSets whose {@code managedBy} is unset or JobSet's own): one
 * Job {@code <jobset>-<rjob>-<index>} per replica with JobSet's labels and annotations on the Job and its pod
 * template, the headless Service of the subdomain, {@code dependsOn} and {@code startupPolicy: InOrder},
 * {@code successPolicy}, {@code failurePolicy} ({@link JobSetFailurePolicy}: a restart recreates the Jobs under a new
 * {@code restart-attempt}, {@code Recreate} or {@code BlockingRecreate}), {@code suspend}, and the status:
 * {@code Completed}, {@code Failed}, {@code Suspended}, {@code RestartingJobSet} with JobSet's reasons and messages, {@code replicatedJobsStatus}, {@code restarts},
 * {@code terminalState}. A finished JobSet's active Jobs are deleted, as JobSet does.
 */
final class JobSetController {

  static final String CONTROLLER = "jobset";

  private final KubernetesClient client;
  private final StatusUpdates statuses;
  /** JobSet ({@code namespace/name}) to the uid whose headless Service exists: looked up once, not per reconcile. */
  private final Map<String, String> servicesEnsured = new HashMap<>();
  /**
   * JobSet ({@code namespace/name}) to the decision this controller wrote last, a restart or its end
   * ({@code Completed}, {@code Failed}): until the informer brings that status back, a reconcile on the older copy
   * must neither decide again (a second Event and line) nor write a status without it.
   */
  private final Map<String, Written> written = new HashMap<>();
  private final VolumeClaimPolicies volumeClaims;
  /** JobSets (uid) told once that their failure policy's action needs a feature gate. */
  private final Set<String> unsupportedReported = new HashSet<>();
  private final Store<JobSet> jobSets;
  private final Store<Job> jobs;
  private final EventRecorder events;
  private final Consumer<String> progress;

  JobSetController(KubernetesClient client, Store<JobSet> jobSets, Store<Job> jobs, EventRecorder events,
      Consumer<String> progress) {
    this.client = client;
    this.statuses = StatusUpdates.ofAccumulatedState(client);
    this.jobSets = jobSets;
    this.jobs = jobs;
    this.events = events;
    this.progress = progress;
    this.volumeClaims = new VolumeClaimPolicies(client);
  }

  void reconcile(WorkQueue.Key key) {
    JobSet jobSet = jobSets.getByKey(key.namespace() + "/" + key.name());
    List<Job> owned = jobs.list().stream().filter(j -> key.namespace().equals(j.getMetadata().getNamespace()))
        .filter(j -> key.name().equals(label(j, LABEL_JOBSET_NAME)))
        .filter(j -> jobSet == null || ownedBy(j, jobSet)).toList();
    if (jobSet == null || jobSet.getMetadata().getDeletionTimestamp() != null) {
      servicesEnsured.remove(key.namespace() + "/" + key.name());
      written.remove(key.namespace() + "/" + key.name());
      volumeClaims.forget(key.namespace(), key.name());
      // correct with or without garbage collection in the API server: delete what this controller created
      owned.forEach(this::delete);
      client.services().inNamespace(key.namespace()).withLabel(LABEL_JOBSET_NAME, key.name()).list().getItems()
          .forEach(this::delete);
      return;
    }
    String managedBy = jobSet.getSpec().getManagedBy();
    if (managedBy != null && !CONTROLLER_NAME.equals(managedBy)) {
      return;
    }
    JobSetStatus old = Optional.ofNullable(jobSet.getStatus()).orElseGet(JobSetStatus::new);
    JobSetStatus status = copy(old);
    int attempt = Optional.ofNullable(status.getRestarts()).orElse(0);
    List<Job> current = new ArrayList<>();
    List<Job> previous = new ArrayList<>();
    for (Job job : owned) {
      if (String.valueOf(attempt).equals(label(job, Names.RESTART_ATTEMPT))) {
        current.add(job);
      } else {
        previous.add(job);
        if (job.getMetadata().getDeletionTimestamp() == null) {
          deleteForeground(job); // a Job of an earlier attempt
        }
      }
    }
    boolean terminal = PodConditions.isTrue(status.getConditions(), CONDITION_COMPLETED)
        || PodConditions.isTrue(status.getConditions(), CONDITION_FAILED);
    String jobSetKey = key.namespace() + "/" + key.name();
    Written last = written.get(jobSetKey);
    if (last != null && last.uid().equals(jobSet.getMetadata().getUid())
        && (attempt < last.restarts() || last.ended() && !terminal)) {
      return; // this controller's last decision is not in the cache yet
    }
    if (terminal) {
      current.stream().filter(j -> !finished(j)).forEach(this::delete);
    } else {
      ensureService(jobSet);
      if (createClaims(jobSet, status)) {
        reconcileJobs(jobSet, status, current, attempt, previous);
      }
    }
    status.setReplicatedJobsStatus(replicatedJobsStatus(jobSet, current));
    if (!Objects.equals(copy(old), status)) {
      writeStatus(jobSet, status);
      int restarts = Optional.ofNullable(status.getRestarts()).orElse(0);
      if (restarts > attempt || !terminal && status.getTerminalState() != null) {
        written.put(jobSetKey, new Written(jobSet.getMetadata().getUid(), restarts,
            status.getTerminalState() != null));
      }
    }
  }

  /** A decision written for the JobSet of {@code uid}: its restarts then, and whether it ended. */
  private record Written(String uid, int restarts, boolean ended) {
  }

  /**
   * The claims of the JobSet's {@code volumeClaimPolicies}; false when the API server refused one, which fails the
   * JobSet at once when the refusal is final (an invalid template), else is retried.
   */
  private boolean createClaims(JobSet jobSet, JobSetStatus status) {
    try {
      volumeClaims.ensure(jobSet, owner(jobSet));
      return true;
    } catch (KubernetesClientException e) {
      refused(jobSet, status, "PVCCreationFailed", e);
      return false;
    }
  }

  /**
   * A child the API server refused: JobSet's Warning Event; a final refusal (400, 422: the JobSet's template is
   * invalid and would be refused again) fails the JobSet at once with the API server's message, where JobSet itself
   * retries forever and its TrainJob would wait without a word. Other refusals are retried by the work queue.
   */
  private void refused(JobSet jobSet, JobSetStatus status, String reason, KubernetesClientException e) {
    String message = Optional.ofNullable(e.getStatus()).map(st -> st.getMessage()).orElse(e.getMessage());
    events.record(jobSet, "jobset-controller", "Warning", reason, message);
    if (e.getCode() != 400 && e.getCode() != 422) {
      throw e;
    }
    status.setConditions(PodConditions.set(status.getConditions(), CONDITION_FAILED, "True", reason, message));
    status.setTerminalState(CONDITION_FAILED);
    progress.accept("jobset " + jobSet.getMetadata().getNamespace() + "/" + jobSet.getMetadata().getName()
        + ": Failed (" + reason + "), " + message);
  }

  private void reconcileJobs(JobSet jobSet, JobSetStatus status, List<Job> current, int attempt,
      List<Job> previous) {
    String name = jobSet.getMetadata().getName();
    boolean suspend = Boolean.TRUE.equals(jobSet.getSpec().getSuspend());
    List<Job> failed = current.stream().filter(j -> PodConditions.isJobTrue(j.getStatus() == null ? null
        : j.getStatus().getConditions(), "Failed")).toList();
    if (!failed.isEmpty()) {
      onJobFailure(jobSet, status, failed, current);
      return;
    }
    if (succeeded(jobSet, current)) {
      status.setConditions(PodConditions.set(status.getConditions(), CONDITION_COMPLETED, "True", "AllJobsCompleted",
          "jobset completed successfully"));
      restartingFalse(status, "JobSetCompleted", "jobset completed successfully");
      status.setTerminalState(CONDITION_COMPLETED);
      events.record(jobSet, "jobset-controller", "Normal", "AllJobsCompleted", "jobset completed successfully");
      progress.accept("jobset " + jobSet.getMetadata().getNamespace() + "/" + name + ": Completed");
      current.stream().filter(j -> !finished(j)).forEach(this::delete);
      return;
    }
    // suspend and resume: the Jobs follow the JobSet
    for (Job job : current) {
      if (Boolean.TRUE.equals(job.getSpec().getSuspend()) != suspend && !finished(job)) {
        client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
            .withName(job.getMetadata().getName()).edit(j -> {
              j.getSpec().setSuspend(suspend);
              return j;
            });
      }
    }
    if (suspend) {
      restartingFalse(status, "JobSetSuspended", "jobset is suspended");
      if (!PodConditions.isTrue(status.getConditions(), CONDITION_SUSPENDED)) {
        status.setConditions(PodConditions.set(status.getConditions(), CONDITION_SUSPENDED, "True", "SuspendedJobs",
            "jobset is suspended"));
        progress.accept("jobset " + jobSet.getMetadata().getNamespace() + "/" + name + ": Suspended");
      }
    } else if (status.getConditions() != null && status.getConditions().stream()
        .anyMatch(c -> CONDITION_SUSPENDED.equals(c.getType()) && "True".equals(c.getStatus()))) {
      status.setConditions(PodConditions.set(status.getConditions(), CONDITION_SUSPENDED, "False", "ResumeJobs",
          "jobset is resumed"));
    }
    if (!suspend && allJobsReady(jobSet, current)) {
      restartingFalse(status, "JobsReady", "all jobs are ready");
    }
    boolean blocking = jobSet.getSpec().getFailurePolicy() != null
        && "BlockingRecreate".equals(jobSet.getSpec().getFailurePolicy().getRestartStrategy());
    if (blocking && !previous.isEmpty()) {
      return; // BlockingRecreate: no Job of this attempt until every Job of the earlier one is gone
    }
    boolean inOrder = jobSet.getSpec().getStartupPolicy() != null
        && STARTUP_IN_ORDER.equals(jobSet.getSpec().getStartupPolicy().getStartupPolicyOrder());
    List<ReplicatedJob> rjobs = jobSet.getSpec().getReplicatedJobs();
    for (int r = 0; r < rjobs.size(); r++) {
      ReplicatedJob rjob = rjobs.get(r);
      if (!dependenciesMet(rjob, current)) {
        continue;
      }
      int replicas = Optional.ofNullable(rjob.getReplicas()).orElse(1);
      for (int i = 0; i < replicas; i++) {
        String jobName = name + "-" + rjob.getName() + "-" + i;
        // Recreate: each Job as soon as its namesake of the earlier attempt is gone
        if (Stream.concat(current.stream(), previous.stream())
            .noneMatch(j -> jobName.equals(j.getMetadata().getName()))) {
          if (!create(jobSet, status, rjob, i, jobName, attempt, suspend, globalIndex(rjobs, r, i))) {
            return;
          }
        }
      }
      if (inOrder && !allReady(rjob, current)) {
        break;
      }
    }
  }

  private void onJobFailure(JobSet jobSet, JobSetStatus status, List<Job> failed, List<Job> current) {
    JobSetFailurePolicy.Decision decision = JobSetFailurePolicy.decide(jobSet, failed);
    String ns = jobSet.getMetadata().getNamespace();
    String name = jobSet.getMetadata().getName();
    if (decision instanceof JobSetFailurePolicy.Restart restart) {
      int restarts = Optional.ofNullable(status.getRestarts()).orElse(0) + 1;
      status.setRestarts(restarts);
      if (restart.countsTowardsMax()) {
        status.setRestartsCountTowardsMax(Optional.ofNullable(status.getRestartsCountTowardsMax()).orElse(0) + 1);
      }
      status.setConditions(PodConditions.set(status.getConditions(), CONDITION_RESTARTING, "True",
          restart.conditionReason(), restart.message()));
      events.record(jobSet, "jobset-controller", "Warning", restart.conditionReason(), restart.message());
      events.record(jobSet, "jobset-controller", "Warning", restart.eventReason(), restart.message());
      progress.accept("jobset " + ns + "/" + name + ": restarting (attempt " + restarts + "), "
          + detail(restart.failed()));
      current.forEach(this::deleteForeground);
    } else if (decision instanceof JobSetFailurePolicy.Fail fail) {
      status.setConditions(PodConditions.set(status.getConditions(), CONDITION_FAILED, "True", fail.reason(),
          fail.message()));
      restartingFalse(status, "JobSetFailed", "jobset failed");
      status.setTerminalState(CONDITION_FAILED);
      events.record(jobSet, "jobset-controller", "Warning", fail.reason(), fail.message());
      progress.accept("jobset " + ns + "/" + name + ": Failed (" + fail.reason() + "), " + detail(fail.failed())
          .lines().findFirst().orElse(""));
      current.stream().filter(j -> !finished(j)).forEach(this::delete);
    } else if (decision instanceof JobSetFailurePolicy.Unsupported unsupported
        && unsupportedReported.add(jobSet.getMetadata().getUid())) {
      // JobSet's controller returns an error for these actions without its RestartJob feature gate, and retries
      events.record(jobSet, "jobset-controller", "Warning", "FailurePolicyActionUnsupported", "failure policy action "
          + unsupported.action() + " needs JobSet's RestartJob feature gate, which is off: nothing is done about "
          + "failed job " + unsupported.failed().getMetadata().getName());
    }
  }

  /** {@code job x failed: <its Failed message>}, for the progress lines. */
  private static String detail(Job failed) {
    return "job " + failed.getMetadata().getName() + " failed: " + JobSetFailurePolicy.failure(failed)
        .map(JobCondition::getMessage).orElse("");
  }

  /**
   * JobSet's {@code RestartingJobSet=False}, as its controller updates a condition: over one that exists and says
   * otherwise; none is added.
   */
  private static void restartingFalse(JobSetStatus status, String reason, String message) {
    boolean differs = status.getConditions() != null && status.getConditions().stream()
        .anyMatch(c -> CONDITION_RESTARTING.equals(c.getType()) && !("False".equals(c.getStatus())
            && reason.equals(c.getReason()) && message.equals(c.getMessage())));
    if (differs) {
      status.setConditions(PodConditions.set(status.getConditions(), CONDITION_RESTARTING, "False", reason,
          message));
    }
  }

  private boolean succeeded(JobSet jobSet, List<Job> current) {
    var policy = jobSet.getSpec().getSuccessPolicy();
    String operator = policy == null || policy.getOperator() == null ? OPERATOR_ALL : policy.getOperator();
    List<String> targets = policy == null || policy.getTargetReplicatedJobs() == null
        || policy.getTargetReplicatedJobs().isEmpty()
        ? jobSet.getSpec().getReplicatedJobs().stream().map(ReplicatedJob::getName).toList()
        : policy.getTargetReplicatedJobs();
    List<Job> targeted = current.stream().filter(j -> targets.contains(label(j, LABEL_REPLICATED_JOB_NAME))).toList();
    List<Job> complete = targeted.stream().filter(j -> PodConditions.isJobTrue(j.getStatus() == null ? null
        : j.getStatus().getConditions(), "Complete")).toList();
    if (OPERATOR_ANY.equals(operator)) {
      return !complete.isEmpty();
    }
    int expected = jobSet.getSpec().getReplicatedJobs().stream().filter(r -> targets.contains(r.getName()))
        .mapToInt(r -> Optional.ofNullable(r.getReplicas()).orElse(1)).sum();
    return expected > 0 && complete.size() == expected;
  }

  private boolean dependenciesMet(ReplicatedJob rjob, List<Job> current) {
    for (DependsOn dependency : Optional.ofNullable(rjob.getDependsOn()).orElse(List.of())) {
      List<Job> of = current.stream().filter(j -> dependency.getName().equals(label(j, LABEL_REPLICATED_JOB_NAME)))
          .toList();
      boolean met = !of.isEmpty() && of.stream().allMatch(j -> DEPENDS_ON_COMPLETE.equals(dependency.getStatus())
          ? PodConditions.isJobTrue(j.getStatus() == null ? null : j.getStatus().getConditions(), "Complete")
          : ready(j) || PodConditions.isJobTrue(j.getStatus() == null ? null : j.getStatus().getConditions(),
              "Complete"));
      if (!met) {
        return false;
      }
    }
    return true;
  }

  private boolean allReady(ReplicatedJob rjob, List<Job> current) {
    int replicas = Optional.ofNullable(rjob.getReplicas()).orElse(1);
    return current.stream().filter(j -> rjob.getName().equals(label(j, LABEL_REPLICATED_JOB_NAME)))
        .filter(j -> ready(j) || finished(j)).count() >= replicas;
  }

  /** Creates a Job; false when the API server refused it ({@link #refused}). */
  private boolean create(JobSet jobSet, JobSetStatus status, ReplicatedJob rjob, int index, String jobName,
      int attempt, boolean suspend, int globalIndex) {
    String ns = jobSet.getMetadata().getNamespace();
    String name = jobSet.getMetadata().getName();
    int globalReplicas = jobSet.getSpec().getReplicatedJobs().stream()
        .mapToInt(r -> Optional.ofNullable(r.getReplicas()).orElse(1)).sum();
    Map<String, String> meta = new HashMap<>();
    meta.put(LABEL_JOBSET_NAME, name);
    meta.put(LABEL_JOBSET_UID, jobSet.getMetadata().getUid());
    meta.put(LABEL_REPLICATED_JOB_NAME, rjob.getName());
    meta.put(LABEL_REPLICATED_JOB_REPLICAS, String.valueOf(Optional.ofNullable(rjob.getReplicas()).orElse(1)));
    meta.put(LABEL_JOB_INDEX, String.valueOf(index));
    meta.put(LABEL_JOB_GLOBAL_INDEX, String.valueOf(globalIndex));
    meta.put(LABEL_GLOBAL_REPLICAS, String.valueOf(globalReplicas));
    meta.put(LABEL_GROUP_NAME, Optional.ofNullable(rjob.getGroupName()).orElse(DEFAULT_GROUP_NAME));
    meta.put(LABEL_JOB_KEY, Names.jobKey(ns, jobName));
    meta.put(Names.RESTART_ATTEMPT, String.valueOf(attempt));

    Job job = new JobBuilder().withMetadata(rjob.getTemplate().getMetadata()).withSpec(rjob.getTemplate().getSpec())
        .build();
    job = new JobBuilder(job).editOrNewMetadata().withName(jobName).withNamespace(ns).addToLabels(meta)
        .addToAnnotations(meta).withOwnerReferences(owner(jobSet)).endMetadata().build();
    // JobSet's defaults (its webhook's): Indexed completion, restartPolicy OnFailure, the subdomain
    var spec = job.getSpec();
    if (spec.getCompletionMode() == null) {
      spec.setCompletionMode("Indexed");
    }
    spec.setSuspend(suspend);
    PodTemplateSpec template = spec.getTemplate();
    template.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(
        Optional.ofNullable(template.getMetadata()).orElseGet(io.fabric8.kubernetes.api.model.ObjectMeta::new))
        .addToLabels(meta).addToAnnotations(meta).build());
    if (template.getSpec().getRestartPolicy() == null) {
      template.getSpec().setRestartPolicy("OnFailure");
    }
    if (dnsHostnames(jobSet) && template.getSpec().getSubdomain() == null) {
      template.getSpec().setSubdomain(subdomain(jobSet));
    }
    VolumeClaimPolicies.addVolumes(jobSet, template.getSpec());
    try {
      client.batch().v1().jobs().inNamespace(ns).resource(job).create();
      events.record(jobSet, "jobset-controller", "Normal", "SuccessfulCreate", "Created job " + jobName);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return true;
      }
      refused(jobSet, status, "JobCreationFailed", e);
      return false;
    }
  }

  private void ensureService(JobSet jobSet) {
    if (!dnsHostnames(jobSet)) {
      return;
    }
    String ns = jobSet.getMetadata().getNamespace();
    String name = subdomain(jobSet);
    String jobSetKey = ns + "/" + jobSet.getMetadata().getName();
    if (jobSet.getMetadata().getUid().equals(servicesEnsured.get(jobSetKey))) {
      return;
    }
    if (client.services().inNamespace(ns).withName(name).get() != null) {
      servicesEnsured.put(jobSetKey, jobSet.getMetadata().getUid());
      return;
    }
    boolean publish = jobSet.getSpec().getNetwork() == null
        || jobSet.getSpec().getNetwork().getPublishNotReadyAddresses() == null
        || jobSet.getSpec().getNetwork().getPublishNotReadyAddresses();
    Service service = new ServiceBuilder().withNewMetadata().withName(name).withNamespace(ns)
        .addToLabels(LABEL_JOBSET_NAME, jobSet.getMetadata().getName()).withOwnerReferences(owner(jobSet))
        .endMetadata().withNewSpec().withClusterIP("None")
        .addToSelector(LABEL_JOBSET_NAME, jobSet.getMetadata().getName()).withPublishNotReadyAddresses(publish)
        .endSpec().build();
    try {
      client.services().inNamespace(ns).resource(service).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
    servicesEnsured.put(jobSetKey, jobSet.getMetadata().getUid());
  }

  private List<ReplicatedJobStatus> replicatedJobsStatus(JobSet jobSet, List<Job> current) {
    List<ReplicatedJobStatus> result = new ArrayList<>();
    for (ReplicatedJob rjob : jobSet.getSpec().getReplicatedJobs()) {
      List<Job> of = current.stream().filter(j -> rjob.getName().equals(label(j, LABEL_REPLICATED_JOB_NAME)))
          .toList();
      ReplicatedJobStatus s = new ReplicatedJobStatus();
      s.setName(rjob.getName());
      s.setReady((int) of.stream().filter(j -> !finished(j) && ready(j)).count());
      s.setSucceeded((int) of.stream().filter(j -> PodConditions.isJobTrue(conditions(j), "Complete")).count());
      s.setFailed((int) of.stream().filter(j -> PodConditions.isJobTrue(conditions(j), "Failed")).count());
      s.setActive((int) of.stream().filter(j -> !finished(j) && j.getStatus() != null
          && Optional.ofNullable(j.getStatus().getActive()).orElse(0) > 0).count());
      s.setSuspended((int) of.stream().filter(j -> Boolean.TRUE.equals(j.getSpec().getSuspend())).count());
      result.add(s);
    }
    return result;
  }

  private void writeStatus(JobSet jobSet, JobSetStatus status) {
    statuses.write(jobSet, j -> j.setStatus(status));
  }

  private void delete(HasMetadata object) {
    try {
      client.resource(object).withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND)
          .delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** As JobSet deletes the Jobs of an earlier attempt: a Job stays, being deleted, until its pods are gone. */
  private void deleteForeground(Job job) {
    try {
      client.resource(job).withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.FOREGROUND)
          .delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  private static boolean allJobsReady(JobSet jobSet, List<Job> current) {
    return jobSet.getSpec().getReplicatedJobs().stream().allMatch(r -> allReadyOnly(r, current));
  }

  private static boolean allReadyOnly(ReplicatedJob rjob, List<Job> current) {
    int replicas = Optional.ofNullable(rjob.getReplicas()).orElse(1);
    return current.stream().filter(j -> rjob.getName().equals(label(j, LABEL_REPLICATED_JOB_NAME)))
        .filter(j -> !finished(j) && ready(j)).count() >= replicas;
  }

  private static JobSetStatus copy(JobSetStatus status) {
    JobSetStatus copy = new JobSetStatus();
    copy.setConditions(status.getConditions() == null ? null : new ArrayList<>(status.getConditions()));
    copy.setRestarts(status.getRestarts());
    copy.setRestartsCountTowardsMax(status.getRestartsCountTowardsMax());
    copy.setTerminalState(status.getTerminalState());
    copy.setReplicatedJobsStatus(status.getReplicatedJobsStatus());
    return copy;
  }

  private static OwnerReference owner(JobSet jobSet) {
    return new OwnerReferenceBuilder().withApiVersion(API_VERSION).withKind(KIND)
        .withName(jobSet.getMetadata().getName()).withUid(jobSet.getMetadata().getUid()).withController(true)
        .withBlockOwnerDeletion(true).build();
  }

  private static boolean ownedBy(Job job, JobSet jobSet) {
    return job.getMetadata().getOwnerReferences() != null && job.getMetadata().getOwnerReferences().stream()
        .anyMatch(o -> Objects.equals(o.getUid(), jobSet.getMetadata().getUid()));
  }

  private static boolean dnsHostnames(JobSet jobSet) {
    return jobSet.getSpec().getNetwork() == null || jobSet.getSpec().getNetwork().getEnableDNSHostnames() == null
        || jobSet.getSpec().getNetwork().getEnableDNSHostnames();
  }

  static String subdomain(JobSet jobSet) {
    return Optional.ofNullable(jobSet.getSpec().getNetwork()).map(n -> n.getSubdomain()).filter(s -> !s.isEmpty())
        .orElse(jobSet.getMetadata().getName());
  }

  private static int globalIndex(List<ReplicatedJob> rjobs, int r, int i) {
    int before = 0;
    for (int k = 0; k < r; k++) {
      before += Optional.ofNullable(rjobs.get(k).getReplicas()).orElse(1);
    }
    return before + i;
  }

  private static List<JobCondition> conditions(Job job) {
    return job.getStatus() == null ? null : job.getStatus().getConditions();
  }

  private static boolean finished(Job job) {
    return PodConditions.isJobTrue(conditions(job), "Complete") || PodConditions.isJobTrue(conditions(job), "Failed");
  }

  private static boolean ready(Job job) {
    if (job.getStatus() == null) {
      return false;
    }
    int parallelism = Optional.ofNullable(job.getSpec().getParallelism()).orElse(1);
    return Optional.ofNullable(job.getStatus().getReady()).orElse(0)
        + Optional.ofNullable(job.getStatus().getSucceeded()).orElse(0) >= parallelism;
  }

  private static String label(HasMetadata object, String name) {
    return object.getMetadata().getLabels() == null ? null : object.getMetadata().getLabels().get(name);
  }
}
