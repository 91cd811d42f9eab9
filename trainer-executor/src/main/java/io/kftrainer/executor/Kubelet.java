package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIPBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The kube-scheduler and kubelet of this machine's one node: admits a pod when its requests fit what is left of the
 * node ({@link NodeAllocation}; otherwise it stays Pending, {@code PodScheduled=False}, reason
 * {@code Unschedulable}, until a pod ends), binds it ({@code spec.nodeName}), runs it as local processes
 * ({@link PodRun}) with its own GPUs, and writes pod status (phase, conditions, podIP, container statuses with exit
 * codes) and Events. Images are not pulled: commands run with this machine's tools, and an Event says so.
 */
final class Kubelet {

  /** The pod's {@code status.reason} when it failed before any container ran; its message says why. */
  static final String FAILED_BEFORE_START = "ContainerConfigError";

  /**
   * Whether this kubelet failed {@code pod} before anything ran, for a cause no retry removes: a container it cannot
   * start ({@link #FAILED_BEFORE_START}) or requests beyond the node's resources ({@code OutOf<resource>}).
   */
  static boolean cannotRunHere(Pod pod) {
    String reason = pod.getStatus() == null ? null : pod.getStatus().getReason();
    return reason != null && (reason.equals(FAILED_BEFORE_START) || reason.startsWith("OutOf"));
  }

  static final String NODE_NAME = "local";
  static final String CONTROLLER = "pod";
  /** The component that schedules pods, as Events name it. */
  private static final String SCHEDULER = "default-scheduler";

  /** What runs instead of an SSH daemon: waits until SIGTERM, then ends as a stopped daemon does (0). */
  private static final List<String> SSHD_STAND_IN = List.of("/bin/sh", "-c",
      "trap 'kill $! 2>/dev/null; exit 0' TERM INT; sleep infinity & wait $!");

  private static final boolean RUNNING_AS_ROOT = runningAsRoot();

  private final KubernetesClient client;
  private final Store<Pod> pods;
  private final WorkQueue queue;
  private final Path runDir;
  private final NodeAllocation allocation;
  /** JobSets, to know the pods whose JobSet has ended: their lines would follow the TrainJob's end. */
  private final Store<JobSet> jobSets;
  private final Consumer<String> progress;
  private final EventRecorder events;
  private final HostTable hosts;
  private final PortTable ports;
  private final ContainerEnv containerEnv;
  private final ProjectedVolumes projected;
  private final Path rshAgent;
  /** The pods' PATH: {@link ImageCommands} first, then the images' standard PATH. */
  private final String path;
  private final Containment containment;
  private final LogClock logClock = new LogClock(java.time.Clock.systemUTC());
  private final StatusUpdates statuses;
  private final Map<String, PodRun> runs = new ConcurrentHashMap<>();
  /** Pods being killed, by lineage: a replacement waits until its predecessor's processes are gone. */
  private final Map<String, CompletableFuture<Void>> terminating = new ConcurrentHashMap<>();
  private final Map<String, String> lastPhase = new LinkedHashMap<>();
  /** Pods refused by the node, with the reason last given, by namespace/name. */
  private final Map<String, String> unschedulable = new ConcurrentHashMap<>();

  Kubelet(KubernetesClient client, Store<Pod> pods, Store<JobSet> jobSets,
      WorkQueue queue, Path runDir, NodeAllocation allocation, Consumer<String> progress, EventRecorder events,
      HostTable hosts, PortTable ports, Path rshAgent, String path, Containment containment) {
    this.client = client;
    this.containment = containment;
    this.pods = pods;
    this.queue = queue;
    this.runDir = runDir;
    this.allocation = allocation;
    this.jobSets = jobSets;
    this.progress = progress;
    this.events = events;
    this.hosts = hosts;
    this.ports = ports;
    this.containerEnv = new ContainerEnv(client);
    this.projected = new ProjectedVolumes(client, java.time.Clock.systemUTC());
    this.rshAgent = rshAgent;
    this.path = path;
    this.statuses = StatusUpdates.ofObservedState(client);
  }

