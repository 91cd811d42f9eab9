package io.kftrainer.benchmarks.local;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code local}'s overhead on a short training: the same 2-node x 2-process PyTorch DDP script
 * ({@code benchmarks/local/ddp.py}) run as bare processes of this machine (two {@code python3}, one per node, with
 * torchrun's {@code PET_*} variables) and as a TrainJob of the {@code torch-distributed} runtime through
 * {@code local}, alternately. A bare run lasts from its launch to both processes' exit; a TrainJob from its create
 * request to the {@code Complete} condition seen by this process's watch. The overhead is the difference of the
 * medians.
 *
 * <p>On a loaded machine the training itself varies by seconds between runs (and so does Python's exit after it),
 * so the overhead is also measured directly, from the times the executor records for each container's process
 * ({@code startedAt} and {@code finishedAt} of the pods' container statuses, to the nanosecond): create to the
 * first process started, the skew between the nodes' processes' starts (the training waits for the last node),
 * and the last process's exit to {@code Complete}. A bare run has none of the three: both processes start at once
 * and their exit is seen at once.
 *
 * <p>Bare processes run contained as {@code local} contains its pods' (bubblewrap's PID namespace, when the banner
 * says so): the same training ran 4 to 5 s faster inside bwrap than outside on this machine, which, uncontained,
 * made {@code local}'s overhead come out negative.
 */
final class TrainingFigures {

  static final String NAMESPACE = "training";
  private static final String PYTHON = "/usr/bin/python3";
  /** The executor's bubblewrap command line ({@code Containment.PidNamespace}), for bare runs contained alike. */
  private static final List<String> BWRAP = List.of("/usr/bin/bwrap", "--dev-bind", "/", "/", "--proc", "/proc",
      "--unshare-pid", "--die-with-parent", "--new-session", "--");

  /** One run, in epoch microseconds: launched or created, first and last process started, last exited, done. */
  record Run(long launched, long firstStart, long lastStart, long lastExit, long done) {
    long total() {
      return done - launched;
    }
  }

  /** The runs of each kind. */
  record Result(List<Run> bare, List<Run> trainJobs, boolean contained) {

    double bareMillis() {
      return median(bare, Run::total);
    }

    double trainJobMillis() {
      return median(trainJobs, Run::total);
    }

    double overhead() {
      return trainJobMillis() - bareMillis();
    }

    /** Create to the first process started, median. */
    double toFirstProcess() {
      return median(trainJobs, r -> r.firstStart() - r.launched());
    }

    /** First process started to the last one started, median. */
    double nodeSkew() {
      return median(trainJobs, r -> r.lastStart() - r.firstStart());
    }

    /** Last process exited to {@code Complete}, median. */
    double exitToComplete() {
      return median(trainJobs, r -> r.done() - r.lastExit());
    }

    private static double median(List<Run> runs, java.util.function.ToLongFunction<Run> micros) {
      Samples samples = new Samples();
      runs.forEach(r -> samples.add(micros.applyAsLong(r) * 1000));
      return samples.p50();
    }
  }

  private final LocalProcess local;
  private final Path workDir;
  private final String script;
  private final Map<String, Long> complete = new ConcurrentHashMap<>();
  /** When this process's watches first saw each step of a TrainJob's way ({@code name/step}), for -Dfigures.verbose. */
  private final Map<String, Long> seen = new ConcurrentHashMap<>();
  private final Map<String, List<String>> pods = new ConcurrentHashMap<>();
  private final boolean contained;

  TrainingFigures(LocalProcess local, Path workDir) {
    this.local = local;
    this.workDir = workDir;
    this.contained = local.output().contains("(bubblewrap)");
    try (InputStream in = TrainingFigures.class.getResourceAsStream("/benchmarks/local/ddp.py")) {
      this.script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether this machine has the Python and torch the script needs. */
  static boolean available() {
    try {
      Process check = new ProcessBuilder(PYTHON, "-c", "import torch").redirectErrorStream(true).start();
      return check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** One warm-up of each, then {@code runs} alternated pairs. */
  Result run(int runs) throws Exception {
    Config config = Config.fromKubeconfig(Files.readString(workDir.resolve("kubeconfig")));
    config.setHttp2Disable(true);
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
          .build()).create();
      SharedIndexInformer<TrainJob> trainJobs = client.resources(TrainJob.class).inNamespace(NAMESPACE)
          .inform(handler(this::seen));
      SharedIndexInformer<Pod> podInformer = client.pods().inNamespace(NAMESPACE).inform(handler(this::seen));
      SharedIndexInformer<io.kftrainer.api.jobset.v1alpha2.JobSet> jobSets = client
          .resources(io.kftrainer.api.jobset.v1alpha2.JobSet.class).inNamespace(NAMESPACE).inform(handler(jobSet -> {
            String name = jobSet.getMetadata().getName();
            seen.putIfAbsent(name + "/jobset created", now());
            if (jobSet.getStatus() != null && jobSet.getStatus().getConditions() != null && jobSet.getStatus()
                .getConditions().stream().anyMatch(c -> "Completed".equals(c.getType()) && "True".equals(c.getStatus()))) {
              seen.putIfAbsent(name + "/jobset completed", now());
            }
          }));
      SharedIndexInformer<io.fabric8.kubernetes.api.model.batch.v1.Job> jobs = client.batch().v1().jobs()
          .inNamespace(NAMESPACE).inform(handler(job -> {
            String name = job.getMetadata().getLabels().get("jobset.sigs.k8s.io/jobset-name");
            seen.putIfAbsent(name + "/job created", now());
            if (job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions()
                .stream().anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()))) {
              seen.putIfAbsent(name + "/job complete", now());
            }
          }));
      try {
        bare();
        trainJob(client, "warm-up");
        List<Run> bare = new ArrayList<>();
        List<Run> trainJob = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
          bare.add(bare());
          trainJob.add(trainJob(client, "ddp-" + i));
        }
        return new Result(bare, trainJob, contained);
      } finally {
        trainJobs.close();
        podInformer.close();
        jobSets.close();
        jobs.close();
      }
    }
  }

  /** A bare run: both nodes' processes started at once, until both exit. */
  private Run bare() throws Exception {
    int port = freePort();
    long launched = now();
    List<Process> nodes = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    for (int node = 0; node < 2; node++) {
      Path log = workDir.resolve("bare-" + node + ".log");
      logs.add(log);
      List<String> command = new ArrayList<>(contained ? BWRAP : List.of());
      command.addAll(List.of(PYTHON, "-c", script));
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      // the environment of local's pods (not this JVM's: PYTHONDONTWRITEBYTECODE alone makes torch's import slower)
      builder.environment().clear();
      builder.environment().putAll(Map.of("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
          "PET_NNODES", "2", "PET_NPROC_PER_NODE", "2",
          "PET_NODE_RANK", Integer.toString(node), "PET_MASTER_ADDR", "127.0.0.1",
          "PET_MASTER_PORT", Integer.toString(port)));
      nodes.add(builder.start());
    }
    for (Process node : nodes) {
      if (!node.waitFor(5, TimeUnit.MINUTES) || node.exitValue() != 0) {
        throw new IllegalStateException("the bare training failed, see " + logs);
      }
    }
    long done = now();
    return new Run(launched, launched, launched, done, done);
  }

  /** A run through local: the TrainJob {@code name} created, until {@code Complete}. */
  private Run trainJob(KubernetesClient client, String name) throws InterruptedException {
    TrainJob trainJob = client.getKubernetesSerialization().unmarshal(String.join("\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1",
        "kind: TrainJob",
        "metadata: {name: " + name + ", namespace: " + NAMESPACE + "}",
        "spec:",
        "  runtimeRef: {name: torch-distributed}",
        "  trainer:",
        "    numNodes: 2",
        "    numProcPerNode: 2",
        "    command: [python3, -c, " + client.getKubernetesSerialization().asJson(script) + "]"), TrainJob.class);
    long created = now();
    long cpuBefore = local.cpuMillis();
    client.resource(trainJob).create();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!complete.containsKey(name)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("TrainJob " + name + " not Complete after 5 minutes; local's output:\n"
            + local.output());
      }
      TimeUnit.MILLISECONDS.sleep(1);
    }
    List<ContainerStateTerminated> processes = pods.getOrDefault(name, List.of()).stream()
        .map(pod -> client.pods().inNamespace(NAMESPACE).withName(pod).get())
        .flatMap(pod -> pod.getStatus().getContainerStatuses().stream())
        .map(status -> status.getState().getTerminated()).toList();
    if (processes.size() != 2 || processes.contains(null)) {
      throw new IllegalStateException("expected 2 ended containers of TrainJob " + name + ", got " + processes);
    }
    if (Boolean.getBoolean("figures.verbose")) {
      long first = processes.stream().mapToLong(p -> micros(p.getStartedAt())).min().orElseThrow();
      long exit = processes.stream().mapToLong(p -> micros(p.getFinishedAt())).max().orElseThrow();
      System.out.printf(java.util.Locale.ROOT, "    %s: created -> JobSet %d -> Job %d -> pod %d -> process %d ms; "
          + "last exit -> pod Succeeded %d -> Job Complete %d -> JobSet Completed %d -> TrainJob Complete %d ms; "
          + "local's CPU %d ms%n", name, (seen.get(name + "/jobset created") - created) / 1000,
          (seen.get(name + "/job created") - seen.get(name + "/jobset created")) / 1000,
          (seen.get(name + "/pod created") - seen.get(name + "/job created")) / 1000,
          (first - seen.get(name + "/pod created")) / 1000, (seen.get(name + "/pod succeeded") - exit) / 1000,
          (seen.get(name + "/job complete") - seen.get(name + "/pod succeeded")) / 1000,
          (seen.get(name + "/jobset completed") - seen.get(name + "/job complete")) / 1000,
          (complete.get(name) - seen.get(name + "/jobset completed")) / 1000, local.cpuMillis() - cpuBefore);
    }
    return new Run(created, processes.stream().mapToLong(p -> micros(p.getStartedAt())).min().orElseThrow(),
        processes.stream().mapToLong(p -> micros(p.getStartedAt())).max().orElseThrow(),
        processes.stream().mapToLong(p -> micros(p.getFinishedAt())).max().orElseThrow(), complete.get(name));
  }

  private static long micros(String timestamp) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(timestamp));
  }

  private static long now() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  private void seen(TrainJob trainJob) {
    boolean done = trainJob.getStatus() != null && trainJob.getStatus().getConditions() != null
        && trainJob.getStatus().getConditions().stream()
            .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()));
    if (done) {
      complete.putIfAbsent(trainJob.getMetadata().getName(), now());
    }
  }

  private void seen(Pod pod) {
    String trainJob = pod.getMetadata().getLabels() == null ? null
        : pod.getMetadata().getLabels().get("jobset.sigs.k8s.io/jobset-name");
    if (trainJob != null) {
      seen.putIfAbsent(trainJob + "/pod created", now());
      if (pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase())) {
        seen.put(trainJob + "/pod succeeded", now());
      }
      pods.compute(trainJob, (name, names) -> {
        List<String> all = names == null ? new ArrayList<>() : new ArrayList<>(names);
        if (!all.contains(pod.getMetadata().getName())) {
          all.add(pod.getMetadata().getName());
        }
        return all;
      });
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static <T> ResourceEventHandler<T> handler(Consumer<T> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        seen.accept(object);
      }

      @Override
      public void onUpdate(T oldObject, T object) {
        seen.accept(object);
      }

      @Override
      public void onDelete(T object, boolean deletedFinalStateUnknown) {
      }
    };
  }
}
