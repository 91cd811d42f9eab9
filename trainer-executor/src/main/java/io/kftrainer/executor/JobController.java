package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The batch/v1 Job controller, for what JobSets need: pods {@code <job>-<index>-<suffix>} with hostname
 * {@code <job>-<index>} and the template's subdomain in {@code Indexed} mode (label and annotation
 * {@code batch.kubernetes.io/job-completion-index}), {@code parallelism}, {@code completions},
 * {@code backoffLimit} (failed pods plus container restarts), {@code podFailurePolicy} ({@link PodFailurePolicy}),
 * {@code suspend}, and the conditions
 * {@code SuccessCriteriaMet}/{@code Complete}, {@code FailureTarget}/{@code Failed} and {@code Suspended} with
 * batch/v1's reasons and messages; the {@code Failed} message goes on with the failed pod, container, exit code
 * and last lines.
 */
final class JobController implements AutoCloseable {

  static final String CONTROLLER = "job";
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
  private static final String COMPLETION_INDEX_ENV = "JOB_COMPLETION_INDEX";

  private final KubernetesClient client;
  private final StatusUpdates statuses;
  private final Store<Job> jobs;
  private final Store<Pod> pods;
  private final EventRecorder events;
  /**
   * Pods created but not yet seen in the cache, per Job (namespace/name; each pod names its Job's uid): counted as
   * active so none is created twice.
   */
  private final Map<String, Map<String, Pod>> expected = new HashMap<>();
  /**
   * The uid of each Job this controller ended ({@code Complete} or {@code Failed}), by namespace/name. Until the
   * informer brings that write back, a reconcile (the deleted pods' events) reads the Job as still running and
   * would replace the pods it has just stopped: the kube-controller-manager's Job controller keeps the same
   * memory in its expectations.
   */
  private final Map<String, String> ended = new HashMap<>();
  /**
   * The creates of one reconcile's pods, sent side by side as the kube-controller-manager's Job controller sends
   * them: the last node of a JobSet, which the training waits for, does not wait for the others' round trips.
   */
  private final ThreadPoolExecutor creates = new ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS,
      new LinkedBlockingQueue<>(), task -> {
        Thread thread = new Thread(task, "local-executor-pod-creates");
        thread.setDaemon(true);
        return thread;
      });

  JobController(KubernetesClient client, Store<Job> jobs, Store<Pod> pods, EventRecorder events) {
    creates.allowCoreThreadTimeOut(true);
    this.client = client;
    this.statuses = StatusUpdates.ofAccumulatedState(client);
    this.jobs = jobs;
    this.pods = pods;
    this.events = events;
  }

  void reconcile(WorkQueue.Key key) {
    Job job = jobs.getByKey(key.namespace() + "/" + key.name());
    List<Pod> owned = pods.list().stream()
        .filter(p -> key.namespace().equals(p.getMetadata().getNamespace()))
        .filter(p -> key.name().equals(label(p, Names.JOB_NAME)))
        .filter(p -> job == null || Objects.equals(job.getMetadata().getUid(), label(p, Names.CONTROLLER_UID)))
        .toList();
    String cacheKey = key.namespace() + "/" + key.name();
    if (job == null || job.getMetadata().getDeletionTimestamp() != null) {
      expected.remove(cacheKey);
      ended.remove(cacheKey);
      // without garbage collection in the API server, the pods go with their Job
      owned.forEach(this::delete);
      return;
    }
    Map<String, Pod> expectations = expected.computeIfAbsent(cacheKey, k -> new HashMap<>());
    expectations.values().removeIf(p -> !job.getMetadata().getUid().equals(label(p, Names.CONTROLLER_UID)));
    owned.forEach(p -> expectations.remove(p.getMetadata().getName()));
    if (!expectations.isEmpty()) {
      owned = Stream.concat(owned.stream(), expectations.values().stream()).toList();
    }
    JobStatus old = Optional.ofNullable(job.getStatus()).orElseGet(JobStatus::new);
    JobStatusBuilder status = new JobStatusBuilder(old);
    List<JobCondition> conditions = new ArrayList<>(Optional.ofNullable(old.getConditions()).orElse(List.of()));
    List<Pod> active = owned.stream().filter(JobController::isActive).toList();
    boolean finished = PodConditions.isJobTrue(conditions, "Complete") || PodConditions.isJobTrue(conditions, "Failed");
    if (!finished && job.getMetadata().getUid().equals(ended.get(cacheKey))) {
      // the informer's copy predates this controller's terminal write: stop what runs, write nothing stale
      active.forEach(this::delete);
      return;
    }
    boolean suspended = Boolean.TRUE.equals(job.getSpec().getSuspend());
    int completions = Optional.ofNullable(job.getSpec().getCompletions()).orElse(1);
    int parallelism = Optional.ofNullable(job.getSpec().getParallelism()).orElse(1);
    int backoffLimit = Optional.ofNullable(job.getSpec().getBackoffLimit()).orElse(6);
    boolean indexed = "Indexed".equals(job.getSpec().getCompletionMode());

    TreeSet<Integer> succeeded = owned.stream().filter(p -> "Succeeded".equals(phase(p)))
        .map(JobController::index).collect(Collectors.toCollection(TreeSet::new));
    List<Pod> failedPods = owned.stream().filter(p -> "Failed".equals(phase(p)))
        .sorted(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp(),
            Comparator.nullsLast(Comparator.naturalOrder()))).toList();
    List<PodFailurePolicy.Outcome> outcomes = failedPods.stream().map(p -> PodFailurePolicy.match(job, p)).toList();
    int restarts = active.stream().mapToInt(JobController::restarts).sum();
    int failed = (int) outcomes.stream().filter(PodFailurePolicy.Outcome::counts).count() + restarts;
    Optional<String> failJob = outcomes.stream().flatMap(o -> o.failJob().stream()).findFirst();

    if (finished) {
      active.forEach(this::delete);
    } else if (suspended) {
      active.forEach(this::delete);
      if (!PodConditions.isJobTrue(conditions, "Suspended")) {
        conditions = PodConditions.setJob(conditions, "Suspended", "True", "JobSuspended", "Job suspended");
        events.record(job, "job-controller", "Normal", "Suspended", "Job suspended");
      }
      status.withStartTime(null);
      active = List.of();
    } else {
      if (PodConditions.isJobTrue(conditions, "Suspended")) {
        conditions = PodConditions.setJob(conditions, "Suspended", "False", "JobResumed", "Job resumed");
        events.record(job, "job-controller", "Normal", "Resumed", "Job resumed");
      }
      if (old.getStartTime() == null) {
        status.withStartTime(Instant.now().toString());
      }
      Optional<Pod> cannotRun = failedPods.stream().filter(Kubelet::cannotRunHere).findFirst();
      if (cannotRun.isPresent()) {
        // as a podFailurePolicy FailJob rule would: a replacement would fail the same way, before anything runs
        String detail = failureDetail(List.of(cannotRun.get()), List.of());
        String message = "Job has a pod that cannot run on this machine" + (detail.isEmpty()
            ? ": pod " + cannotRun.get().getMetadata().getName() + ": " + cannotRun.get().getStatus().getMessage()
            : detail);
        conditions = PodConditions.setJob(conditions, "FailureTarget", "True", "PodFailurePolicy", message);
        conditions = PodConditions.setJob(conditions, "Failed", "True", "PodFailurePolicy", message);
        events.record(job, "job-controller", "Warning", "PodFailurePolicy", message);
        active.forEach(this::delete);
        active = List.of();
      } else if (failJob.isPresent()) {
        conditions = PodConditions.setJob(conditions, "FailureTarget", "True", PodFailurePolicy.REASON, failJob.get());
        conditions = PodConditions.setJob(conditions, "Failed", "True", PodFailurePolicy.REASON, failJob.get());
        events.record(job, "job-controller", "Warning", PodFailurePolicy.REASON, failJob.get());
        active.forEach(this::delete);
        active = List.of();
      } else if (failed > backoffLimit) {
        // batch/v1's message, then what a person needs on this machine: which pod and container, its last lines
        String message = "Job has reached the specified backoff limit" + failureDetail(failedPods, active);
        conditions = PodConditions.setJob(conditions, "FailureTarget", "True", "BackoffLimitExceeded", message);
        conditions = PodConditions.setJob(conditions, "Failed", "True", "BackoffLimitExceeded", message);
        events.record(job, "job-controller", "Warning", "BackoffLimitExceeded", message);
        active.forEach(this::delete);
        active = List.of();
      } else if (succeeded.size() >= completions) {
        String message = "Reached expected number of succeeded pods";
        conditions = PodConditions.setJob(conditions, "SuccessCriteriaMet", "True", "CompletionsReached", message);
        conditions = PodConditions.setJob(conditions, "Complete", "True", "CompletionsReached", message);
        status.withCompletionTime(Instant.now().toString());
        events.record(job, "job-controller", "Normal", "Completed", "Job completed");
      } else {
        List<Integer> missing = new ArrayList<>();
        for (int index = 0; index < completions && active.size() + missing.size() < parallelism; index++) {
          int i = index;
          if (succeeded.contains(i) || active.stream().anyMatch(p -> index(p) == i)) {
            continue;
          }
          missing.add(indexed ? i : -1);
          if (!indexed && active.size() + missing.size() + succeeded.size() >= completions) {
            break;
          }
        }
        if (!missing.isEmpty() && old.getStartTime() != null && !stillExists(job)) {
          // a pod gone with its Job, which this informer has not seen go yet (the garbage collector deletes the
          // Job, then its pods): a replacement would start the training again for a moment
          return;
        }
        active = new ArrayList<>(active);
        active.addAll(create(job, missing));
      }
    }
    status.withConditions(conditions)
        .withActive(active.size())
        .withReady((int) active.stream().filter(JobController::ready).count())
        .withSucceeded(succeeded.size())
        .withFailed(failed)
        .withTerminating(0)
        .withCompletedIndexes(indexed ? ranges(succeeded) : null)
        .withNewUncountedTerminatedPods().endUncountedTerminatedPods();
    JobStatus desired = status.build();
    if (!desired.equals(old)) {
      writeStatus(job, desired);
    }
    boolean endsNow = PodConditions.isJobTrue(conditions, "Complete") || PodConditions.isJobTrue(conditions, "Failed");
    if (endsNow && !finished) {
      ended.put(cacheKey, job.getMetadata().getUid());
    }
  }

  /**
   * Creates the pods of {@code indexes} side by side; returns them once all answered. Those created are expected
   * and have their Event even when another failed, whose error is then thrown (the reconcile is retried).
   */
  private List<Pod> create(Job job, List<Integer> indexes) {
    List<Pod> desired = indexes.stream().map(index -> pod(job, index)).toList();
    List<CompletableFuture<Pod>> posts = desired.stream().map(pod -> desired.size() == 1
        ? CompletableFuture.completedFuture(post(pod))
        : CompletableFuture.supplyAsync(() -> post(pod), creates)).toList();
    List<Pod> created = new ArrayList<>();
    RuntimeException failure = null;
    for (CompletableFuture<Pod> post : posts) {
      Pod pod;
      try {
        pod = post.join();
      } catch (CompletionException e) {
        failure = failure != null ? failure
            : e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        continue;
      }
      expected.computeIfAbsent(job.getMetadata().getNamespace() + "/" + job.getMetadata().getName(),
          k -> new HashMap<>()).put(pod.getMetadata().getName(), pod);
      events.record(job, "job-controller", "Normal", "SuccessfulCreate", "Created pod: " + pod.getMetadata().getName());
      created.add(pod);
    }
    if (failure != null) {
      throw failure;
    }
    return created;
  }

  /** Whether the API server still has {@code job} (this uid): read live, only before a replacement pod. */
  private boolean stillExists(Job job) {
    Job current = client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
        .withName(job.getMetadata().getName()).get();
    return current != null && current.getMetadata().getUid().equals(job.getMetadata().getUid())
        && current.getMetadata().getDeletionTimestamp() == null;
  }

  private Pod post(Pod pod) {
    return client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
  }

  /** The pod of {@code index} (-1 when the Job is not indexed), as the Job controller makes it. */
  private static Pod pod(Job job, int index) {
    String name = job.getMetadata().getName();
    String prefix = name + "-" + (index >= 0 ? index + "-" : "");
    String podName = prefix + suffix();
    Map<String, String> labels = new HashMap<>(Optional.ofNullable(job.getSpec().getTemplate().getMetadata())
        .map(m -> m.getLabels()).orElse(Map.of()));
    Map<String, String> annotations = new HashMap<>(Optional.ofNullable(job.getSpec().getTemplate().getMetadata())
        .map(m -> m.getAnnotations()).orElse(Map.of()));
    labels.put(Names.JOB_NAME, name);
    labels.put(Names.LEGACY_JOB_NAME, name);
    labels.put(Names.CONTROLLER_UID, job.getMetadata().getUid());
    labels.put(Names.LEGACY_CONTROLLER_UID, job.getMetadata().getUid());
    if (index >= 0) {
      labels.put(Names.COMPLETION_INDEX, String.valueOf(index));
      annotations.put(Names.COMPLETION_INDEX, String.valueOf(index));
    }
    PodBuilder pod = new PodBuilder()
        .withNewMetadata().withName(podName).withNamespace(job.getMetadata().getNamespace()).withLabels(labels)
        .withAnnotations(annotations).withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1")
            .withKind("Job").withName(name).withUid(job.getMetadata().getUid()).withController(true)
            .withBlockOwnerDeletion(true).build()).endMetadata()
        .withSpec(job.getSpec().getTemplate().getSpec());
    if (index >= 0) {
      pod.editSpec().withHostname(name + "-" + index).endSpec();
    }
    Pod built = pod.build();
    if (index >= 0) {
      Stream.concat(built.getSpec().getInitContainers().stream(), built.getSpec().getContainers().stream())
          .forEach(JobController::addCompletionIndexEnv);
    }
    return built;
  }

  /** As the Job controller does for an Indexed Job: {@code JOB_COMPLETION_INDEX}, unless the container sets it. */
  private static void addCompletionIndexEnv(Container container) {
    if (container.getEnv() != null && container.getEnv().stream().anyMatch(e -> COMPLETION_INDEX_ENV.equals(
        e.getName()))) {
      return;
    }
    List<EnvVar> env = new ArrayList<>(Optional.ofNullable(container.getEnv()).orElse(List.of()));
    env.add(new EnvVarBuilder().withName(COMPLETION_INDEX_ENV).withNewValueFrom()
        .withNewFieldRef().withFieldPath("metadata.annotations['" + Names.COMPLETION_INDEX + "']").endFieldRef()
        .endValueFrom().build());
    container.setEnv(env);
  }

  @Override
  public void close() {
    creates.shutdownNow();
  }

  private void writeStatus(Job job, JobStatus status) {
    statuses.write(job, j -> j.setStatus(status));
  }

  private void delete(Pod pod) {
    expected.values().forEach(e -> e.remove(pod.getMetadata().getName()));
    try {
      client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** ": pod P container C exited with code N; last lines: ..." for the first failure found. */
  private static String failureDetail(List<Pod> failed, List<Pod> active) {
    return Stream.concat(failed.stream(), active.stream())
        .flatMap(p -> Stream.concat(
                Optional.ofNullable(p.getStatus().getInitContainerStatuses()).orElse(List.of()).stream(),
                Optional.ofNullable(p.getStatus().getContainerStatuses()).orElse(List.of()).stream())
            .flatMap(c -> failure(c.getState()).or(() -> failure(c.getLastState())).stream()
                .map(t -> ": pod " + p.getMetadata().getName() + " container " + c.getName() + " exited with code "
                    + t.getExitCode() + Optional.ofNullable(t.getMessage()).filter(m -> !m.isBlank())
                        .map(m -> "; last lines:\n" + m).orElse(""))))
        .findFirst().orElse("");
  }

  /** A container's failed run: its current state, or its last one while it waits to be restarted. */
  private static Optional<ContainerStateTerminated> failure(ContainerState state) {
    return Optional.ofNullable(state).map(ContainerState::getTerminated)
        .filter(t -> !Integer.valueOf(0).equals(t.getExitCode()));
  }

  static boolean isActive(Pod pod) {
    String phase = phase(pod);
    return !"Succeeded".equals(phase) && !"Failed".equals(phase) && pod.getMetadata().getDeletionTimestamp() == null;
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
        .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static int restarts(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? 0
        : pod.getStatus().getContainerStatuses().stream().mapToInt(c -> Optional.ofNullable(c.getRestartCount())
            .orElse(0)).sum();
  }

  static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static int index(Pod pod) {
    String index = label(pod, Names.COMPLETION_INDEX);
    return index == null ? -1 : Integer.parseInt(index);
  }

  private static String label(Pod pod, String name) {
    return pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(name);
  }

  /** "0-2,4" as completedIndexes. */
  static String ranges(TreeSet<Integer> indexes) {
    if (indexes.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    Integer start = null;
    Integer prev = null;
    for (int i : indexes) {
      if (start == null) {
        start = i;
      } else if (i != prev + 1) {
        parts.add(start.equals(prev) ? start.toString() : start + "-" + prev);
        start = i;
      }
      prev = i;
    }
    parts.add(start.equals(prev) ? start.toString() : start + "-" + prev);
    return String.join(",", parts);
  }

  private static String suffix() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      s.append(ALPHANUMS.charAt(ThreadLocalRandom.current().nextInt(ALPHANUMS.length())));
    }
    return s.toString();
  }
}