  void reconcile(WorkQueue.Key key) {
    String id = key.namespace() + "/" + key.name();
    Pod pod = pods.getByKey(id);
    PodRun run = runs.get(id);
    if (pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
      if (run != null) {
        stop(id, run);
      }
      if (pod == null) {
        lastPhase.remove(id);
        unschedulable.remove(id);
      }
      return;
    }
    if (run != null && !Objects.equals(run.podUid, pod.getMetadata().getUid())) {
      stop(id, run); // deleted and recreated under the same name
      run = null;
    }
    if (run != null) {
      if (!run.bound) { // the binding failed after the run started: bound before any status is written
        bind(pod, run);
      }
      if (!run.starting()) { // the run asks for a reconcile once a process starts or the pod fails
        writeStatus(pod, run);
      }
      return;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return;
    }
    CompletableFuture<Void> predecessor = terminating.get(lineage(pod));
    if (predecessor != null && !predecessor.isDone()) {
      // as on a node, where a Job's replacement pod cannot run beside the old one's processes
      predecessor.whenComplete((v, e) -> queue.add(key));
      return;
    }
    NodeAllocation.Decision decision = allocation.admit(pod.getMetadata().getUid(), pod.getSpec());
    if (decision.rejection() != null) {
      // the kubelet's admission rejects a pod bound to a node that cannot hold it; this node is the only one
      NodeAllocation.Rejection rejection = decision.rejection();
      PodStatus status = new PodStatusBuilder().withPhase("Failed").withReason(rejection.reason())
          .withMessage(rejection.message()).build();
      updateStatus(pod, status);
      events.record(pod, "kubelet", "Warning", rejection.reason(), rejection.message());
      lastPhase.put(id, "Failed");
      progress.accept("pod " + id + ": Failed (" + rejection.message() + ")");
      return;
    }
    if (!decision.admitted()) {
      if (!decision.refusal().equals(unschedulable.put(id, decision.refusal()))) {
        PodStatus status = new PodStatusBuilder().withPhase("Pending").withConditions(condition("PodScheduled",
            "False", "Unschedulable", decision.refusal())).build();
        updateStatus(pod, status);
        events.record(pod, SCHEDULER, "Warning", "FailedScheduling", decision.refusal());
        lastPhase.put(id, "Pending");
        progress.accept("pod " + id + ": Pending (" + decision.refusal() + ")");
      }
      return;
    }
    unschedulable.remove(id);
    start(id, pod, decision.gpus());
  }

  /**
   * Fails {@code pod} before anything runs ({@link #FAILED_BEFORE_START}): bound, a Warning Event {@code Failed}
   * ({@code event}), every container terminated with {@code reason} and {@code message}.
   */
  private void refuse(Pod pod, PodRun run, String reason, String message, String event) {
    bind(pod, run);
    events.pod(pod, "Warning", "Failed", event);
    run.failBeforeStart(reason, message);
    writeStatus(pod, run);
  }

