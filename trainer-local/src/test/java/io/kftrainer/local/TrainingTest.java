package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.executor.LocalExecutor;
import io.kftrainer.operator.command.RunCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local} trains for real: TrainJobs on the shipped and test runtimes run as processes of this machine with
 * Debian's python3 packages, and end {@code Complete} or {@code Failed} from what really happened. A test whose
 * tool is missing ({@code apt-get install python3-torch openmpi-bin python3-mpi4py python3-xgboost}) is skipped.
 */
class TrainingTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(180);
  private static final String NS = "default";
  private static final String PYTHON = "/usr/bin/python3";

  @TempDir
  static Path dir;

  private static LocalMode local;
  private static KubernetesClient client;
  private static LocalExecutor executor;
  private static final List<String> OUT = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components())
        .execute(dir.resolve("run"), 6).out(OUT::add).err(OUT::add).start();
    client = local.client();
    executor = local.executor().orElseThrow();
    applyFile(resource("training/runtimes.yaml"));
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void torchDdpOnTwoNodesOfTwoProcessesConverges() throws IOException {
    assumeTrue(python("import torch"), "python3-torch is not installed");
    apply(Files.readString(examples().resolve("torch-trainjob.yaml")).replace("name: torch-cpu", "name: torch-ddp"));

    awaitCondition("torch-ddp", "Complete");

    String log = log(pod("torch-ddp", "node", 0), "node");
    List<Double> losses = losses(log);
    assertThat(log).contains("(world size 4)", "rank 0 done", "rank 1 done");
    assertThat(losses).hasSizeGreaterThan(3);
    assertThat(losses.get(losses.size() - 1)).isLessThan(losses.get(0) / 4);
    assertThat(log(pod("torch-ddp", "node", 1), "node")).contains("rank 2 done", "rank 3 done");
  }

  @Test
  void twoTrainJobsAtOnceBothCompleteWithoutPortCollisions() throws IOException {
    assumeTrue(python("import torch"), "python3-torch is not installed");
    String example = Files.readString(examples().resolve("torch-trainjob.yaml"));
    apply(example.replace("name: torch-cpu", "name: torch-a") + "\n---\n"
        + example.replace("name: torch-cpu", "name: torch-b"));

    awaitCondition("torch-a", "Complete");
    awaitCondition("torch-b", "Complete");
  }

  @Test
  void aRankThatExitsThreeFailsTheTrainJobWithPodExitCodeAndLastLinesAfterOneRestart() {
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: rank-fails}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: torch-fail-fast}
          trainer:
            numNodes: 2
            command: [sh, -c, 'echo "rank $PET_NODE_RANK of $PET_NNODES"; if [ "$PET_NODE_RANK" = 1 ]; then echo "CUDA error: out of memory"; exit 3; fi']
        """);

    TrainJob failed = awaitCondition("rank-fails", "Failed");

    Condition condition = condition(failed, "Failed").orElseThrow();
    assertThat(condition.getReason()).isEqualTo("ReachedMaxRestarts");
    assertThat(condition.getMessage()).startsWith("jobset failed due to reaching max number of restarts (first "
        + "failed job: rank-fails-node-0); pod default/rank-fails-node-0-1-")
        .contains(" on local: container node exited with code 3; last lines:\n", "rank 1 of 2",
            "CUDA error: out of memory");
    assertThat(OUT).anySatisfy(line -> assertThat(line).startsWith("jobset default/rank-fails: restarting (attempt 1)"));
    // the restart on the TrainJob (issue 35, item 2): a progress line, an Event and the annotation
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(OUT).anySatisfy(line -> assertThat(line)
        .startsWith("trainjob default/rank-fails: restart 1/1 after rank-fails-node-0-1-")
        .endsWith(" failed: exit code 3")));
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .filteredOn(e -> "rank-fails".equals(e.getInvolvedObject().getName())
            && "TrainJob".equals(e.getInvolvedObject().getKind()) && "Restarting".equals(e.getReason()))
        .singleElement().satisfies(e -> assertThat(e.getMessage())
            .matches("restart 1/1 after pod default/rank-fails-node-0-1-\\w+ on \\S+ failed: exit code 3")));
    await().atMost(TIMEOUT).until(() -> "1".equals(client.resources(TrainJob.class).inNamespace(NS)
        .withName("rank-fails").get().getMetadata().getAnnotations().get("kftrainer.io/restarts")));
  }

  @Test
  void aScriptThatRaisesOnTheShippedRuntimeFailsAfterItsThreeRestartsEachOneShownOnTheTrainJob() {
    // issue 32, item 4: it took 113 s of Job retries with back-off, and nothing on the TrainJob said so meanwhile
    long start = System.nanoTime();
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: raises}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer:
            command: [python3, -c, 'raise RuntimeError("bad batch")']
        """);

    TrainJob failed = awaitCondition("raises", "Failed");

    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.printf("a raising script on torch-distributed: Failed %d ms after it was applied%n", took.toMillis());
    assertThat(took).isLessThan(Duration.ofSeconds(60));
    Condition condition = condition(failed, "Failed").orElseThrow();
    assertThat(condition.getReason()).isEqualTo("ReachedMaxRestarts");
    assertThat(condition.getMessage()).contains("container node exited with code 1", "RuntimeError: bad batch");
    for (int restart = 1; restart <= 3; restart++) {
      String line = "trainjob default/raises: restart " + restart + "/3 after raises-node-0-0-";
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(OUT).anySatisfy(l -> assertThat(l).startsWith(line)
          .endsWith(" on local failed: exit code 1")));
    }
    await().atMost(TIMEOUT).until(() -> "3".equals(client.resources(TrainJob.class).inNamespace(NS)
        .withName("raises").get().getMetadata().getAnnotations().get("kftrainer.io/restarts")));
  }

  @Test
  void theDatasetInitializerWritesWhereTheTrainerReads() {
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: with-data}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: with-dataset}
          initializer:
            dataset: {storageUri: "hf://tatsu-lab/alpaca"}
          trainer:
            command: [sh, -c, 'cat /workspace/dataset/data.txt']
        """);

    awaitCondition("with-data", "Complete");

    assertThat(log(pod("with-data", "node", 0), "node")).isEqualTo("rows from hf://tatsu-lab/alpaca\n");
  }

  @Test
  void mpirunReachesTheNodePodsThroughTheExecutorsAgentAndAllreduces() {
    assumeTrue(python("import mpi4py") && Files.isExecutable(Path.of("/usr/bin/mpirun")),
        "openmpi-bin or python3-mpi4py is not installed");
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: allreduce}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: mpi-local}
          trainer:
            command:
              - mpirun
              - -np
              - "4"
              - /usr/bin/python3
              - -c
              - |
                from mpi4py import MPI
                comm = MPI.COMM_WORLD
                total = comm.allreduce(comm.Get_rank(), op=MPI.SUM)
                if comm.Get_rank() == 0:
                    print(f"sum of ranks {total} over {comm.Get_size()} ranks", flush=True)
        """);

    awaitCondition("allreduce", "Complete");

    assertThat(log(pod("allreduce", "launcher", 0), "node")).contains("sum of ranks 6 over 4 ranks");
  }

  @Test
  void theShippedDeepSpeedRuntimesNodePodsNeedNoSshDaemon() {
    assumeTrue(python("import mpi4py") && Files.isExecutable(Path.of("/usr/bin/mpirun")),
        "openmpi-bin or python3-mpi4py is not installed");
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: over-sshd}
        spec:
          runtimeRef: {name: deepspeed-distributed}
          trainer:
            numNodes: 2
            command:
              - mpirun
              - -np
              - "2"
              - /usr/bin/python3
              - -c
              - |
                from mpi4py import MPI
                comm = MPI.COMM_WORLD
                total = comm.allreduce(comm.Get_rank() + 1, op=MPI.SUM)
                if comm.Get_rank() == 0:
                    print(f"sum {total} over {comm.Get_size()} ranks", flush=True)
        """);

    awaitCondition("over-sshd", "Complete");

    assertThat(log(pod("over-sshd", "launcher", 0), "node")).contains("sum 3 over 2 ranks");
  }

  @Test
  void xgboostTrainsOnTwoWorkersThroughTheTrackerEnv() {
    assumeTrue(python("import xgboost, numpy"), "python3-xgboost is not installed");
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: xgb}
        spec:
          runtimeRef: {name: xgboost-distributed}
          trainer:
            numNodes: 2
            command:
              - python3
              - -c
              - |
                import os, threading
                import numpy as np
                import xgboost as xgb
                from xgboost import collective
                from xgboost.tracker import RabitTracker
                rank, workers = int(os.environ["DMLC_TASK_ID"]), int(os.environ["DMLC_NUM_WORKER"])
                uri, port = os.environ["DMLC_TRACKER_URI"], int(os.environ["DMLC_TRACKER_PORT"])
                if rank == 0:
                    tracker = RabitTracker(host_ip=uri, n_workers=workers, port=port)
                    tracker.start(workers)
                    threading.Thread(target=tracker.join, daemon=True).start()
                with collective.CommunicatorContext(dmlc_tracker_uri=uri, dmlc_tracker_port=port, dmlc_task_id=str(rank)):
                    rng = np.random.default_rng(rank)
                    X = rng.normal(size=(2000, 10))
                    y = (X[:, 0] + X[:, 1] > 0).astype(int)
                    xgb.train({"objective": "binary:logistic", "tree_method": "hist"}, xgb.DMatrix(X, label=y), 10)
                    print(f"worker {collective.get_rank()} of {collective.get_world_size()} trained", flush=True)
        """);

    awaitCondition("xgb", "Complete");

    assertThat(log(pod("xgb", "node", 0), "node")).contains("of 2 trained");
  }

  @Test
  void aTrainJobDeletedMidRunLeavesNoProcessBehind() throws Exception {
    // found by name: a pod's pids are those of its own PID namespace
    String sleeper = "deleted-" + java.util.UUID.randomUUID();
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: deleted-mid-run}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer:
            command: [bash, -c, 'bash -c "exec -a %s sleep 300" & wait']
        """.formatted(sleeper));
    await().atMost(TIMEOUT).until(() -> !processes(sleeper).isEmpty());

    client.resources(TrainJob.class).inNamespace(NS).withName("deleted-mid-run").delete();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(processes(sleeper)).isEmpty();
      assertThat(client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "deleted-mid-run")
          .list().getItems()).isEmpty();
    });
  }

  /** The live processes whose command line starts with {@code prefix}. */
  private static List<ProcessHandle> processes(String prefix) {
    return ProcessHandle.allProcesses().filter(p -> {
      try {
        return Files.readString(Path.of("/proc", String.valueOf(p.pid()), "cmdline")).startsWith(prefix);
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }).filter(ProcessHandle::isAlive).toList();
  }

  @Test
  void suspendStopsTheTrainJobsProcessesAndResumeCompletesIt() throws Exception {
    Path marker = dir.resolve("resumed");
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: paused}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer:
            command: [sh, -c, 'if [ -f %s ]; then echo resumed; else sleep 300; fi']
        """.formatted(marker));
    await().atMost(TIMEOUT).until(() -> runningPods("paused") == 1);

    client.resources(TrainJob.class).inNamespace(NS).withName("paused").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"suspend\":true}}");
    awaitCondition("paused", "Suspended");
    await().atMost(TIMEOUT).until(() -> client.pods().inNamespace(NS)
        .withLabel("jobset.sigs.k8s.io/jobset-name", "paused").list().getItems().isEmpty());

    Files.writeString(marker, "");
    client.resources(TrainJob.class).inNamespace(NS).withName("paused").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"suspend\":false}}");
    awaitCondition("paused", "Complete");
    assertThat(log(pod("paused", "node", 0), "node")).isEqualTo("resumed\n");
  }

  private static long runningPods(String trainJob) {
    return client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", trainJob).list().getItems()
        .stream().filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count();
  }

  private static List<Double> losses(String log) {
    Matcher m = Pattern.compile("loss (\\d+\\.\\d+)").matcher(log);
    List<Double> losses = new java.util.ArrayList<>();
    while (m.find()) {
      losses.add(Double.parseDouble(m.group(1)));
    }
    return losses;
  }

  /** The newest pod of {@code replicatedJob} with completion index {@code index}. */
  private static String pod(String trainJob, String replicatedJob, int index) {
    return client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", trainJob)
        .withLabel("jobset.sigs.k8s.io/replicatedjob-name", replicatedJob)
        .withLabel("batch.kubernetes.io/job-completion-index", String.valueOf(index)).list().getItems().stream()
        .map(Pod::getMetadata).max(java.util.Comparator.comparing(m -> m.getCreationTimestamp()))
        .orElseThrow(() -> new AssertionError("no pod " + replicatedJob + "/" + index + " of " + trainJob))
        .getName();
  }

  private static String log(String pod, String container) {
    try (InputStream in = executor.openLog(NS, pod, container, false, null).orElseThrow()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TrainJob awaitCondition(String name, String type) {
    return await().atMost(TIMEOUT).until(() -> client.resources(TrainJob.class).inNamespace(NS).withName(name).get(),
        tj -> {
          if (tj != null && !"Failed".equals(type) && condition(tj, "Failed").isPresent()) {
            throw new AssertionError(name + " failed: " + condition(tj, "Failed").get().getMessage());
          }
          return tj != null && condition(tj, type).isPresent();
        });
  }

  private static Optional<Condition> condition(TrainJob trainJob, String type) {
    return trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null ? Optional.empty()
        : trainJob.getStatus().getConditions().stream()
            .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
  }

  private static void apply(String yaml) {
    try {
      Path file = Files.createTempFile(dir, "trainjob", ".yaml");
      Files.writeString(file, yaml);
      applyFile(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Server-side applies every object of a YAML file, as {@code kubectl apply --server-side} would. */
  private static void applyFile(Path file) throws IOException {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      client.load(in).fieldManager("training-test").forceConflicts().serverSideApply();
    }
  }

  static boolean python(String statement) {
    if (!Files.isExecutable(Path.of(PYTHON))) {
      return false;
    }
    try {
      Process p = new ProcessBuilder(PYTHON, "-c", statement).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static Path examples() {
    return Path.of(System.getProperty("trainer.examplesDir", "../examples")).toAbsolutePath().normalize();
  }

  private static Path resource(String name) throws Exception {
    return Path.of(TrainingTest.class.getClassLoader().getResource(name).toURI());
  }
}
