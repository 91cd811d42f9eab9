package io.kftrainer.e2e.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Directories;
import io.kftrainer.e2e.support.Kubectl;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.TrainerProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: {@code local --data-dir} as a node that reboots. A TrainJob that finished, one that runs, one suspended,
 * the user's TrainingRuntime and the Events survive a SIGKILL of {@code local} and a start on the same directory; the
 * running TrainJob's pod becomes {@code Failed} as the kubelet marks a container it lost, and the TrainJob fails by
 * its runtime's policy (no JobSet restart); the finished and suspended TrainJobs are not written; the finished pod's
 * log is still served. A second {@code local} on the directory is refused while the first runs.
 */
class RestartTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final String RUNTIME = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainingRuntime
      metadata: {name: fail-on-loss}
      spec:
        mlPolicy: {numNodes: 1}
        template:
          spec:
            failurePolicy: {maxRestarts: 0}
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
      """;

  @Test
  void stateSurvivesASigkillAndRunningPodsFailAsAfterANodeReboot() throws IOException {
    Path data = Locations.workDir().resolve("restart-data");
    Directories.deleteRecursively(data);
    String token = "r" + UUID.randomUUID().toString().substring(0, 8);
    String namespace;
    String finishedPod;
    Map<String, String> versions;
    Set<String> events;
    String runtimeUid;
    LocalOperator first = LocalOperator.startExecuting("restart-1", List.of("--data-dir", data.toString()));
    try (first) {
      KubernetesClient client = first.client();
      namespace = first.createNamespace("restart");
      create(client, namespace, RUNTIME);
      create(client, namespace, trainJob("finished", "echo 'loss 0.25 before the restart'", false));
      create(client, namespace, trainJob("running", "exec -a " + token + " sleep 600", false));
      create(client, namespace, trainJob("suspended", "echo never", true));
      await().atMost(TIMEOUT).until(() -> hasCondition(client, namespace, "finished", "Complete"));
      await().atMost(TIMEOUT).until(() -> podOf(client, namespace, "running")
          .map(p -> "Running".equals(p.getStatus().getPhase())).orElse(false));
      finishedPod = podOf(client, namespace, "finished").orElseThrow().getMetadata().getName();

      TrainerProcess second = TrainerProcess.start("restart-refused", List.of(), List.of("local", "--port", "0",
          "--no-execute", "--kubeconfig-out", Locations.workDir().resolve("restart-refused.kubeconfig").toString(),
          "--data-dir", data.toString()), Map.of());
      try (second) {
        await().atMost(TIMEOUT).until(() -> !second.isAlive());
        assertThat(second.exitValue()).isEqualTo(1);
        assertThat(second.logTail(20)).contains("Error: the data directory " + data.toAbsolutePath().normalize()
            + " is in use by another trainer process (pid ");
      }

      runtimeUid = client.resources(TrainingRuntime.class).inNamespace(namespace).withName("fail-on-loss").get()
          .getMetadata().getUid();
      versions = Stream.of("finished", "suspended").collect(Collectors.toMap(n -> n,
          n -> client.resources(TrainJob.class).inNamespace(namespace).withName(n).get().getMetadata()
              .getResourceVersion()));
      events = client.v1().events().inNamespace(namespace).list().getItems().stream()
          .map(e -> e.getMetadata().getName()).collect(Collectors.toSet());
      assertThat(events).isNotEmpty();
      first.kill();
    }

    try (LocalOperator restarted = LocalOperator.startExecuting("restart-2", List.of("--data-dir",
        data.toString()))) {
      KubernetesClient client = restarted.client();
      // the history is summed up once, not replayed as if the jobs ran again
      assertThat(restarted.logged("kept from the previous run: 3 TrainJobs (1 Complete, 1 Suspended, 1 running)"))
          .as(restarted.logTail(40)).isTrue();
      assertThat(restarted.logged("trainjob " + namespace + "/finished: Complete")).as(restarted.logTail(40))
          .isFalse();
      assertThat(client.resources(TrainingRuntime.class).inNamespace(namespace).withName("fail-on-loss").get()
          .getMetadata().getUid()).isEqualTo(runtimeUid);
      assertThat(client.v1().events().inNamespace(namespace).list().getItems()).extracting(e -> e.getMetadata()
          .getName()).containsAll(events);

      await().atMost(TIMEOUT).until(() -> hasCondition(client, namespace, "running", "Failed"));
      Pod lost = client.pods().inNamespace(namespace).list().getItems().stream()
          .filter(p -> p.getMetadata().getName().startsWith("running-")).findFirst().orElseThrow();
      assertThat(lost.getStatus().getPhase()).isEqualTo("Failed");
      ContainerStatus container = lost.getStatus().getContainerStatuses().get(0);
      assertThat(container.getState().getTerminated().getReason()).isEqualTo("ContainerStatusUnknown");
      assertThat(container.getState().getTerminated().getExitCode()).isEqualTo(137);
      assertThat(container.getState().getTerminated().getMessage())
          .isEqualTo("The container could not be located when the pod was terminated");
      assertThat(condition(client, namespace, "running", "Failed").getMessage()).contains("exited with code 137");
      // one pod in all: the JobSet's failure policy (maxRestarts 0) made no replacement
      assertThat(client.pods().inNamespace(namespace).list().getItems())
          .filteredOn(p -> p.getMetadata().getName().startsWith("running-")).hasSize(1);

      // finished and suspended TrainJobs: not written by the restarted operator
      for (Map.Entry<String, String> entry : versions.entrySet()) {
        assertThat(client.resources(TrainJob.class).inNamespace(namespace).withName(entry.getKey()).get()
            .getMetadata().getResourceVersion()).as(entry.getKey()).isEqualTo(entry.getValue());
      }
      assertThat(client.resources(TrainJob.class).inNamespace(namespace).withName("suspended").get().getSpec()
          .getSuspend()).isTrue();

      assertThat(client.pods().inNamespace(namespace).withName(finishedPod).getLog())
          .isEqualTo("loss 0.25 before the restart\n");
      if (Kubectl.isInstalled()) {
        Command.Result logs = restarted.kubectl().run("logs", "-n", namespace, finishedPod);
        assertThat(logs.exitCode()).as(logs.stderr()).isZero();
        assertThat(logs.stdout()).isEqualTo("loss 0.25 before the restart\n");
      }
    } finally {
      ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.startsWith(token)).orElse(false))
          .forEach(ProcessHandle::destroyForcibly);
    }
  }

  private static String trainJob(String name, String script, boolean suspended) {
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: %s}
        spec:
          suspend: %s
          runtimeRef: {kind: TrainingRuntime, name: fail-on-loss}
          trainer:
            command: [bash, -c, "%s"]
        """.formatted(name, suspended, script);
  }

  private static void create(KubernetesClient client, String namespace, String yaml) {
    for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(object).inNamespace(namespace).create();
    }
  }

  private static Optional<Pod> podOf(KubernetesClient client, String namespace, String trainJob) {
    return client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getMetadata().getName().startsWith(trainJob + "-") && p.getStatus() != null).findFirst();
  }

  private static boolean hasCondition(KubernetesClient client, String namespace, String name, String type) {
    io.fabric8.kubernetes.api.model.Condition condition = condition(client, namespace, name, type);
    return condition != null && "True".equals(condition.getStatus());
  }

  private static io.fabric8.kubernetes.api.model.Condition condition(KubernetesClient client, String namespace,
      String name, String type) {
    TrainJob trainJob = client.resources(TrainJob.class).inNamespace(namespace).withName(name).get();
    return trainJob == null || trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null ? null
        : trainJob.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst()
            .orElse(null);
  }
}
