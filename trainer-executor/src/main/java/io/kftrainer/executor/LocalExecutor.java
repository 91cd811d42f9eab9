package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.JobSetConstants;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The JobSet controller, the Job controller and the kubelet of this machine, on one API server reached only through
 * {@code client}: JobSets become Jobs, Pods, a headless Service and local process groups, with real status, Events
 * and logs. {@link #start} begins watching; {@link #close} stops watching and ends every process.
 */
public final class LocalExecutor implements AutoCloseable {

  /**
   * How the executor runs: where pods' directories go, how many pods run at once (the node's {@code pods}
   * capacity), where progress lines go, how a container's processes are kept together ({@link Isolation}), and the
   * GPUs the node offers ({@link Gpu#fromOption}).
   */
  public record Options(Path runDir, int maxPods, Consumer<String> progress, Isolation isolation, List<Gpu> gpus) {
    public Options {
      if (maxPods < 1) {
        throw new IllegalArgumentException("maxPods must be at least 1, got " + maxPods);
      }
      java.util.Objects.requireNonNull(isolation, "isolation");
      gpus = List.copyOf(gpus);
    }

    public Options(Path runDir, int maxPods, Consumer<String> progress, Isolation isolation) {
      this(runDir, maxPods, progress, isolation, List.of());
    }

    public Options(Path runDir, int maxPods, Consumer<String> progress) {
      this(runDir, maxPods, progress, Isolation.AUTO);
    }

    public Options withGpus(List<Gpu> gpus) {
      return new Options(runDir, maxPods, progress, isolation, gpus);
    }
  }

  /** What makes a container all its descendants: see docs/local.md, "Processes". */
  public enum Isolation {
    /** A PID namespace per container if bubblewrap works here, else process groups. */
    AUTO,
    /** A PID namespace per container (bubblewrap); start fails if it does not work here. */
    PID_NAMESPACE,
    /** A process group per container: the fallback, which SIGKILL of local and setsid daemons escape. */
    PROCESS_GROUP
  }

  /** What {@code kubectl logs} asks for: {@code PodLogOptions} less what the API server applies itself. */
  public record LogOptions(boolean follow, Integer tailLines, Instant sinceTime, boolean timestamps,
      boolean previous) {
  }

  private final KubernetesClient client;
  private final Options options;
  private final WorkQueue queue = new WorkQueue();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private EventRecorder events;
  private JobController jobController;
  private Kubelet kubelet;
  private NodeCapacity node;
  private NodeLease nodeLease;

  public LocalExecutor(KubernetesClient client, Options options) {
    this.client = client;
    this.options = options;
  }

  public Path runDir() {
    return options.runDir();
  }

  /** Starts the informers and controllers; returns once their caches are synced. */
  public LocalExecutor start() {
    try {
      // the run directory holds the pods' Secrets and logs: private to the user who runs local
      PodPaths.createPrivateDirectories(options.runDir());
      PodPaths.makePrivate(options.runDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // before the kubelet sees any pod: what an earlier run of local left started died with it
    NodeRestart.failPodsOfEarlierRun(client, options.progress());
    events = new EventRecorder(client);
    SharedIndexInformer<JobSet> jobSets = client.resources(JobSet.class).inAnyNamespace().runnableInformer(0);
    SharedIndexInformer<Job> jobs = client.batch().v1().jobs().inAnyNamespace().runnableInformer(0);
    SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().runnableInformer(0);
    SharedIndexInformer<PersistentVolumeClaim> claims = client.persistentVolumeClaims().inAnyNamespace()
        .runnableInformer(0);
    JobSetController jobSetController = new JobSetController(client, jobSets.getStore(), jobs.getStore(), events,
        options.progress());
    jobController = new JobController(client, jobs.getStore(), pods.getStore(), events);
    node = NodeCapacity.detect(options.runDir(), options.maxPods(), options.gpus());
    nodeLease = NodeLease.start(client, NodeRegistration.register(client, node));
    kubelet = new Kubelet(client, pods.getStore(), jobSets.getStore(), queue, options.runDir(),
        new NodeAllocation(node), options.progress(), events, new HostTable(), new PortTable(),
        writeRshAgent(options.runDir()), ImageCommands.install(options.runDir()), containment(options.isolation()));
    queue.register(JobSetController.CONTROLLER, jobSetController::reconcile);
    queue.register(JobController.CONTROLLER, jobController::reconcile);
    queue.register(Kubelet.CONTROLLER, kubelet::reconcile);
    VolumeProvisioner provisioner = new VolumeProvisioner(client, claims.getStore(), options.runDir(), events,
        options.progress());
    queue.register(VolumeProvisioner.CONTROLLER, provisioner::reconcile);

    // every cache synced before the first reconcile: on a restart on a data directory, a JobSet reconciled before
    // its Jobs are in the cache would be written a status without them (and the TrainJob after it)
    informers.addAll(List.of(jobSets, jobs, pods, claims));
    informers.forEach(i -> i.run());
    jobSets.addEventHandler(handler(js -> List.of(key(JobSetController.CONTROLLER, js, js.getMetadata().getName()))));
    jobs.addEventHandler(handler(job -> {
      List<WorkQueue.Key> keys = new ArrayList<>(List.of(key(JobController.CONTROLLER, job,
          job.getMetadata().getName())));
      label(job, JobSetConstants.LABEL_JOBSET_NAME).ifPresent(n -> keys.add(key(JobSetController.CONTROLLER, job, n)));
      return keys;
    }));
    pods.addEventHandler(handler(pod -> {
      List<WorkQueue.Key> keys = new ArrayList<>(List.of(key(Kubelet.CONTROLLER, pod, pod.getMetadata().getName())));
      label(pod, Names.JOB_NAME).ifPresent(n -> keys.add(key(JobController.CONTROLLER, pod, n)));
      return keys;
    }));
    claims.addEventHandler(handler(claim -> List.of(key(VolumeProvisioner.CONTROLLER, claim,
        claim.getMetadata().getName()))));
    return this;
  }

  /** The resources of this machine's Node, as registered; null before {@link #start}. */
  public NodeCapacity node() {
    return node;
  }

  /** How containers are kept together here, in words (for the banner); null before {@link #start}. */
  public String containment() {
    return kubelet == null ? null : kubelet.containment();
  }

  /**
   * The captured output of a container, for {@code kubectl logs}: the shape of
   * {@code io.kftrainer.apiserver.PodLogSource#open}. Empty when this executor has no such pod or container.
   * With {@code follow}, the stream ends when the container's process ends.
   *
   * @throws IllegalArgumentException with the kubelet's message when {@code previous} is asked of a container that
   *                                  has not restarted
   */
  public Optional<InputStream> openLog(String namespace, String pod, String container, LogOptions options) {
    Optional<PodRun> run = kubelet == null ? Optional.empty() : kubelet.run(namespace, pod);
    if (kubelet == null || run.isPresent() && !run.get().states().containsKey(container)) {
      return Optional.empty();
    }
    ContainerLog log = kubelet.log(namespace, pod, container, options.previous());
    if (log == null || run.isEmpty() && !Files.exists(kubelet.log(namespace, pod, container, false).file)) {
      return Optional.empty();
    }
    if (options.previous() && !Files.exists(log.file)) {
      throw new IllegalArgumentException("previous terminated container \"" + container + "\" in pod \"" + pod
          + "\" not found");
    }
    try {
      if (!Files.exists(log.file)) {
        Files.createDirectories(log.file.getParent());
        Files.createFile(log.file);
      }
      return Optional.of(new LogStream(log, options.tailLines(), options.sinceTime(), options.timestamps(),
          options.follow() && !options.previous() ? () -> run.map(r -> r.isRunning(container)).orElse(false)
              : () -> false));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #openLog(String, String, String, LogOptions)} with only follow and tailLines. */
  public Optional<InputStream> openLog(String namespace, String pod, String container, boolean follow,
      Integer tailLines) {
    return openLog(namespace, pod, container, new LogOptions(follow, tailLines, null, false, false));
  }

  @Override
  public void close() {
    if (nodeLease != null) {
      nodeLease.close();
    }
    informers.forEach(SharedIndexInformer::close);
    queue.close();
    if (jobController != null) {
      jobController.close();
    }
    if (kubelet != null) {
      kubelet.stopAll();
    }
    if (events != null) {
      events.close();
    }
  }

  private static Containment containment(Isolation isolation) {
    return switch (isolation) {
      case AUTO -> Containment.detect();
      case PROCESS_GROUP -> new Containment.ProcessGroup();
      case PID_NAMESPACE -> {
        Containment detected = Containment.detect();
        if (!(detected instanceof Containment.PidNamespace)) {
          throw new IllegalStateException("bubblewrap cannot create a PID namespace here: see the warning above");
        }
        yield detected;
      }
    };
  }

  private <T extends HasMetadata> ResourceEventHandler<T> handler(Function<T, List<WorkQueue.Key>> keys) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        keys.apply(obj).forEach(queue::add);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        keys.apply(newObj).forEach(queue::add);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        keys.apply(obj).forEach(queue::add);
      }
    };
  }

  private static WorkQueue.Key key(String controller, HasMetadata object, String name) {
    return new WorkQueue.Key(controller, object.getMetadata().getNamespace(), name);
  }

  private static Optional<String> label(HasMetadata object, String name) {
    return Optional.ofNullable(object.getMetadata().getLabels()).map(l -> l.get(name));
  }

  /**
   * The remote-shell agent that {@code mpirun} (and Hydra) call instead of ssh: every pod runs on this machine, so
   * it drops ssh's options and the host name and runs the command here.
   */
  private static Path writeRshAgent(Path runDir) {
    Path agent = runDir.resolve("bin").resolve("rsh-agent");
    String script = """
        #!/bin/sh
        # rsh agent of the local executor: [ssh options] HOST COMMAND... runs COMMAND on this machine
        while [ $# -gt 0 ]; do
          case "$1" in
            -o|-p|-l|-i|-F) shift 2 ;;
            -*) shift ;;
            *) break ;;
          esac
        done
        shift
        exec /bin/sh -c "$*"
        """;
    try {
      Files.createDirectories(agent.getParent());
      Files.writeString(agent, script, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwxr-xr-x"));
      return agent;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
