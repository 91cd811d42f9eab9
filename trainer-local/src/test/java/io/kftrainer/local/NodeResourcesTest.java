package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.executor.Gpu;
import io.kftrainer.executor.LocalExecutor;
import io.kftrainer.operator.command.RunCommand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local} as one node of this machine: the Node it registers with the GPUs a stand-in {@code nvidia-smi}
 * lists, pods admitted only when their requests fit what is left (else Pending with kube-scheduler's message, and
 * started as soon as they fit), a GPU per container, and a failed Job's pods stopped at once, as users see it through
 * the API, the progress lines and kubectl.
 */
class NodeResourcesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String NS = "default";

  @TempDir
  static Path dir;

  private static LocalMode local;
  private static KubernetesClient client;
  private static LocalExecutor executor;
  private static final List<String> OUT = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path nvidiaSmi = bin.resolve("nvidia-smi");
    // answers only the query the node asks, as the real tool would answer it
    Files.writeString(nvidiaSmi, """
        #!/bin/sh
        [ "$1 $2" = "--query-gpu=index,uuid,name,memory.total --format=csv,noheader" ] || exit 9
        echo "0, GPU-0b5a2c1e-0000-0000-0000-000000000000, NVIDIA H100 80GB HBM3, 81559 MiB"
        echo "1, GPU-1c6b3d2f-1111-1111-1111-111111111111, NVIDIA H100 80GB HBM3, 81559 MiB"
        """);
    Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<Gpu> gpus = Gpu.fromOption(Gpu.AUTO, bin + File.pathSeparator + System.getenv("PATH"));

    local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components())
        .execute(dir.resolve("run"), 8).gpus(gpus).out(OUT::add).err(OUT::add).start();
    client = local.client();
    executor = local.executor().orElseThrow();
    client.load(new java.io.ByteArrayInputStream("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata: {name: plain, namespace: default}
        spec:
          mlPolicy: {numNodes: 1}
          template:
            spec:
              replicatedJobs:
              - name: node
                template:
                  metadata:
                    labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
                  spec:
                    backoffLimit: 0
                    template:
                      spec:
                        restartPolicy: Never
                        containers:
                        - {name: node, image: busybox}
        ---
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata: {name: retrying, namespace: default}
        spec:
          mlPolicy: {numNodes: 1}
          template:
            spec:
              replicatedJobs:
              - name: node
                template:
                  metadata:
                    labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
                  spec:
                    backoffLimit: 1
                    template:
                      spec:
                        restartPolicy: OnFailure
                        containers:
                        - {name: node, image: busybox}
        """.getBytes(StandardCharsets.UTF_8))).inNamespace(NS).createOrReplace();
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void theNodeReportsThisMachineAndTheGpusNvidiaSmiLists() {
    Node node = client.nodes().withName("local").get();

    assertThat(node.getStatus().getCapacity()).containsEntry("nvidia.com/gpu", new Quantity("2"))
        .containsEntry("cpu", new Quantity(String.valueOf(Runtime.getRuntime().availableProcessors())))
        .containsEntry("pods", new Quantity("8")).containsKeys("memory", "ephemeral-storage");
    assertThat(node.getStatus().getAllocatable()).containsEntry("nvidia.com/gpu", new Quantity("2"));
    assertThat(node.getStatus().getConditions()).anySatisfy(c -> {
      assertThat(c.getType()).isEqualTo("Ready");
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("KubeletReady");
    });
    assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/hostname", "local")
        .containsEntry("nvidia.com/gpu.count", "2");
    assertThat(node.getStatus().getNodeInfo().getOperatingSystem()).isEqualTo("linux");
    assertThat(executor.node().describe()).contains("2 GPUs (0 NVIDIA H100 80GB HBM3, 1 NVIDIA H100 80GB HBM3)",
        "8 pods");
  }

  @Test
  void threeNodesOfOneGpuOnTwoGpusRunTwoWithTheirOwnGpuAndTheThirdOnceOneIsFree() throws IOException {
    Path gates = Files.createDirectories(dir.resolve("gates"));
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: gpus}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: plain}
          trainer:
            numNodes: 3
            resourcesPerNode: {limits: {nvidia.com/gpu: 1}}
            command: [sh, -c, 'echo "cuda=$CUDA_VISIBLE_DEVICES nvidia=$NVIDIA_VISIBLE_DEVICES"; while [ ! -e %s/$HOSTNAME ]; do sleep 0.1; done']
        """.formatted(gates));

    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(pods("gpus", "Running")).hasSize(2);
      assertThat(pods("gpus", "Pending")).singleElement().satisfies(p -> assertThat(scheduled(p)).hasValueSatisfying(
          c -> assertThat(c.getStatus() + " " + c.getReason() + " " + c.getMessage())
              .isEqualTo("False Unschedulable 0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")));
    });
    List<Pod> running = pods("gpus", "Running");
    await().atMost(TIMEOUT).until(() -> running.stream().allMatch(p -> log(p).contains("cuda=")));
    List<String> devices = running.stream().map(NodeResourcesTest::log).map(String::strip).toList();
    assertThat(devices).containsExactlyInAnyOrder(
        "cuda=0 nvidia=GPU-0b5a2c1e-0000-0000-0000-000000000000",
        "cuda=1 nvidia=GPU-1c6b3d2f-1111-1111-1111-111111111111");
    assertThat(running).allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("local"));
    Pod pending = pods("gpus", "Pending").get(0);
    assertThat(OUT).contains("pod default/" + pending.getMetadata().getName()
        + ": Pending (0/1 nodes are available: 1 Insufficient nvidia.com/gpu.)");

    Pod first = running.get(0);
    Files.writeString(gates.resolve(first.getSpec().getHostname()), "");
    await().atMost(TIMEOUT).until(() -> log(pending).contains("cuda="));
    assertThat(log(pending).strip()).isEqualTo(log(first).strip());

    for (Pod p : pods("gpus", null)) {
      Files.writeString(gates.resolve(p.getSpec().getHostname()), "");
    }
    awaitCondition("gpus", "Complete");
  }

  @Test
  void torchrunsAutoProcessesPerNodeSeeThePodsGpusOnly() {
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: torch-auto}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer:
            resourcesPerNode: {limits: {nvidia.com/gpu: 2}}
            command: [sh, -c, 'echo "nproc=$PET_NPROC_PER_NODE cuda=$CUDA_VISIBLE_DEVICES"']
        """);

    awaitCondition("torch-auto", "Complete");

    assertThat(log(pods("torch-auto", null).get(0))).isEqualTo("nproc=auto cuda=0,1\n");
  }

  @Test
  void aContainerAskingForNoGpuSeesNone() {
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: no-gpu}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: plain}
          trainer:
            command: [sh, -c, 'echo "cuda=[$CUDA_VISIBLE_DEVICES] nvidia=$NVIDIA_VISIBLE_DEVICES"']
        """);

    awaitCondition("no-gpu", "Complete");

    assertThat(log(pods("no-gpu", null).get(0))).isEqualTo("cuda=[] nvidia=void\n");
  }

  @Test
  void everyVersionOfAPodThatShowsItRunningOrEndedShowsItBound() {
    List<Pod> seen = new CopyOnWriteArrayList<>();
    try (Watch watch = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "bound")
        .watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, Pod pod) {
            seen.add(pod);
          }

          @Override
          public void onClose(WatcherException cause) {
          }
        })) {
      apply("""
          apiVersion: trainer.kubeflow.org/v1alpha1
          kind: TrainJob
          metadata: {name: bound}
          spec:
            runtimeRef: {kind: TrainingRuntime, name: plain}
            trainer:
              numNodes: 2
              command: [sh, -c, 'exit 0']
          """);

      awaitCondition("bound", "Complete");
      await().atMost(TIMEOUT).until(() -> seen.stream().filter(p -> "Succeeded".equals(phase(p)))
          .map(p -> p.getMetadata().getName()).distinct().count() == 2);
    }

    assertThat(seen).filteredOn(p -> phase(p) != null && !"Pending".equals(phase(p))).isNotEmpty()
        .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).as(p.getMetadata().getName() + " " + phase(p))
            .isEqualTo("local"));
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  @Test
  void aPodAskingForMoreCpusThanTheMachineHasFailsItsTrainJobAtOnceAsTheKubeletRejectsIt() {
    int cpus = Runtime.getRuntime().availableProcessors() + 1;
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: too-many-cpus}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: plain}
          trainer:
            resourcesPerNode: {requests: {cpu: "%d"}}
            command: [sh, -c, 'echo ran']
        """.formatted(cpus));

    // this machine is the only node there will be: waiting for another would be waiting forever
    TrainJob failed = awaitCondition("too-many-cpus", "Failed");
    String rejection = "Pod was rejected: Node didn't have enough resource: cpu, requested: " + cpus * 1000
        + ", used: 0, capacity: " + (cpus - 1) * 1000;
    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).contains("pod default/too-many-cpus-node-0-0-", rejection));
    Pod pod = pods("too-many-cpus", null).get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(pod.getStatus().getReason()).isEqualTo("OutOfcpu");
    assertThat(pods("too-many-cpus", null)).as("no replacement pod").hasSize(1);

    if (kubectlInstalled()) {
      String described = kubectl("describe", "pod", pod.getMetadata().getName());
      assertThat(described).contains("OutOfcpu", rejection);
    }
  }

  @Test
  void aFailedJobsPodsStopAtOnceAndNoProgressLineFollowsTheTrainJobsFailure() {
    String sleeper = "failing-" + java.util.UUID.randomUUID();
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: failing}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: retrying}
          trainer:
            numNodes: 2
            command: [bash, -c, 'if [ "$HOSTNAME" = failing-node-0-0 ]; then exec -a %s sleep 300; fi; echo "lost"; exit 1']
        """.formatted(sleeper));

    TrainJob failed = awaitCondition("failing", "Failed");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(pods("failing", null)).isEmpty();
      assertThat(processes(sleeper)).isEmpty();
    });

    // the container restarted in its pod, which the Job controller deleted: its Job's message says why
    assertThat(client.batch().v1().jobs().inNamespace(NS).withName("failing-node-0").get().getStatus()
        .getConditions()).anySatisfy(c -> assertThat(c.getMessage()).contains("container node exited with code 1"));
    // OnFailure: the failing container restarts in its pod, which is never reported Failed nor replaced
    assertThat(OUT).noneMatch(l -> l.startsWith("pod default/failing-") && l.contains(": Failed"));
    assertThat(client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> "SuccessfulCreate".equals(e.getReason()) && "Job".equals(e.getInvolvedObject().getKind())
            && e.getInvolvedObject().getName().startsWith("failing-")))
        .hasSize(2);
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> lastLineAbout("failing")
        .startsWith("trainjob default/failing: Failed"));
  }

  @Test
  void kubectlShowsTheNodeItsResourcesAndItsPods() {
    assumeTrue(kubectlInstalled(), "kubectl not installed");
    Path gate = dir.resolve("described");
    apply("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: described}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: plain}
          trainer:
            resourcesPerNode: {requests: {cpu: 500m, nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 1}}
            command: [sh, -c, 'while [ ! -e %s ]; do sleep 0.1; done']
        """.formatted(gate));
    await().atMost(TIMEOUT).until(() -> pods("described", "Running").size() == 1);

    String nodes = kubectl("get", "nodes");
    assertThat(nodes.lines().toList()).hasSize(2);
    assertThat(nodes.lines().toList().get(0)).startsWith("NAME").contains("STATUS", "ROLES", "AGE", "VERSION");
    assertThat(nodes.lines().toList().get(1)).startsWith("local").contains("Ready");
    String described = kubectl("describe", "node", "local");
    assertThat(described).contains("nvidia.com/gpu:     2", "Non-terminated Pods:", "described-node-0-0-",
        "Allocated resources:");
    assertThat(described.lines().filter(l -> l.strip().startsWith("nvidia.com/gpu")).toList())
        .anySatisfy(l -> assertThat(l.strip().split("\\s+")).containsSequence("nvidia.com/gpu", "1", "1"));
    try {
      Files.writeString(gate, "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitCondition("described", "Complete");
  }

  private static String lastLineAbout(String trainJob) {
    List<String> about = OUT.stream().filter(l -> l.contains("/" + trainJob + ":") || l.contains("/" + trainJob + "-"))
        .toList();
    return about.isEmpty() ? "" : about.get(about.size() - 1);
  }

  private static Optional<PodCondition> scheduled(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
        : pod.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst();
  }

  private static List<Pod> pods(String trainJob, String phase) {
    return client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", trainJob).list().getItems()
        .stream().filter(p -> phase == null || p.getStatus() != null && phase.equals(p.getStatus().getPhase()))
        .toList();
  }

  private static String log(Pod pod) {
    Optional<InputStream> stream = executor.openLog(NS, pod.getMetadata().getName(), "node", false, null);
    if (stream.isEmpty()) {
      return "";
    }
    try (InputStream in = stream.get()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<ProcessHandle> processes(String prefix) {
    return ProcessHandle.allProcesses().filter(p -> {
      try {
        return Files.readString(Path.of("/proc", String.valueOf(p.pid()), "cmdline")).startsWith(prefix);
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }).filter(ProcessHandle::isAlive).toList();
  }

  private static void apply(String yaml) {
    client.load(new java.io.ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).inNamespace(NS).create();
  }

  private static TrainJob awaitCondition(String name, String type) {
    return await().atMost(TIMEOUT).until(() -> client.resources(TrainJob.class).inNamespace(NS).withName(name).get(),
        t -> t != null && t.getStatus() != null && t.getStatus().getConditions() != null && t.getStatus()
            .getConditions().stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus())));
  }

  private static boolean kubectlInstalled() {
    return kubectlBinary().isPresent();
  }

  private static Optional<Path> kubectlBinary() {
    return java.util.Arrays.stream(Optional.ofNullable(System.getenv("PATH")).orElse("").split(File.pathSeparator))
        .map(d -> Path.of(d, "kubectl")).filter(Files::isExecutable).findFirst();
  }

  private static String kubectl(String... args) {
    List<String> command = new ArrayList<>(List.of(kubectlBinary().orElseThrow().toString()));
    command.addAll(List.of(args));
    try {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put("KUBECONFIG", local.kubeconfig().toString());
      Process process = builder.start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as(out).isZero();
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