  /**
   * What kube-scheduler's binding does: the pod names its node. Done on this thread, which writes the pod's status
   * too, so the API shows a pod bound before it shows it running.
   */
  private void bind(Pod pod, PodRun run) {
    if (!NODE_NAME.equals(pod.getSpec().getNodeName())) {
      try {
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"nodeName\":\"" + NODE_NAME + "\"}}");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e; // the work queue retries; the run's next reconcile binds first
        }
      }
    }
    run.bound = true;
  }

  private void start(String id, Pod pod, Map<String, List<Gpu>> gpus) {
    // names the API server validated; checked again as the kubelet does, so that no object can name a path outside
    Path podDir = PodPaths.within(PodPaths.within(runDir, pod.getMetadata().getNamespace(), "namespace")
        .resolve("pods"), pod.getMetadata().getName(), "pod name");
    List<String> initNames = Optional.ofNullable(pod.getSpec().getInitContainers()).orElse(List.of()).stream()
        .map(Container::getName).toList();
    List<String> names = pod.getSpec().getContainers().stream().map(Container::getName).toList();
    boolean onFailure = "OnFailure".equals(pod.getSpec().getRestartPolicy());
    PodRun run = new PodRun(containment, logClock, id, podDir.resolve("logs"), initNames, names, onFailure,
        () -> queue.add(new WorkQueue.Key(CONTROLLER, pod.getMetadata().getNamespace(), pod.getMetadata().getName())),
        event -> {
          String[] parts = event.split(" ", 3);
          events.pod(pod, parts[0], parts[1], parts[2]);
          if (parts[1].equals("BackOff")) {
            // where users look: the pod stays Running, so no phase line says that its container failed
            Optional.ofNullable(runs.get(id)).flatMap(r -> r.states().values().stream()
                    .filter(st -> st.backOff != null).findFirst())
                .ifPresent(st -> progress.accept("pod " + id + ": container " + st.name + " exited with code "
                    + st.exitCode + ", restart " + (st.restartCount + 1) + " after a back-off of "
                    + PodRun.backOffMillis(st) / 1000 + "s"));
          }
        });
    run.podUid = pod.getMetadata().getUid();
    run.podIp = podIp(pod);
    run.group = group(pod);
    run.lineage = lineage(pod);
    run.startTime = Instant.now();
    run.gpus = gpus;
    runs.put(id, run);
    events.record(pod, SCHEDULER, "Normal", "Scheduled", "Successfully assigned " + id + " to " + NODE_NAME);
    Optional<String> invalidImage = allContainers(pod).stream().map(c -> ImageReference.error(c.getImage()))
        .flatMap(Optional::stream).findFirst();
    if (invalidImage.isPresent()) {
      events.pod(pod, "Warning", "InspectFailed", invalidImage.get());
      refuse(pod, run, "InvalidImageName", invalidImage.get(), "Error: InvalidImageName");
      return;
    }
    Optional<String> unavailable = UnavailableRuntimes.of(pod);
    if (unavailable.isPresent()) {
      refuse(pod, run, UnavailableRuntimes.REASON, unavailable.get(),
          "Error: " + UnavailableRuntimes.REASON + ": " + unavailable.get());
      return;
    }
    // its image's entrypoint would run on a node (a sidecar would run beside the containers); no retry helps
    Optional<String> cannotStart = allContainers(pod).stream()
        .filter(c -> c.getCommand() == null || c.getCommand().isEmpty()).findFirst().map(PodRun::noEntrypoint)
        .or(() -> Optional.ofNullable(pod.getSpec().getInitContainers()).orElse(List.of()).stream()
            .filter(c -> "Always".equals(c.getRestartPolicy())).findFirst()
            .map(c -> "the local executor does not run sidecar containers: init container \"" + c.getName()
                + "\" has restartPolicy Always, and its pod would wait for it to end"));
    if (cannotStart.isPresent()) {
      refuse(pod, run, "StartError", cannotStart.get(), "Error: " + cannotStart.get());
      return;
    }
    for (Container c : allContainers(pod)) {
      events.pod(pod, "Normal", "Pulled", "Container image \"" + c.getImage() + "\" not pulled: the local executor "
          + "runs container \"" + c.getName() + "\" with this machine's tools");
    }
    Map<Integer, Integer> portMap = ports.ports(group(pod), declaredPorts(pod));
    // the volumes (API reads, a token request) are made on the pod's thread, before its first container: this
    // thread goes on to the other pods waiting in the queue (the nodes of a JobSet, whose training waits for the
    // last one); the status is written by the reconcile the run asks for once a process starts or the pod fails
    PodVolumes[] volumes = new PodVolumes[1];
    run.start(name -> {
      if (volumes[0] == null) {
        volumes[0] = volumes(pod, podDir, run);
      }
      return launch(pod, podDir, volumes[0], portMap, run, name);
    });
    // after the run's start, so that the binding's round trip overlaps the volumes and the launch (the first
    // process of a JobSet's node started 10 to 30 ms sooner)
    bind(pod, run);
  }

  /**
   * The pod's volumes, made; a volume that cannot be made (its source missing or unreadable, a path that would
   * leave the pod's directory) fails the pod's start with a {@code FailedMount} Event, as the kubelet reports it.
   */
  private PodVolumes volumes(Pod pod, Path podDir, PodRun run) {
    try {
      PodPaths.createPrivateDirectories(podDir);
      return PodVolumes.create(client, pod, runDir, podDir, projected, run.podIp);
    } catch (ContainerEnv.ConfigError e) {
      events.pod(pod, "Warning", "FailedMount", e.getMessage());
      throw e;
    } catch (IOException | KubernetesClientException e) {
      String message = "cannot make the pod's volumes: " + e.getMessage();
      events.pod(pod, "Warning", "FailedMount", message);
      throw new ContainerEnv.ConfigError(message);
    }
  }

  private PodRun.Launch launch(Pod pod, Path podDir, PodVolumes volumes, Map<Integer, Integer> portMap, PodRun run,
      String name) {
    Container container = allContainers(pod).stream().filter(c -> c.getName().equals(name)).findFirst()
        .orElseThrow();
    Map<String, String> mounts = volumes.mounts(container);
    Rewriter rewriter = new Rewriter(mounts, pod.getMetadata().getNamespace(), pod.getSpec().getSubdomain(), hosts,
        portMap);
    Map<String, String> base = new LinkedHashMap<>();
    base.put("PATH", path);
    base.put("HOME", podDir.resolve("home").toString());
    base.put("HOSTNAME", Optional.ofNullable(pod.getSpec().getHostname()).orElse(pod.getMetadata().getName()));
    // a temporary directory per container, as a container's own /tmp: with a PID namespace per container, pids
    // repeat across pods, and what names its files by pid under /tmp (OpenMPI's and PMIx's session directories,
    // /tmp/ompi.HOST.UID/pid.PID) would collide between two launchers
    Path tmp = podDir.resolve("tmp").resolve(name);
    base.put("TMPDIR", tmp.toString());
    base.put("OMPI_MCA_plm_rsh_agent", rshAgent.toString());
    base.put("I_MPI_HYDRA_BOOTSTRAP", "rsh");
    base.put("I_MPI_HYDRA_BOOTSTRAP_EXEC", rshAgent.toString());
    base.put("HYDRA_LAUNCHER", "rsh");
    base.put("HYDRA_LAUNCHER_EXEC", rshAgent.toString());
    // OpenMPI 4.1's shared-memory transport (vader) crashes between ranks it places on different hosts that are
    // the same machine; TCP over loopback works. A pod that sets OMPI_MCA_btl itself wins.
    base.put("OMPI_MCA_btl", "self,tcp");
    if (RUNNING_AS_ROOT && runsAsNonRoot(pod, container)) {
      // the container would not be root on a node, so its mpirun would not refuse to run: neither does it here
      base.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
      base.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    Map<String, String> env = containerEnv.resolve(pod, container, run.podIp, base);
    env.replaceAll((k, v) -> rewriter.rewrite(v));
    // the devices are the node's to give, as the NVIDIA device plugin's: a container sees its GPUs and no other
    List<Gpu> gpus = run.gpus.getOrDefault(name, List.of());
    env.put("NVIDIA_VISIBLE_DEVICES", gpus.isEmpty() ? "void"
        : gpus.stream().map(Gpu::uuid).collect(Collectors.joining(",")));
    env.put("CUDA_VISIBLE_DEVICES", gpus.stream().map(g -> String.valueOf(g.index()))
        .collect(Collectors.joining(",")));
    List<String> argv = new ArrayList<>();
    Optional.ofNullable(container.getCommand()).orElse(List.of()).forEach(a -> argv.add(VarExpansion.expand(a, env)));
    if (!argv.isEmpty()) {
      Optional.ofNullable(container.getArgs()).orElse(List.of()).forEach(a -> argv.add(VarExpansion.expand(a, env)));
    }
    if (!argv.isEmpty() && Path.of(argv.get(0)).getFileName().toString().equals("sshd")) {
      // an MPI host: mpirun reaches it through the rsh agent, which runs the command here, so no SSH daemon is
      // needed (nor, without the image, installed); the container holds its place until it is stopped
      events.pod(pod, "Normal", "SshdNotRun", "Container " + name + " holds its MPI host's place: the local "
          + "executor reaches it through its rsh agent, not " + argv.get(0));
      argv.clear();
      argv.addAll(SSHD_STAND_IN);
    }
    Path workingDir = container.getWorkingDir() == null ? podDir.resolve("workdir")
        : Path.of(rewriter.rewrite(container.getWorkingDir()));
    try {
      java.nio.file.Files.createDirectories(podDir.resolve("home"));
      java.nio.file.Files.createDirectories(tmp);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new PodRun.Launch(container, TorchrunSpelling.rewrite(rewriter.rewrite(argv)), env, workingDir);
  }

  /** Whether the pod's securityContext (the container's, else the pod's) names a user other than root. */
  private static boolean runsAsNonRoot(Pod pod, Container container) {
    Long user = container.getSecurityContext() != null && container.getSecurityContext().getRunAsUser() != null
        ? container.getSecurityContext().getRunAsUser()
        : pod.getSpec().getSecurityContext() == null ? null : pod.getSpec().getSecurityContext().getRunAsUser();
    return user != null && user != 0;
  }

  private static boolean runningAsRoot() {
    try {
      return Integer.valueOf(0).equals(java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private void stop(String id, PodRun run) {
    runs.remove(id);
    projected.forget(id);
    CompletableFuture<Void> killed = new CompletableFuture<>();
    terminating.merge(run.lineage, killed, CompletableFuture::allOf);
    Thread t = new Thread(() -> {
      try {
        run.kill(2000);
      } finally {
        allocation.release(run.podUid);
        killed.complete(null);
        terminating.computeIfPresent(run.lineage, (k, f) -> f.isDone() ? null : f);
        startWaiting();
      }
    }, "kill-" + id);
    t.setDaemon(true);
    t.start();
    if (!run.finished() && !jobSetEnded(id)) {
      progress.accept("pod " + id + ": deleted, processes stopped");
    }
  }

  /** Whether the pod's JobSet has ended: then its pods' ends are details of an outcome already reported. */
  private boolean jobSetEnded(String podId) {
    Pod pod = pods.getByKey(podId);
    String jobSet = pod == null || pod.getMetadata().getLabels() == null ? null
        : pod.getMetadata().getLabels().get("jobset.sigs.k8s.io/jobset-name");
    var owner = jobSet == null ? null : jobSets.getByKey(pod.getMetadata().getNamespace() + "/" + jobSet);
    return owner != null && owner.getStatus() != null && owner.getStatus().getTerminalState() != null;
  }

  /** A slot is free: start the pods that wait for one, oldest first. */
  private void startWaiting() {
    pods.list().stream().filter(p -> unschedulable.containsKey(p.getMetadata().getNamespace() + "/"
            + p.getMetadata().getName()))
        .sorted(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp()))
        .forEach(p -> queue.add(new WorkQueue.Key(CONTROLLER, p.getMetadata().getNamespace(),
            p.getMetadata().getName())));
  }

  /** Ends every pod's processes (local mode stops): all at once, SIGKILL after a second. */
  void stopAll() {
    projected.close();
    List<PodRun> all = new ArrayList<>(runs.values());
    runs.clear();
    all.forEach(PodRun::terminate);
    long deadline = System.currentTimeMillis() + 1000;
    all.forEach(r -> r.awaitExit(deadline));
    all.forEach(PodRun::killNow);
    terminating.values().forEach(f -> f.join());
    logClock.close();
  }

  private void writeStatus(Pod pod, PodRun run) {
    String phase = run.phase();
    List<ContainerStatus> init = new ArrayList<>();
    List<ContainerStatus> main = new ArrayList<>();
    for (Container c : allContainers(pod)) {
      PodRun.State state = run.states().get(c.getName());
      (state.init ? init : main).add(state.status(c.getImage()));
    }
    boolean initialized = run.states().values().stream().filter(s -> s.init).allMatch(s -> Integer.valueOf(0)
        .equals(s.exitCode));
    boolean ready = "Running".equals(phase) && main.stream().allMatch(ContainerStatus::getReady);
    List<PodCondition> conditions = List.of(
        condition("PodScheduled", "True", null, null),
        condition("Initialized", initialized ? "True" : "False", initialized ? null : "ContainersNotInitialized",
            null),
        condition("ContainersReady", ready ? "True" : "False", ready ? null : "ContainersNotReady", null),
        condition("Ready", ready ? "True" : "False", ready ? null : "ContainersNotReady", null));
    PodStatus status = new PodStatusBuilder().withPhase(phase).withConditions(conditions)
        .withHostIP("127.0.0.1").withPodIP(run.podIp).withPodIPs(new PodIPBuilder().withIp(run.podIp).build())
        .withStartTime(run.startTime.toString()).withInitContainerStatuses(init).withContainerStatuses(main)
        .withMessage(run.failure()).withReason(run.failure() == null ? null : FAILED_BEFORE_START)
        .build();
    if (!sameStatus(pod.getStatus(), status)) {
      updateStatus(pod, status);
    }
    String id = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    if (!phase.equals(lastPhase.put(id, phase)) && !jobSetEnded(id)) {
      progress.accept("pod " + id + ": " + phase + describe(run));
    }
    if (run.finished() && !run.finishSeen) {
      run.finishSeen = true;
      allocation.release(run.podUid);
      projected.forget(id);
      if (runs.values().stream().noneMatch(r -> r.group.equals(run.group) && !r.finished())) {
        ports.release(run.group);
      }
      startWaiting();
    }
  }

  private static String describe(PodRun run) {
    return run.states().values().stream().filter(s -> s.exitCode != null && s.exitCode != 0).findFirst()
        .map(s -> " (container " + s.name + " exited with code " + s.exitCode + ")").orElse("");
  }

  private static boolean sameStatus(PodStatus current, PodStatus desired) {
    if (current == null) {
      return false;
    }
    // transition times are set by the server-side copy; compare what the kubelet decides
    return Objects.equals(current.getPhase(), desired.getPhase())
        && Objects.equals(current.getContainerStatuses(), desired.getContainerStatuses())
        && Objects.equals(current.getInitContainerStatuses(), desired.getInitContainerStatuses())
        && Objects.equals(current.getConditions().stream().map(c -> c.getType() + c.getStatus()).toList(),
            desired.getConditions().stream().map(c -> c.getType() + c.getStatus()).toList())
        && Objects.equals(current.getPodIP(), desired.getPodIP());
  }

  private void updateStatus(Pod pod, PodStatus status) {
    statuses.write(pod, p -> p.setStatus(status));
  }

  private static PodCondition condition(String type, String status, String reason, String message) {
    return new PodConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastTransitionTime(Instant.now().toString()).build();
  }

  private String podIp(Pod pod) {
    String hostname = Optional.ofNullable(pod.getSpec().getHostname()).orElse(pod.getMetadata().getName());
    return hosts.addressOf(pod.getMetadata().getNamespace(), hostname, pod.getSpec().getSubdomain());
  }

  /** A pod and the pods that replace it: those of one Job (or the pod itself, a bare pod recreated by name). */
  private static String lineage(Pod pod) {
    Map<String, String> labels = Optional.ofNullable(pod.getMetadata().getLabels()).orElse(Map.of());
    String job = labels.getOrDefault(Names.JOB_NAME, labels.get(Names.LEGACY_JOB_NAME));
    return pod.getMetadata().getNamespace() + "/" + (job != null ? "job/" + job : "pod/" + pod.getMetadata().getName());
  }

  /** Pods that reach each other share ports: those of one JobSet, else the pod alone. */
  private static String group(Pod pod) {
    Map<String, String> labels = Optional.ofNullable(pod.getMetadata().getLabels()).orElse(Map.of());
    String jobSet = labels.get("jobset.sigs.k8s.io/jobset-name");
    return pod.getMetadata().getNamespace() + "/" + (jobSet != null ? "jobset/" + jobSet
        : "pod/" + pod.getMetadata().getName());
  }

  private static Set<Integer> declaredPorts(Pod pod) {
    return allContainers(pod).stream().flatMap(c -> Optional.ofNullable(c.getPorts()).orElse(List.of()).stream())
        .map(ContainerPort::getContainerPort).filter(Objects::nonNull).collect(Collectors.toSet());
  }

  private static List<Container> allContainers(Pod pod) {
    List<Container> all = new ArrayList<>(Optional.ofNullable(pod.getSpec().getInitContainers()).orElse(List.of()));
    all.addAll(pod.getSpec().getContainers());
    return all;
  }

  /** For {@code kubectl logs}: the run of a pod, if this kubelet started it. */
  Optional<PodRun> run(String namespace, String pod) {
    return Optional.ofNullable(runs.get(namespace + "/" + pod));
  }

  /** The log of a container; null when the names would lead outside the run directory. */
  ContainerLog log(String namespace, String pod, String container, boolean previous) {
    try {
      Path logs = PodPaths.within(runDir, namespace + "/pods/" + pod + "/logs", "log");
      PodPaths.within(logs, container + ".log", "log");
      return ContainerLog.of(logs, container, previous);
    } catch (ContainerEnv.ConfigError e) {
      return null;
    }
  }

  String containment() {
    return containment.describe();
  }
}
