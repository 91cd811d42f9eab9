package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The executor against the embedded API server, with {@code /bin/sh} pods: the objects the JobSet and Job
 * controllers make, the processes the kubelet runs, status, failure messages, restarts, suspend, deletion, logs.
 */
class LocalExecutorTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String NS = "default";

  @TempDir
  static Path runDir;

  private static ExecutorOnApiServer local;
  private static KubernetesClient client;
  private static LocalExecutor executor;
  private static final List<String> PROGRESS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    local = ExecutorOnApiServer.start(runDir, PROGRESS::add);
    client = local.client();
    executor = local.executor();
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void aJobSetBecomesIndexedJobsPodsAndAServiceAsTheRealControllersMakeThem() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: shape}
        spec:
          replicatedJobs:
          - name: workers
            replicas: 2
            template:
              spec:
                parallelism: 2
                completions: 2
                template:
                  spec:
                    containers:
                    - name: main
                      image: busybox
                      command: [sh, -c, 'echo "$HOSTNAME idx=$IDX"']
                      env:
                      - name: IDX
                        valueFrom: {fieldRef: {fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}
        """);

    JobSet done = awaitCondition("shape", "Completed");

    assertThat(done.getStatus().getConditions()).anySatisfy(c -> {
      assertThat(c.getType()).isEqualTo("Completed");
      assertThat(c.getReason()).isEqualTo("AllJobsCompleted");
      assertThat(c.getMessage()).isEqualTo("jobset completed successfully");
    });
    assertThat(done.getStatus().getTerminalState()).isEqualTo("Completed");
    assertThat(done.getStatus().getReplicatedJobsStatus()).singleElement()
        .satisfies(s -> assertThat(s.getSucceeded()).isEqualTo(2));
    List<Job> jobs = client.batch().v1().jobs().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "shape")
        .list().getItems();
    assertThat(jobs).extracting(j -> j.getMetadata().getName()).containsExactlyInAnyOrder("shape-workers-0",
        "shape-workers-1");
    Job job = jobs.stream().filter(j -> j.getMetadata().getName().equals("shape-workers-1")).findFirst().orElseThrow();
    assertThat(job.getMetadata().getLabels()).containsEntry("jobset.sigs.k8s.io/replicatedjob-name", "workers")
        .containsEntry("jobset.sigs.k8s.io/job-index", "1").containsEntry("jobset.sigs.k8s.io/restart-attempt", "0")
        .containsEntry("jobset.sigs.k8s.io/job-key", Names.jobKey(NS, "shape-workers-1"));
    assertThat(job.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("JobSet"));
    assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
    assertThat(job.getStatus().getCompletedIndexes()).isEqualTo("0-1");
    assertThat(job.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getReason())
        .contains("SuccessCriteriaMet=CompletionsReached", "Complete=CompletionsReached");

    List<Pod> pods = client.pods().inNamespace(NS).withLabel("batch.kubernetes.io/job-name", "shape-workers-1")
        .list().getItems();
    assertThat(pods).hasSize(2).allSatisfy(pod -> {
      String index = pod.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index");
      assertThat(pod.getMetadata().getName()).matches("shape-workers-1-" + index + "-[a-z0-9]{5}");
      assertThat(pod.getSpec().getHostname()).isEqualTo("shape-workers-1-" + index);
      assertThat(pod.getSpec().getSubdomain()).isEqualTo("shape");
      assertThat(pod.getMetadata().getLabels()).containsEntry("jobset.sigs.k8s.io/jobset-name", "shape")
          .containsEntry("batch.kubernetes.io/job-completion-index", index);
      assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
      assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(s -> {
        assertThat(s.getState().getTerminated().getExitCode()).isZero();
        assertThat(s.getState().getTerminated().getReason()).isEqualTo("Completed");
      });
      assertThat(log(pod.getMetadata().getName(), "main", null))
          .isEqualTo("shape-workers-1-" + index + " idx=" + index + "\n");
    });
    Service service = client.services().inNamespace(NS).withName("shape").get();
    assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(service.getSpec().getSelector()).containsEntry("jobset.sigs.k8s.io/jobset-name", "shape");
    assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .anySatisfy(e -> assertThat(e.getMessage()).contains("Container image \"busybox\" not pulled"));
  }

  @Test
  void theKubeletRunsInitContainersThenContainersWithEnvSourcesVolumesAndExpansion() {
    client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
        .endMetadata().withData(Map.of("greeting", "hello", "file.txt", "from a configmap")).build()).create();
    client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("token").endMetadata()
        .withStringData(Map.of("TOKEN", "s3cret")).build()).create();
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: envs}
        spec:
          replicatedJobs:
          - name: one
            template:
              spec:
                template:
                  spec:
                    volumes:
                    - {name: shared, emptyDir: {}}
                    - {name: config, configMap: {name: settings}}
                    initContainers:
                    - name: prepare
                      image: busybox
                      command: [sh, -c, 'echo prepared > /workspace/out.txt']
                      volumeMounts: [{name: shared, mountPath: /workspace}]
                    containers:
                    - name: main
                      image: busybox
                      workingDir: /workspace
                      command: [sh, -c]
                      args: ['echo "$(GREETING) $(NAME) $ESCAPED $TOKEN $PREFIX_greeting"; cat out.txt; cat /etc/config/file.txt; echo; pwd']
                      envFrom:
                      - {prefix: PREFIX_, configMapRef: {name: settings}}
                      env:
                      - {name: NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                      - {name: GREETING, valueFrom: {configMapKeyRef: {name: settings, key: greeting}}}
                      - {name: TOKEN, valueFrom: {secretKeyRef: {name: token, key: TOKEN}}}
                      - {name: ESCAPED, value: "$$(GREETING)"}
                      volumeMounts:
                      - {name: shared, mountPath: /workspace}
                      - {name: config, mountPath: /etc/config}
        """);

    awaitCondition("envs", "Completed");

    Pod pod = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "envs").list().getItems()
        .get(0);
    String name = pod.getMetadata().getName();
    assertThat(pod.getStatus().getInitContainerStatuses()).singleElement()
        .satisfies(s -> assertThat(s.getState().getTerminated().getExitCode()).isZero());
    assertThat(log(name, "main", null).lines().toList()).containsExactly(
        "hello " + name + " $(GREETING) s3cret hello",
        "prepared",
        "from a configmap",
        runDir.resolve(NS).resolve("pods").resolve(name).resolve("volumes").resolve("shared").toString());
  }

  @Test
  void aContainerRestartedOnFailureKeepsItsPodRunningWithCrashLoopBackOffBetweenAttempts() {
    List<String> phases = new CopyOnWriteArrayList<>();
    List<String> waiting = new CopyOnWriteArrayList<>();
    try (var watch = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "flaky")
        .watch(new io.fabric8.kubernetes.client.Watcher<Pod>() {
          @Override
          public void eventReceived(Action action, Pod pod) {
            if (pod.getStatus() == null || pod.getStatus().getPhase() == null) {
              return;
            }
            phases.add(pod.getStatus().getPhase());
            java.util.Optional.ofNullable(pod.getStatus().getContainerStatuses()).orElse(List.of()).stream()
                .filter(c -> c.getState().getWaiting() != null).forEach(c -> waiting.add(c.getState().getWaiting()
                    .getReason()));
          }

          @Override
          public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
          }
        })) {
      create("""
          apiVersion: jobset.x-k8s.io/v1alpha2
          kind: JobSet
          metadata: {name: flaky}
          spec:
            replicatedJobs:
            - name: node
              template:
                spec:
                  template:
                    spec:
                      volumes: [{name: state, emptyDir: {}}]
                      containers:
                      - name: node
                        image: busybox
                        command: [sh, -c, 'echo x >> /state/attempts; [ $(wc -l < /state/attempts) -ge 3 ]']
                        volumeMounts: [{name: state, mountPath: /state}]
          """);

      awaitCondition("flaky", "Completed");

      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(phases).last().isEqualTo("Succeeded"));
      assertThat(phases.subList(phases.indexOf("Running"), phases.size())).as("phases after the first Running")
          .containsOnly("Running", "Succeeded");
      assertThat(waiting).contains("CrashLoopBackOff");
    }
    Pod pod = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "flaky").list().getItems()
        .get(0);
    assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(c -> {
      assertThat(c.getRestartCount()).isEqualTo(2);
      assertThat(c.getState().getTerminated().getReason()).isEqualTo("Completed");
    });
    assertThat(PROGRESS).filteredOn(line -> line.startsWith("pod default/" + pod.getMetadata().getName() + ": "))
        .contains("pod default/" + pod.getMetadata().getName() + ": container node exited with code 1, restart 1 "
            + "after a back-off of 1s", "pod default/" + pod.getMetadata().getName() + ": container node exited "
            + "with code 1, restart 2 after a back-off of 2s");
  }

  @Test
  void theNodeHoldsItsLeaseInKubeNodeLeaseAsAKubeletDoes() {
    var node = client.nodes().withName("local").get();
    var lease = client.leases().inNamespace("kube-node-lease").withName("local").get();

    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("local");
    assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(40);
    assertThat(lease.getSpec().getRenewTime()).isAfter(java.time.ZonedDateTime.now().minusSeconds(30));
    assertThat(lease.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(node.getMetadata().getUid()));
  }

  @Test
  void aFailingRankFailsTheJobSetAfterMaxRestartsAndStopsTheOtherRanks() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: failing}
        spec:
          failurePolicy: {maxRestarts: 1}
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                parallelism: 2
                completions: 2
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'if [ "$JOB_COMPLETION_INDEX" = 1 ]; then echo "loss is nan"; exit 3; fi; sleep 30']
                      env:
                      - name: JOB_COMPLETION_INDEX
                        valueFrom: {fieldRef: {fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']"}}
        """);

    JobSet failed = awaitCondition("failing", "Failed");

    assertThat(failed.getStatus().getRestarts()).isEqualTo(1);
    assertThat(failed.getStatus().getTerminalState()).isEqualTo("Failed");
    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo("ReachedMaxRestarts");
          assertThat(c.getMessage()).isEqualTo("jobset failed due to reaching max number of restarts (first "
              + "failed job: failing-node-0)");
        });
    // the rank that was still sleeping is stopped with its Job
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.pods().inNamespace(NS)
        .withLabel("jobset.sigs.k8s.io/jobset-name", "failing").list().getItems())
        .noneMatch(p -> "Running".equals(p.getStatus().getPhase())));
    assertThat(PROGRESS).filteredOn(line -> line.startsWith("jobset default/failing: restarting"))
        .as("one restart, said once").hasSize(1);
  }

  @Test
  void anImageTheKubeletCannotParseFailsThePodWithInvalidImageNameAndRunsNothing() {
    // the API server stores any string as image; a real kubelet refuses it, so the executor does too
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: bad-image}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - name: node
                      image: "Ünïcødé-名前:latest"
                      command: [sh, -c, 'echo ran']
        """);

    JobSet failed = awaitCondition("bad-image", "Failed");

    assertThat(jobFailure("bad-image-node-0")).contains("container node exited with code 128")
            .contains("couldn't parse image name \"Ünïcødé-名前:latest\": invalid reference format");
    Pod pod = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "bad-image").list()
        .getItems().get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(pod.getStatus().getContainerStatuses()).singleElement()
        .satisfies(c -> assertThat(c.getState().getTerminated().getReason()).isEqualTo("InvalidImageName"));
    assertThat(log(pod.getMetadata().getName(), "node", null)).doesNotContain("ran");
  }

  @Test
  void volumeClaimPoliciesGiveTheJobSetClaimsBoundToADirectorySharedByItsJobsAndDeletedWithIt() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: claims}
        spec:
          volumeClaimPolicies:
          - templates:
            - metadata: {name: initializer, labels: {team: a}}
              spec:
                accessModes: [ReadWriteOnce]
                resources: {requests: {storage: 1Gi}}
          - retentionPolicy: {whenDeleted: Retain}
            templates:
            - metadata: {name: checkpoints}
              spec:
                accessModes: [ReadWriteOnce]
                resources: {requests: {storage: 2Gi}}
          replicatedJobs:
          - name: initializer
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: init
                      image: busybox
                      command: [sh, -c, 'echo downloaded > /workspace/model.txt']
                      volumeMounts: [{name: initializer, mountPath: /workspace}]
          - name: node
            dependsOn: [{name: initializer, status: Complete}]
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'cat /workspace/model.txt']
                      volumeMounts: [{name: initializer, mountPath: /workspace}]
        """);

    awaitCondition("claims", "Completed");

    var claim = client.persistentVolumeClaims().inNamespace(NS).withName("initializer-claims").get();
    assertThat(claim.getMetadata().getLabels()).containsEntry("team", "a")
        .containsEntry("jobset.sigs.k8s.io/jobset-name", "claims");
    assertThat(claim.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getName()).isEqualTo("claims"));
    assertThat(claim.getStatus().getPhase()).isEqualTo("Bound");
    assertThat(claim.getStatus().getCapacity().get("storage").toString()).isEqualTo("1Gi");
    Path directory = runDir.resolve(NS).resolve("pvc").resolve("initializer-claims");
    var volume = client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get();
    assertThat(volume.getSpec().getHostPath().getPath()).isEqualTo(directory.toString());
    assertThat(volume.getSpec().getClaimRef().getUid()).isEqualTo(claim.getMetadata().getUid());
    assertThat(volume.getStatus().getPhase()).isEqualTo("Bound");
    assertThat(PROGRESS).filteredOn(line -> line.startsWith("persistentvolumeclaim default/initializer-claims: Bound"))
        .hasSize(1);
    // a claim no container mounts is created, but no pod gets its volume
    var retained = client.persistentVolumeClaims().inNamespace(NS).withName("checkpoints-claims").get();
    assertThat(retained.getMetadata().getOwnerReferences()).isNullOrEmpty();
    Pod node = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/replicatedjob-name", "node").list()
        .getItems().get(0);
    assertThat(node.getSpec().getVolumes()).extracting(v -> v.getName()).containsExactly("initializer");
    assertThat(log(node.getMetadata().getName(), "node", null)).isEqualTo("downloaded\n");

    client.resources(JobSet.class).inNamespace(NS).withName("claims").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.persistentVolumeClaims().inNamespace(NS).withName("initializer-claims").get()).isNull();
      assertThat(client.persistentVolumes().withName(volume.getMetadata().getName()).get()).isNull();
      assertThat(directory).doesNotExist();
    });
    assertThat(client.persistentVolumeClaims().inNamespace(NS).withName("checkpoints-claims").get()).isNotNull();
  }

  @Test
  void aJobTheApiServerRefusesFailsTheJobSetAtOnceWithTheApiServersMessage() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: refused}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'echo ran']
                      volumeMounts: [{name: undeclared, mountPath: /workspace}]
        """);

    JobSet failed = awaitCondition("refused", "Failed");

    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo("JobCreationFailed");
          assertThat(c.getMessage()).contains("volumeMounts[0].name").contains("undeclared");
        });
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .filteredOn(e -> e.getInvolvedObject().getName().equals("refused"))
        .extracting(e -> e.getReason()).containsExactly("JobCreationFailed"));
    assertThat(PROGRESS).filteredOn(line -> line.startsWith("jobset default/refused: Failed")).hasSize(1);
    assertThat(client.batch().v1().jobs().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "refused")
        .list().getItems()).isEmpty();
  }

  @Test
  void aPodWhoseVolumeSourceIsMissingFailsWithFailedMountAndRunsNothing() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: no-volume}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                template:
                  spec:
                    restartPolicy: Never
                    volumes:
                    - name: settings
                      configMap: {name: never-created}
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'echo ran']
                      volumeMounts: [{name: settings, mountPath: /etc/settings}]
        """);

    awaitCondition("no-volume", "Failed");

    Pod pod = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "no-volume").list()
        .getItems().get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(pod.getStatus().getMessage()).contains("never-created");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .anySatisfy(e -> {
          assertThat(e.getInvolvedObject().getName()).isEqualTo(pod.getMetadata().getName());
          assertThat(e.getReason()).isEqualTo("FailedMount");
        }));
    assertThat(log(pod.getMetadata().getName(), "node", null)).doesNotContain("ran");
  }

  @Test
  void aFluxPodFailsAtOnceSayingThatFluxCannotRunHereAndRunsNothing() throws IOException {
    // the Flux plugin's pods: its installer init container, the node's command wrapped in the entrypoint; the
    // follower brokers would retry forever, and nothing here provides flux
    Path marker = runDir.resolve("flux-ran");
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: flux}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                parallelism: 2
                completions: 2
                template:
                  spec:
                    initContainers:
                    - name: flux-installer
                      image: ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy
                      command: [sh, -c, 'touch %s']
                    containers:
                    - name: node
                      image: ubuntu:jammy
                      command: [sh, -c, 'touch %s']
        """.formatted(marker, marker));

    JobSet failed = awaitCondition("flux", "Failed");

    assertThat(jobFailure("flux-node-0")).contains("container flux-installer exited with code 128")
        .contains("the local executor cannot run Flux (init container flux-installer of the Flux plugin): Flux "
            + "is not packaged in Debian");
    List<Pod> pods = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "flux").list()
        .getItems();
    // the Job fails with its first pods: a replacement would fail the same way
    assertThat(jobFailure("flux-node-0")).contains("Job has a pod that cannot run on this machine");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .filteredOn(e -> e.getInvolvedObject().getName().equals("flux-node-0"))
        .filteredOn(e -> e.getReason().equals("SuccessfulCreate")).hasSize(2));
    assertThat(pods).isNotEmpty().allSatisfy(pod -> assertThat(pod.getStatus().getInitContainerStatuses())
        .singleElement().satisfies(c -> assertThat(c.getState().getTerminated().getReason())
            .isEqualTo("RuntimeUnavailable")));
    assertThat(marker).doesNotExist();
  }

  @Test
  void aContainerWithoutCommandFailsItsJobAtOnceSayingThatNoImageEntrypointRunsHere() {
    // the initializers of the shipped torchtune runtimes rely on their images' entrypoints
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: entrypoint}
        spec:
          replicatedJobs:
          - name: initializer
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: model-initializer
                      image: ghcr.io/kubeflow/trainer/model-initializer:v2.3.0
        """);

    JobSet failed = awaitCondition("entrypoint", "Failed");

    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).isNotEmpty();
    assertThat(jobFailure("entrypoint-initializer-0")).contains("Job has a pod that cannot run on this machine")
        .contains("container \"model-initializer\" of image \"ghcr.io/kubeflow/trainer/model-initializer:v2.3.0\" "
            + "needs a command");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .filteredOn(e -> e.getInvolvedObject().getName().equals("entrypoint-initializer-0"))
        .filteredOn(e -> e.getReason().equals("SuccessfulCreate")).hasSize(1));
  }

  @Test
  void aSidecarInitContainerFailsItsPodAtOnceInsteadOfHoldingItForever() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: sidecar}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    initContainers:
                    - {name: proxy, image: busybox, restartPolicy: Always, command: [sh, -c, 'sleep 600']}
                    containers:
                    - {name: node, image: busybox, command: [sh, -c, 'echo ran']}
        """);

    JobSet failed = awaitCondition("sidecar", "Failed");

    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).isNotEmpty();
    assertThat(jobFailure("sidecar-node-0")).contains("the local executor does not run sidecar containers: "
        + "init container \"proxy\" has restartPolicy Always");
  }

  @ParameterizedTest
  @ValueSource(strings = {"busybox", "pytorch/pytorch:2.5.0-cuda12.1", "registry.example.com:5000/team/train:v1",
      "ghcr.io/kubeflow/trainer@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
      "[::1]:5000/x:1", "a__b/c--d.e"})
  void validImagesPassTheKubeletsCheck(String image) {
    assertThat(ImageReference.error(image)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"team/Train", "a b", "x:", "x:tag:other", "-leading", "image\n", "名前", "x@sha256:12"})
  void invalidImagesFailTheKubeletsCheck(String image) {
    assertThat(ImageReference.error(image)).hasValue("Failed to apply default image tag \"" + image
        + "\": couldn't parse image name \"" + image + "\": invalid reference format");
  }

  @Test
  void deletingAJobSetMidRunEndsItsProcessesAndItsObjects() throws Exception {
    // the pod's pids are those of its PID namespace: the test finds the grandchild by its name
    String grandchild = "sleeper-" + java.util.UUID.randomUUID();
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: sleeper}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      image: busybox
                      command: [bash, -c, 'bash -c "exec -a %s sleep 300" & wait']
        """.formatted(grandchild));
    await().atMost(TIMEOUT).until(() -> !ProcessLifecycleTest.processes(grandchild).isEmpty());

    client.resources(JobSet.class).inNamespace(NS).withName("sleeper").delete();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(ProcessLifecycleTest.processes(grandchild)).isEmpty();
      assertThat(client.batch().v1().jobs().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "sleeper")
          .list().getItems()).isEmpty();
      assertThat(client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "sleeper")
          .list().getItems()).isEmpty();
      assertThat(client.services().inNamespace(NS).withName("sleeper").get()).isNull();
    });
  }

  @Test
  void suspendStopsThePodsAndResumeRunsThemToCompletion() throws Exception {
    Path marker = runDir.resolve("resume-marker");
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: pausing}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'if [ -f %s ]; then echo resumed; else sleep 300; fi']
        """.formatted(marker));
    await().atMost(TIMEOUT).until(() -> runningPods("pausing") == 1);

    client.resources(JobSet.class).inNamespace(NS).withName("pausing").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"suspend\":true}}");
    JobSet suspended = awaitCondition("pausing", "Suspended");
    assertThat(suspended.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Suspended"))
        .singleElement().satisfies(c -> assertThat(c.getReason()).isEqualTo("SuspendedJobs"));
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.pods().inNamespace(NS)
        .withLabel("jobset.sigs.k8s.io/jobset-name", "pausing").list().getItems()).isEmpty());

    Files.writeString(marker, "");
    client.resources(JobSet.class).inNamespace(NS).withName("pausing").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"suspend\":false}}");
    JobSet done = awaitCondition("pausing", "Completed");
    assertThat(done.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Suspended")).singleElement()
        .satisfies(c -> assertThat(c.getStatus() + " " + c.getReason()).isEqualTo("False ResumeJobs"));
  }

  @Test
  void podsPastTheBudgetStayPendingWithAReason(@TempDir Path gate) throws IOException {
    // the pods run until the test opens the gate, so the pending ones stay pending however slow the machine is
    Path open = gate.resolve("open");
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: wide}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                parallelism: 12
                completions: 12
                template:
                  spec:
                    containers:
                    - {name: node, image: busybox, command: [sh, -c, 'while [ ! -e %s ]; do sleep 0.1; done']}
        """.formatted(open));

    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.pods().inNamespace(NS)
        .withLabel("jobset.sigs.k8s.io/jobset-name", "wide").list().getItems())
        .filteredOn(p -> p.getStatus() != null && p.getStatus().getConditions() != null)
        .anySatisfy(p -> assertThat(p.getStatus().getConditions()).anySatisfy(c -> {
          assertThat(c.getReason()).isEqualTo("Unschedulable");
          assertThat(c.getMessage()).isEqualTo("0/1 nodes are available: 1 Too many pods.");
        })));
    Files.createFile(open);
    awaitCondition("wide", "Completed");
  }

  @Test
  void followingALogStreamsUntilTheProcessEndsAndTailStartsAtTheLastLines() throws Exception {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: talker}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - {name: node, image: busybox, command: [sh, -c, 'for i in 1 2 3 4 5; do echo line $i; sleep 0.3; done']}
        """);
    await().atMost(TIMEOUT).until(() -> runningPods("talker") == 1);
    String pod = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "talker").list()
        .getItems().get(0).getMetadata().getName();

    try (InputStream in = executor.openLog(NS, pod, "node", true, null).orElseThrow()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("line 1\nline 2\nline 3\nline 4\nline 5\n");
    }
    assertThat(log(pod, "node", 2)).isEqualTo("line 4\nline 5\n");
    assertThat(executor.openLog(NS, pod, "sidecar", false, null)).isEmpty();
    assertThat(executor.openLog(NS, "no-such-pod", "node", false, null)).isEmpty();
  }

  @Test
  void aLogIsServedWholeWithTimestampsAndARestartedContainersPreviousLogStaysReadable() throws Exception {
    Path marker = runDir.resolve("restart-marker");
    client.resource(client.getKubernetesSerialization().unmarshal("""
        apiVersion: v1
        kind: Pod
        metadata: {name: restarter, namespace: default}
        spec:
          restartPolicy: OnFailure
          containers:
          - name: node
            image: busybox
            command: [sh, -c, 'head -c 20000000 /dev/zero | tr "\\0" x; echo; if [ -f %s ]; then echo second; exit 0; fi; touch %s; echo first; exit 1']
        """.formatted(marker, marker), Pod.class)).create();
    Pod pod = await().atMost(TIMEOUT).until(() -> client.pods().inNamespace(NS).withName("restarter").get(),
        p -> p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase()));
    String name = pod.getMetadata().getName();
    assertThat(pod.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);

    String current = log(name, "node", null);
    assertThat(current).hasSize(20_000_000 + "\nsecond\n".length()).endsWith("x\nsecond\n");
    try (InputStream in = executor.openLog(NS, name, "node", new LocalExecutor.LogOptions(false, 1, null, false,
        true)).orElseThrow()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("first\n");
    }
    try (InputStream in = executor.openLog(NS, name, "node", new LocalExecutor.LogOptions(false, 2, null, true,
        false)).orElseThrow()) {
      String stamped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(stamped.lines().toList()).hasSize(2).allSatisfy(line -> assertThat(line)
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z (x+|second)"));
      java.time.Instant stamp = java.time.Instant.parse(stamped.substring(0, stamped.indexOf(' ')));
      assertThat(stamp).isBetween(java.time.Instant.parse(pod.getStatus().getStartTime()),
          java.time.Instant.now());
    }
    try (InputStream in = executor.openLog(NS, name, "node", new LocalExecutor.LogOptions(false, null,
        java.time.Instant.now().plusSeconds(60), false, false)).orElseThrow()) {
      assertThat(in.readAllBytes()).isEmpty();
    }
  }

  @Test
  void previousOfAContainerThatNeverRestartedIsTheKubeletsError() {
    create("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: once}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - {name: node, image: busybox, command: [sh, -c, 'echo once']}
        """);
    awaitCondition("once", "Completed");
    String name = client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", "once").list()
        .getItems().get(0).getMetadata().getName();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> executor.openLog(NS, name, "node",
        new LocalExecutor.LogOptions(false, null, null, false, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("previous terminated container \"node\" in pod \"" + name + "\" not found");
  }

  private static long runningPods(String jobSet) {
    return client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", jobSet).list().getItems()
        .stream().filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count();
  }

  private static String log(String pod, String container, Integer tail) {
    try (InputStream in = executor.openLog(NS, pod, container, false, tail).orElseThrow()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The message of the Job's {@code Failed} condition. */
  private static String jobFailure(String job) {
    return client.batch().v1().jobs().inNamespace(NS).withName(job).get().getStatus().getConditions().stream()
        .filter(c -> c.getType().equals("Failed")).findFirst().orElseThrow().getMessage();
  }

  private static void create(String yaml) {
    local.create(yaml);
  }

  private static JobSet awaitCondition(String name, String type) {
    return local.awaitCondition(name, type, TIMEOUT);
  }

}
