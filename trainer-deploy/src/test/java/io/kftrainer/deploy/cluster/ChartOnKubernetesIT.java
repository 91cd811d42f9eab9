package io.kftrainer.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Tools;
import io.kftrainer.deploy.image.BwrapContainer;
import io.kftrainer.deploy.image.ImageArchive;
import io.kftrainer.lab.AuditLog;
import io.kftrainer.lab.Kueue;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabBinaries;
import io.kftrainer.lab.LabExtension;
import io.kftrainer.lab.LabPorts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.Prometheus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator on real Kubernetes ({@link Lab}: kube-apiserver, controller manager, scheduler, kwok nodes, the real
 * JobSet controller), installed as a cluster operator installs it: {@code helm install} of the chart with the
 * runtimes on, the webhooks called by kube-apiserver at {@code webhook.url} (the operator runs outside the
 * cluster's network), and the operator from the image as the chart's Deployment runs it ({@link OperatorPod}),
 * authenticated as the chart's ServiceAccount with a token from TokenRequest: the chart's RBAC is all it has.
 * Each example TrainJob then runs to {@code Complete} on kwok's nodes; a failing pod fails its TrainJob; a deleted
 * TrainJob's children go with the real garbage collector; an invalid TrainJob is refused through kube-apiserver; a
 * suspended TrainJob runs nothing until resumed; the status server takes a pod's real token (feature gate
 * {@code TrainJobStatus} on); metrics answer through real TokenReview and SubjectAccessReview; and kube-apiserver's
 * audit log shows no request of the operator that its RBAC refused.
 */
@ExtendWith(LabExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChartOnKubernetesIT {

  private static final String RELEASE = "kubeflow-trainer";
  private static final String NAMESPACE = "kubeflow-system";
  private static final String DEPLOYMENT = "kubeflow-trainer-controller-manager";
  private static final String EXAMPLES = "examples";
  private static final String UPSTREAM_EXAMPLES = "upstream-examples";
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(2);
  /** Examples whose pods cannot be scheduled here: the runtime asks for the scheduler-plugins scheduler. */
  private static final List<String> NOT_SCHEDULED = List.of("torch-coscheduling.yaml");
  /** The PodGroup CRDs of scheduler-plugins and Volcano, as the gang-scheduling plugins ship them. */
  private static final List<String> POD_GROUP_CRDS = List.of(
      "trainer-plugins-coscheduling/src/main/resources/META-INF/trainer/crds/scheduling.x-k8s.io_podgroups.yaml",
      "trainer-plugins-volcano/src/main/resources/META-INF/trainer/crds/scheduling.volcano.sh_podgroups.yaml");

  /** A TrainJob the validating webhook refuses: its runtime does not exist. */
  private static final String NO_SUCH_RUNTIME = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: no-such-runtime
      spec:
        runtimeRef:
          name: no-such-runtime
      """;

  private static Lab lab;
  private static KubernetesClient admin;
  private static BwrapContainer operator;
  private static int healthPort;
  private static int metricsPort;
  private static int statusPort;
  private static int webhookPort;
  private static BwrapContainer secondReplica;
  private static BwrapContainer certManaged;
  private static Path work;
  private static ImageArchive image;

  /**
   * The install that brings the CRDs, runtimes on: the installer Job applies them once kube-apiserver serves their
   * kind (helm could not map them: it failed here once in two installs when the runtimes were its hook).
   */
  @BeforeAll
  static void installAndStartTheOperator(Lab started) throws Exception {
    lab = started;
    admin = lab.admin();
    String helm = Tools.helm();
    Assumptions.assumeTrue(BwrapContainer.available(), BwrapContainer.unavailableReason());
    work = Deploy.workDir("chart-on-kubernetes");
    Path root = work.resolve("rootfs");
    image = Deploy.unpackedImage(root);

    healthPort = LabPorts.free();
    metricsPort = LabPorts.free();
    statusPort = LabPorts.free();
    webhookPort = LabPorts.free();
    List<String> install = List.of(helm, "install", RELEASE, Deploy.chart().toString(), "--kubeconfig",
        lab.adminKubeconfig().toString(), "-n", NAMESPACE, "--create-namespace", "--wait", "--timeout", "3m",
        "--set", "runtimes.defaultEnabled=true",
        // the installer's pod is run by this test (runTheInstallerPod): off the kwok nodes, which would pretend to
        "--set", "runtimes.installer.nodeSelector.lab-node=kubelet-less",
        "--set", "webhook.url=https://127.0.0.1:" + webhookPort,
        "--set", "manager.config.webhook.host=127.0.0.1",
        "--set", "manager.config.webhook.port=" + webhookPort,
        "--set", "manager.config.health.healthProbeBindAddress=127.0.0.1:" + healthPort,
        "--set", "manager.config.metrics.bindAddress=127.0.0.1:" + metricsPort,
        "--set", "manager.config.metrics.auth.enabled=true",
        "--set", "manager.config.statusServer.port=" + statusPort,
        "--set", "manager.config.featureGates.TrainJobStatus=true");
    CompletableFuture<Tools.Result> installing = CompletableFuture.supplyAsync(() -> {
      try {
        return Tools.run(install, null);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    runTheInstallerPod(root, installing);
    installing.join().success();

    // the schedulers' PodGroup CRDs, before the operator starts (it watches the PodGroup kinds that are served)
    for (String crd : POD_GROUP_CRDS) {
      try (var in = Files.newInputStream(Deploy.projectDir().resolve(crd))) {
        admin.load(in).serverSideApply();
      }
    }
    lab.awaitServed("scheduling.x-k8s.io/v1alpha1", "PodGroup", Duration.ofSeconds(30));
    lab.awaitServed("scheduling.volcano.sh/v1beta1", "PodGroup", Duration.ofSeconds(30));
    for (String kind : List.of("TrainJob", "TrainingRuntime", "ClusterTrainingRuntime")) {
      lab.awaitServed("trainer.kubeflow.org/v1alpha1", kind, Duration.ofSeconds(30));
    }

    long start = System.nanoTime();
    operator = OperatorPod.start(lab, root, image.config(), NAMESPACE, DEPLOYMENT,
        "kubeflow-trainer-controller-manager-6b7f9-lab01", work);
    OperatorPod.awaitReady("the operator's /readyz answers 200", operator, healthPort, READY_TIMEOUT);
    System.out.printf("Operator on Kubernetes %s: ready %.1f s after its container started%n",
        lab.versions().get("kubernetes"), (System.nanoTime() - start) / 1e9);

    for (String namespace : List.of(EXAMPLES, UPSTREAM_EXAMPLES)) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    // kube-apiserver reads webhook configurations from an informer: the CA bundle the operator published before it
    // was ready reaches admission a moment later (a create in that moment fails with "x509: certificate signed by
    // unknown authority"), as on any cluster right after an install
    await("kube-apiserver calls the operator's webhooks").atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200)).until(() -> kubectl("create", "--dry-run=server", "-n", EXAMPLES,
            "-f", "-").withInput("""
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                metadata:
                  name: admitted
                spec:
                  runtimeRef:
                    name: torch-distributed
                """).exitCode() == 0);
    // the node pools the runtime-patches examples (ours, upstream's) pin their pods to, as a platform team labels
    for (String node : List.of("kwok-node-2", "kwok-node-3")) {
      admin.nodes().withName(node).edit(n -> {
        n.getMetadata().getLabels().put("example.com/node-pool", "a100-pool");
        n.getMetadata().getLabels().put("node-type", "training");
        return n;
      });
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (operator != null) {
      operator.close();
    }
    if (secondReplica != null) {
      secondReplica.close();
    }
    if (certManaged != null) {
      certManaged.close();
    }
  }

  @Test
  @Order(1)
  void kubeApiServerServesTheChartsCrdsAndRuntimes() throws IOException {
    for (String crd : List.of("trainjobs", "trainingruntimes", "clustertrainingruntimes")) {
      assertThat(admin.apiextensions().v1().customResourceDefinitions().withName(crd + ".trainer.kubeflow.org")
          .get().getStatus().getConditions()).as(crd)
          .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Established=True"));
    }
    assertThat(admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime").list()
        .getItems()).hasSize(8);
    String explain = kubectl("explain", "trainjobs.spec.trainer.numNodes").success();
    assertThat(explain).contains("TrainJob").contains("numNodes");
  }

  static Stream<String> examples() throws IOException {
    try (Stream<Path> files = Files.list(Deploy.projectDir().resolve("examples"))) {
      return files.map(f -> f.getFileName().toString())
          .filter(f -> f.endsWith(".yaml") && !NOT_SCHEDULED.contains(f) && !f.startsWith("hpo-"))
          .sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("examples")
  @Order(2)
  void anExampleTrainJobRunsToCompleteOnKwokNodes(String example) throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", Deploy.projectDir().resolve("examples").resolve(example).toString())
        .success();
    String name = trainJobName(example);

    await(example + " Complete").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(condition(name, "Complete")).as("%s; Failed: %s", name, condition(name, "Failed"))
            .hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")
                .containsEntry("reason", "AllJobsCompleted")));
    GenericKubernetesResource jobSet = admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(EXAMPLES).withName(name).get();
    assertThat(jobSet.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getKind() + "/" + owner.getName()).isEqualTo("TrainJob/" + name));
  }

  /**
   * Upstream's own examples (kubeflow/trainer's {@code examples/}, at the version the lab pins: its module,
   * downloaded by {@code .ci/build-lab}), applied unchanged: each TrainJob completes (the runtime-patches one once
   * the ServiceAccount it names exists, as its header asks; the Flux one after its ClusterTrainingRuntime). The
   * others: {@link #upstreamsKueueExampleWaitsSuspendedWhereNoKueueAdmitsIt},
   * {@link #upstreamsMultiStepExampleIsRefusedAsUpstreamRefusesIt}, {@link #upstreamsVolcanoExampleGetsItsPodGroup};
   * not here: the interactive Flux job and the GPU variant of the Flux one (the same TrainJob name).
   */
  @ParameterizedTest
  @ValueSource(strings = {"01-multi-node.yaml", "02-runtime-patches.yaml", "lammps-train-job.yaml"})
  @Order(2)
  void anUpstreamExampleRunsToComplete(String example) throws IOException {
    Path examples = lab.data("upstream-examples");
    if (example.startsWith("lammps")) {
      kubectl("apply", "-f", examples.resolve("flux-runtime.yaml").toString()).success();
    }
    if (example.startsWith("02-")) {
      kubectl("create", "serviceaccount", "training-sa", "-n", UPSTREAM_EXAMPLES).success();
    }
    kubectl("apply", "-n", UPSTREAM_EXAMPLES, "-f", examples.resolve(example).toString()).success();
    String name = names(examples.resolve(example), "TrainJob").get(0);

    await(example + " Complete").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(condition(UPSTREAM_EXAMPLES, name, "Complete"))
            .as("%s; Failed: %s", name, condition(UPSTREAM_EXAMPLES, name, "Failed"))
            .hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")
                .containsEntry("reason", "AllJobsCompleted")));
  }

  /** Its TrainJob is created suspended for Kueue to admit; where no Kueue runs it stays suspended, with no pod. */
  @Test
  @Order(3)
  void upstreamsKueueExampleWaitsSuspendedWhereNoKueueAdmitsIt() throws IOException {
    Path example = lab.data("upstream-examples").resolve("03-kueue-integration.yaml");
    kubectl("apply", "-n", UPSTREAM_EXAMPLES, "-f", example.toString()).success();
    String name = names(example, "TrainJob").get(0);

    await(name + " Suspended").atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(condition(UPSTREAM_EXAMPLES, name,
        "Suspended")).hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")));
    assertThat(admin.pods().inNamespace(UPSTREAM_EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", name).list()
        .getItems()).isEmpty();
  }

  /**
   * Its runtime's dataset-initializer container mounts no {@code initializer} volume, which upstream's JobSet plugin
   * requires of a TrainJob with a dataset (v2.3's {@code jobset.go} refuses it with this message): the example is
   * refused here as there, and the runtime it created stays.
   */
  @Test
  @Order(3)
  void upstreamsMultiStepExampleIsRefusedAsUpstreamRefusesIt() throws IOException {
    Tools.Result refused = kubectl("apply", "-n", UPSTREAM_EXAMPLES, "-f",
        lab.data("upstream-examples").resolve("05-multi-step.yaml").toString()).withInput(null);

    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err()).isEqualTo("The TrainJob \"multi-step-example\" is invalid: spec.runtimeRef: Invalid "
        + "value: {\"name\":\"torch-with-dataset-init\",\"apiGroup\":\"trainer.kubeflow.org\",\"kind\":"
        + "\"TrainingRuntime\"}: must have volumeMount with name - initializer in container dataset-initializer of "
        + "the dataset-initializer job\n");
  }

  @Test
  @Order(3)
  void upstreamsVolcanoExampleGetsItsPodGroup() throws IOException {
    Path example = lab.data("upstream-examples").resolve("04-volcano-integration.yaml");
    kubectl("apply", "-n", UPSTREAM_EXAMPLES, "-f", example.toString()).success();
    String name = names(example, "TrainJob").get(0);

    await("the Volcano PodGroup of " + name).atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(admin
        .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace(UPSTREAM_EXAMPLES)
        .withName(name).get()).isNotNull());
  }

  @Test
  @Order(3)
  void theMpiExampleGetsItsSshSecretAndHostfileOwnedByItsTrainJob() {
    String name = "deepspeed-gpu";
    Secret ssh = admin.secrets().inNamespace(EXAMPLES).withName(name + "-mpi-ssh-auth").get();
    assertThat(ssh).as("the SSH Secret").isNotNull();
    assertThat(ssh.getType()).isEqualTo("kubernetes.io/ssh-auth");
    assertThat(ssh.getData()).containsKey("ssh-privatekey");
    ConfigMap hostfile = admin.configMaps().inNamespace(EXAMPLES).withName(name + "-mpi-hostfile").get();
    assertThat(hostfile).as("the hostfile").isNotNull();
    assertThat(hostfile.getData().get("hostfile")).contains(name + "-node-0-0." + name + " slots=8");
    for (HasMetadata child : List.of(ssh, hostfile)) {
      assertThat(child.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(owner -> assertThat(owner.getKind() + "/" + owner.getName()).isEqualTo("TrainJob/" + name));
    }
  }

  /**
   * Gang scheduling, as far as a cluster without the schedulers goes: the PodGroup is created from the runtime's
   * {@code podGroupPolicy} (scheduler-plugins' and Volcano's), and the pods wait for their scheduler.
   */
  @Test
  @Order(3)
  void gangSchedulingRuntimesGetTheirPodGroups() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", Deploy.projectDir().resolve("examples/torch-coscheduling.yaml").toString())
        .success();
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: torch-volcano
        spec:
          mlPolicy:
            numNodes: 2
            torch: {}
          podGroupPolicy:
            volcano: {}
          template:
            spec:
              replicatedJobs:
                - name: node
                  template:
                    metadata:
                      labels:
                        trainer.kubeflow.org/trainjob-ancestor-step: trainer
                    spec:
                      template:
                        spec:
                          containers:
                            - name: node
                              image: pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime
        ---
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: torch-volcano
        spec:
          runtimeRef:
            kind: TrainingRuntime
            name: torch-volcano
          trainer:
            command: ["python3", "-c", "print('gang')"]
        """).success();

    await("both PodGroups").atMost(JOB_TIMEOUT).untilAsserted(() -> {
      GenericKubernetesResource coscheduling = admin.genericKubernetesResources("scheduling.x-k8s.io/v1alpha1",
          "PodGroup").inNamespace(EXAMPLES).withName("torch-gang").get();
      assertThat(coscheduling).as("scheduler-plugins' PodGroup").isNotNull();
      assertThat((Integer) coscheduling.get("spec", "minMember")).isEqualTo(3);
      GenericKubernetesResource volcano = admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1",
          "PodGroup").inNamespace(EXAMPLES).withName("torch-volcano").get();
      assertThat(volcano).as("Volcano's PodGroup").isNotNull();
      assertThat((Integer) volcano.get("spec", "minMember")).isEqualTo(2);
    });
    await("the gang's pods created").atMost(JOB_TIMEOUT).untilAsserted(() ->
        assertThat(admin.pods().inNamespace(EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", "torch-gang")
            .list().getItems()).hasSize(3).allSatisfy(pod -> {
              assertThat(pod.getSpec().getSchedulerName()).isEqualTo("scheduler-plugins-scheduler");
              assertThat(pod.getMetadata().getLabels()).containsEntry("scheduling.x-k8s.io/pod-group", "torch-gang");
              assertThat(pod.getSpec().getNodeName()).as("no scheduler of that name runs here").isNull();
            }));
  }

  /** A TrainJob whose pods cannot start (no node has the label it asks for) fails at its deadline. */
  @Test
  @Order(3)
  void aTrainJobPastItsActiveDeadlineFails() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: deadline
        spec:
          runtimeRef:
            name: torch-distributed
          activeDeadlineSeconds: 5
          trainer:
            command: ["python3", "-c", "print('never scheduled')"]
          runtimePatches:
            - manager: lab.kftrainer.io/unschedulable
              trainingRuntimeSpec:
                template:
                  spec:
                    replicatedJobs:
                      - name: node
                        template:
                          spec:
                            template:
                              spec:
                                nodeSelector:
                                  example.com/node-pool: no-such-pool
        """).success();
    await("deadline Failed").atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(condition("deadline", "Failed"))
        .hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")
            .containsEntry("reason", "DeadlineExceeded")));
  }

  /** The runtime a TrainJob was admitted with holds, whatever happens to the runtime later. */
  @Test
  @Order(3)
  void aRuntimeChangedAfterItsTrainJobStartedDoesNotChangeTheTrainJob() throws IOException {
    String runtime = """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: torch-changing
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
          template:
            spec:
              replicatedJobs:
                - name: node
                  template:
                    metadata:
                      labels:
                        trainer.kubeflow.org/trainjob-ancestor-step: trainer
                    spec:
                      template:
                        spec:
                          containers:
                            - name: node
                              image: IMAGE
        """;
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput(runtime.replace("IMAGE", "example.com/train:v1") + """
        ---
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: snapshot
        spec:
          runtimeRef:
            kind: TrainingRuntime
            name: torch-changing
          suspend: true
          trainer:
            command: ["python3", "-c", "print('v1')"]
        """).success();
    await("snapshot's JobSet").atMost(JOB_TIMEOUT).until(() -> jobSetImage("snapshot").isPresent());

    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput(runtime.replace("IMAGE", "example.com/train:v2"))
        .success();
    kubectl("patch", "trainjob", "snapshot", "-n", EXAMPLES, "--type=merge", "-p", "{\"spec\":{\"suspend\":false}}")
        .success();
    await("snapshot Complete").atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(condition("snapshot",
        "Complete")).hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")));
    assertThat(jobSetImage("snapshot")).contains("example.com/train:v1");
  }

  private static Optional<String> jobSetImage(String name) {
    GenericKubernetesResource jobSet = admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(EXAMPLES).withName(name).get();
    return jobSet == null ? Optional.empty() : Optional.ofNullable(jobSet.get("spec", "replicatedJobs", 0, "template",
        "spec", "template", "spec", "containers", 0, "image"));
  }

  /** KEP-2899's ttlSecondsAfterFinished with the real garbage collector, and the status times (issue 35, item 4). */
  @Test
  @Order(3)
  void aFinishedTrainJobIsDeletedWithItsChildrenAfterItsTtl() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: ttl
        spec:
          runtimeRef:
            name: torch-distributed
          ttlSecondsAfterFinished: 5
          trainer:
            command: ["python3", "-c", "print('done')"]
        """).success();
    await("ttl Complete").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
        assertThat(condition("ttl", "Complete")).hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")));
    GenericKubernetesResource finished = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob")
        .inNamespace(EXAMPLES).withName("ttl").get();
    String completionTime = finished == null ? null : finished.get("status", "completionTime");
    if (finished != null) { // not deleted yet: the status has both times
      assertThat((String) finished.get("status", "startTime")).isNotNull();
      assertThat(completionTime).isEqualTo(condition("ttl", "Complete").map(c -> c.get("lastTransitionTime"))
          .orElse(completionTime));
    }

    await("ttl deleted").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(250)).until(() -> admin
        .genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(EXAMPLES)
        .withName("ttl").get() == null);
    await("ttl's children deleted").atMost(JOB_TIMEOUT).until(() -> admin
        .genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(EXAMPLES).withName("ttl")
        .get() == null && admin.pods().inNamespace(EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", "ttl")
        .list().getItems().isEmpty());
  }

  /** The CEL rules of the runtime CRDs (KEP-2899), as kube-apiserver evaluates them. */
  @Test
  @Order(3)
  void aRuntimeTemplateWithAJobSetsOwnTtlIsRefusedNamingTheField() throws IOException {
    Tools.Result refused = kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: own-ttl
        spec:
          template:
            spec:
              ttlSecondsAfterFinished: 60
              replicatedJobs:
                - name: node
                  template:
                    spec:
                      activeDeadlineSeconds: 60
                      template:
                        spec:
                          containers:
                            - name: node
                              image: example.com/train:v1
        """);

    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err()).contains("spec.template.spec.ttlSecondsAfterFinished: Invalid value",
        "ttlSecondsAfterFinished must not be set in the JobSet template", "set spec.runPolicy.ttlSecondsAfterFinished",
        "spec.template.spec.replicatedJobs: Invalid value",
        "activeDeadlineSeconds must not be set in the Job template of a replicated job");
  }

  /**
   * JobSet restarts with the real JobSet controller (issue 35, items 1 and 2), the case trainer-executor's
   * FailurePolicyTest plays in local: kwok's chaos stage kills every attempt's pod as an out-of-memory kill; each
   * restart is a Restarting Event on the TrainJob naming the pod, its node and why, the annotation counts them, and
   * the third failure, past maxRestarts 2, fails the TrainJob with JobSet's reason and a message naming the last
   * failed pod.
   */
  @Test
  @Order(3)
  void aThirdFailurePastMaxRestartsTwoFailsTheTrainJobNamingTheLastFailedPod() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: torch-restarting
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
          template:
            spec:
              failurePolicy:
                maxRestarts: 2
              replicatedJobs:
                - name: node
                  template:
                    metadata:
                      labels:
                        trainer.kubeflow.org/trainjob-ancestor-step: trainer
                    spec:
                      backoffLimit: 0
                      template:
                        metadata:
                          labels:
                            pod-container-running-failed.stage.kwok.x-k8s.io: "true"
                          annotations:
                            pod-container-running-failed.stage.kwok.x-k8s.io/exit-code: "137"
                            pod-container-running-failed.stage.kwok.x-k8s.io/reason: OOMKilled
                        spec:
                          containers:
                            - name: node
                              image: pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime
        ---
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: restarting
        spec:
          runtimeRef:
            kind: TrainingRuntime
            name: torch-restarting
          trainer:
            command: ["python3", "-c", "raise SystemExit(1)"]
        """).success();
    await("restarting Failed").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(condition("restarting", "Failed")).hasValueSatisfying(c -> assertThat(c)
            .containsEntry("status", "True").containsEntry("reason", "ReachedMaxRestarts")));
    String lastPod = admin.pods().inNamespace(EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", "restarting")
        .withLabel("jobset.sigs.k8s.io/restart-attempt", "2").list().getItems().get(0).getMetadata().getName();
    assertThat(condition("restarting", "Failed").orElseThrow().get("message")).asString()
        .matches("(?s)jobset failed due to reaching max number of restarts \\(first failed job: restarting-node-0\\); "
            + "pod examples/" + lastPod + " on \\S+: container node exited with code 137 \\(OOMKilled\\)"
            + "; last lines:\ncontainer failed"); // kwok's termination message
    await("restarting's Restarting Events").atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(admin.v1().events()
        .inNamespace(EXAMPLES).list().getItems())
        .filteredOn(e -> "restarting".equals(e.getInvolvedObject().getName())
            && "TrainJob".equals(e.getInvolvedObject().getKind()) && "Restarting".equals(e.getReason()))
        .extracting(e -> e.getMessage()).hasSize(2).allSatisfy(m -> assertThat(m)
            .matches("restart [12]/2 after pod examples/restarting-node-0-0-\\w+ on \\S+ failed: OOMKilled "
                + "\\(exit code 137\\)")));
    assertThat(admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(EXAMPLES)
        .withName("restarting").get().getMetadata().getAnnotations()).containsEntry("kftrainer.io/restarts", "2");
    List<String> table = kubectl("get", "trainjob", "restarting", "-n", EXAMPLES).success().lines().toList();
    assertThat(table.get(1).split("\\s+")).startsWith("restarting", "Failed", "2");
  }

  /**
   * An exit code the runtime declares fatal (its Job's podFailurePolicy, its JobSet's FailJobSet rule) fails the
   * TrainJob at once with the real Job and JobSet controllers, without a restart: kwok's chaos stage exits 42.
   */
  @Test
  @Order(3)
  void anExitCodeTheRuntimeDeclaresFatalFailsTheTrainJobAtOnce() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: torch-fatal
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
          template:
            spec:
              failurePolicy:
                maxRestarts: 2
                rules:
                  - {name: fatal, action: FailJobSet, onJobFailureReasons: [PodFailurePolicy]}
              replicatedJobs:
                - name: node
                  template:
                    metadata:
                      labels:
                        trainer.kubeflow.org/trainjob-ancestor-step: trainer
                    spec:
                      backoffLimit: 0
                      podFailurePolicy:
                        rules:
                          - {action: FailJob, onExitCodes: {operator: In, values: [42]}}
                      template:
                        metadata:
                          labels:
                            pod-container-running-failed.stage.kwok.x-k8s.io: "true"
                          annotations:
                            pod-container-running-failed.stage.kwok.x-k8s.io/exit-code: "42"
                        spec:
                          restartPolicy: Never
                          containers:
                            - name: node
                              image: pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime
        ---
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: fatal
        spec:
          runtimeRef:
            kind: TrainingRuntime
            name: torch-fatal
          trainer:
            command: ["python3", "-c", "raise SystemExit(42)"]
        """).success();
    await("fatal Failed").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(condition("fatal", "Failed")).hasValueSatisfying(c -> assertThat(c)
            .containsEntry("status", "True").containsEntry("reason", "FailJobSetFailurePolicyAction")));
    assertThat(condition("fatal", "Failed").orElseThrow().get("message")).asString()
        .matches("(?s)applying FailJobSet failure policy action \\(first failed job: fatal-node-0\\); pod "
            + "examples/fatal-node-0-0-\\w+ on \\S+: container node exited with code 42 \\(containerFailed\\); "
            + "last lines:\ncontainer failed");
    assertThat(admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(EXAMPLES)
        .withName("fatal").get().getMetadata().getAnnotations()).doesNotContainKey("kftrainer.io/restarts");
    assertThat(admin.batch().v1().jobs().inNamespace(EXAMPLES).withName("fatal-node-0").get().getStatus()
        .getConditions()).anySatisfy(c -> assertThat(c.getReason() + ": " + c.getMessage()).matches("PodFailurePolicy: "
            + "Container node for pod examples/fatal-node-0-0-\\w+ failed with exit code 42 matching FailJob rule at "
            + "index 0"));
  }

  /**
   * Preemption by a queue (issue 35, item 5), with Kueue's TrainJob integration from the Go module proxy: on a
   * ClusterQueue of 1 CPU, a low-priority TrainJob is admitted and runs; a high-priority one preempts it (Kueue
   * suspends it, its JobSet and pods go), runs to Complete while the first waits for the quota, then the first
   * resumes and completes. kwok's pods train nothing, so the resume from a checkpoint is CheckpointResumeTest's.
   */
  @Test
  @Order(4)
  void aTrainJobPreemptedByKueueWaitsForTheQuotaThenResumesAndCompletes() throws Exception {
    LabBinaries binaries = LabBinaries.find().orElseThrow();
    Assumptions.assumeTrue(Kueue.binary(binaries).isPresent(), () -> Kueue.missingReason(binaries));
    try (Kueue kueue = Kueue.start(lab, binaries, lab.work().resolve("kueue"))) {
      kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
          apiVersion: kueue.x-k8s.io/v1beta2
          kind: ResourceFlavor
          metadata: {name: default}
          ---
          apiVersion: kueue.x-k8s.io/v1beta2
          kind: ClusterQueue
          metadata: {name: training}
          spec:
            namespaceSelector: {}
            preemption: {withinClusterQueue: LowerPriority}
            resourceGroups:
            - coveredResources: [cpu]
              flavors:
              - name: default
                resources: [{name: cpu, nominalQuota: 1}]
          ---
          apiVersion: kueue.x-k8s.io/v1beta2
          kind: LocalQueue
          metadata: {name: training}
          spec: {clusterQueue: training}
          ---
          apiVersion: kueue.x-k8s.io/v1beta2
          kind: WorkloadPriorityClass
          metadata: {name: low}
          value: 100
          ---
          apiVersion: kueue.x-k8s.io/v1beta2
          kind: WorkloadPriorityClass
          metadata: {name: high}
          value: 1000
          ---
          apiVersion: trainer.kubeflow.org/v1alpha1
          kind: TrainingRuntime
          metadata: {name: torch-queued}
          spec:
            mlPolicy: {numNodes: 1, torch: {}}
            template:
              spec:
                replicatedJobs:
                  - name: node
                    template:
                      metadata:
                        labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
                      spec:
                        template:
                          metadata:
                            annotations: {pod-complete.stage.kwok.x-k8s.io/delay: "10s"}
                          spec:
                            containers:
                              - name: node
                                image: pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime
          """).success();
      kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput(queued("queued-low", "low")).success();
      await("queued-low running").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(200))
          .until(() -> running("queued-low"));

      kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput(queued("queued-high", "high")).success();

      await("queued-low preempted").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
          assertThat(condition("queued-low", "Suspended")).hasValueSatisfying(c -> assertThat(c)
              .containsEntry("status", "True")));
      await("queued-high running").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(200))
          .until(() -> running("queued-high"));
      assertThat(running("queued-low")).as("the preempted TrainJob waits for the quota").isFalse();
      await("queued-high Complete").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
          assertThat(condition("queued-high", "Complete")).isPresent());
      await("queued-low Complete").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
          assertThat(condition("queued-low", "Complete")).isPresent());
      assertThat(condition("queued-low", "Suspended")).hasValueSatisfying(c -> assertThat(c)
          .containsEntry("status", "False").containsEntry("reason", "Resumed"));
      assertThat(kubectl("get", "workloads", "-n", EXAMPLES).success()).contains("trainjob-queued-low-",
          "trainjob-queued-high-");
    }
  }

  private static String queued(String name, String priority) {
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: %s
          labels: {kueue.x-k8s.io/queue-name: training, kueue.x-k8s.io/priority-class: %s}
        spec:
          runtimeRef: {kind: TrainingRuntime, name: torch-queued}
          trainer:
            command: [python3, train.py]
            resourcesPerNode: {requests: {cpu: "1"}}
        """.formatted(name, priority);
  }

  private static boolean running(String trainJob) {
    return admin.pods().inNamespace(EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", trainJob).list()
        .getItems().stream().anyMatch(p -> "Running".equals(p.getStatus().getPhase())
            && p.getMetadata().getDeletionTimestamp() == null);
  }

  /**
   * A runtime of the test's own whose Jobs allow no retry (the shipped ones keep Kubernetes' backoffLimit of 6,
   * minutes of backoff) and whose pods kwok's chaos stage fails with exit code 1 once Running.
   */
  @Test
  @Order(3)
  void aFailingPodFailsItsTrainJob() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: torch-crashing
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
          template:
            spec:
              replicatedJobs:
                - name: node
                  template:
                    metadata:
                      labels:
                        trainer.kubeflow.org/trainjob-ancestor-step: trainer
                    spec:
                      backoffLimit: 0
                      template:
                        metadata:
                          labels:
                            pod-container-running-failed.stage.kwok.x-k8s.io: "true"
                        spec:
                          containers:
                            - name: node
                              image: pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime
        ---
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: crashing
        spec:
          runtimeRef:
            kind: TrainingRuntime
            name: torch-crashing
          trainer:
            numNodes: 2
            command: ["python3", "-c", "raise SystemExit(1)"]
        """).success();
    await("crashing Failed").atMost(JOB_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(condition("crashing", "Failed")).hasValueSatisfying(c -> assertThat(c)
            .containsEntry("status", "True").containsEntry("reason", "FailedJobs")));
  }

  @Test
  @Order(4)
  void anInvalidTrainJobIsRefusedByTheWebhookThroughKubeApiServer() throws IOException {
    Tools.Result refused = kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput(NO_SUCH_RUNTIME);
    assertThat(refused.exitCode()).isNotZero();
    // the webhook's field error, as kube-apiserver passes on an admission webhook's Invalid Status
    assertThat(refused.err()).isEqualTo("The TrainJob \"no-such-runtime\" is invalid: spec.runtimeRef: Not found: "
        + "\"no-such-runtime\": specified clusterTrainingRuntime must be created before the TrainJob is created\n");
    assertThat(admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(EXAMPLES)
        .withName("no-such-runtime").get()).isNull();
  }

  /** An object the webhooks refuse, and the causes kubectl prints for it (after kube-apiserver's header). */
  record Refusal(String name, String yaml, List<String> causes) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Refusal> refusals() {
    String runtime = """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: bad-runtime
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
          template:
            spec:
              replicatedJobs:
                - name: node
                  replicas: REPLICAS
                  template:
                    metadata:
                      labels:
                        trainer.kubeflow.org/trainjob-ancestor-step: trainer
                    spec:
                      template:
                        spec:
                          containers:
                            - name: CONTAINER
                              image: pytorch/pytorch:2.5.0
        """;
    String trainJob = """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: bad-trainjob
        spec:
          runtimeRef:
            name: torch-distributed
          trainer:
        """;
    return Stream.of(
        new Refusal("a TrainJob with a plugin's two errors", trainJob + """
                numProcPerNode: many
                env:
                  - name: PET_NNODES
                    value: "4"
            """, List.of("spec.trainer.numProcPerNode: Invalid value: \"many\": must have an int value or "
            + "[auto cpu gpu]", "spec.trainer.env: Invalid value: [{\"name\":\"PET_NNODES\",\"value\":\"4\"}]: "
            + "must not have reserved envs, invalid envs configured: [PET_NNODES]")),
        new Refusal("a TrainingRuntime whose trainer job runs two replicas",
            runtime.replace("REPLICAS", "2").replace("CONTAINER", "node"),
            List.of("spec.template.spec.replicatedJobs[0].replicas: Invalid value: 2: always must be 1")),
        new Refusal("a TrainingRuntime whose trainer job has no node container",
            runtime.replace("REPLICAS", "1").replace("CONTAINER", "trainer"),
            List.of("spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers: Invalid value: "
                + "[{\"image\":\"pytorch/pytorch:2.5.0\",\"name\":\"trainer\"}]: must contain the")));
  }

  /** What a user sees when the webhooks refuse, through kube-apiserver and kubectl; nothing is created. */
  @ParameterizedTest
  @MethodSource("refusals")
  @Order(4)
  void theWebhooksRefusalsReachKubectlThroughKubeApiServer(Refusal refusal) throws IOException {
    Tools.Result refused = kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput(refusal.yaml());

    assertThat(refused.exitCode()).isNotZero();
    String kind = refusal.yaml().contains("kind: TrainJob") ? "TrainJob" : "TrainingRuntime";
    String name = kind.equals("TrainJob") ? "bad-trainjob" : "bad-runtime";
    assertThat(refused.err()).startsWith("The " + kind + " \"" + name + "\" is invalid: ");
    for (String cause : refusal.causes()) {
      assertThat(refused.err()).contains(cause);
    }
    assertThat(admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", kind).inNamespace(EXAMPLES)
        .withName(name).get()).isNull();
  }

  @Test
  @Order(5)
  void aDeletedTrainJobsChildrenAreRemovedByTheGarbageCollector() throws IOException {
    String name = trainJobName("torch-trainjob.yaml");
    assertThat(admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(EXAMPLES)
        .withName(name).get()).isNotNull();
    kubectl("delete", "trainjob", name, "-n", EXAMPLES, "--wait=false").success();
    await("the JobSet and its Jobs deleted").atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
      assertThat(admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(EXAMPLES)
          .withName(name).get()).isNull();
      assertThat(admin.batch().v1().jobs().inNamespace(EXAMPLES)
          .withLabel("jobset.sigs.k8s.io/jobset-name", name).list().getItems()).isEmpty();
    });
  }

  @Test
  @Order(6)
  void aSuspendedTrainJobRunsNothingUntilResumedThenCompletes() throws IOException {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: progress
        spec:
          runtimeRef:
            name: torch-distributed
          suspend: true
          trainer:
            numNodes: 2
            command: ["python3", "-c", "print('training')"]
        """).success();
    await("progress Suspended").atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(condition("progress",
        "Suspended")).hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")));
    GenericKubernetesResource jobSet = admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(EXAMPLES).withName("progress").get();
    assertThat((Boolean) jobSet.get("spec", "suspend")).isTrue();
    assertThat(admin.pods().inNamespace(EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", "progress").list()
        .getItems()).isEmpty();

    kubectl("patch", "trainjob", "progress", "-n", EXAMPLES, "--type=merge", "-p", "{\"spec\":{\"suspend\":false}}")
        .success();
    await("progress Complete").atMost(JOB_TIMEOUT).untilAsserted(() -> assertThat(condition("progress",
        "Complete")).hasValueSatisfying(c -> assertThat(c).containsEntry("status", "True")));
  }

  /**
   * The status server, as training code reaches it: a token the API server issued (TokenRequest, bound to one of
   * the TrainJob's pods, with the audience the TrainJobStatus plugin projects), verified against the real issuer,
   * over TLS with the CA the webhook configurations publish; the update lands in {@code status.trainerStatus}.
   */
  @Test
  @Order(7)
  void theStatusServerWritesTheTrainerStatusAPodsTokenReports() throws Exception {
    Pod pod = admin.pods().inNamespace(EXAMPLES).withLabel("jobset.sigs.k8s.io/jobset-name", "progress").list()
        .getItems().get(0);
    String token = admin.serviceAccounts().inNamespace(EXAMPLES).withName(pod.getSpec().getServiceAccountName())
        .tokenRequest(new TokenRequestBuilder().withNewSpec()
            .withAudiences(TrainJobStatusEndpoint.audience(EXAMPLES, "progress"))
            .withExpirationSeconds(600L)
            .withNewBoundObjectRef().withApiVersion("v1").withKind("Pod").withName(pod.getMetadata().getName())
            .withUid(pod.getMetadata().getUid()).endBoundObjectRef().endSpec().build())
        .getStatus().getToken();
    URI status = URI.create("https://127.0.0.1:" + statusPort
        + "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + EXAMPLES + "/trainjobs/progress/status");
    String update = """
        {"trainerStatus": {"progressPercentage": 40, "estimatedRemainingSeconds": 12,
          "metrics": [{"name": "loss", "value": "0.031"}], "lastUpdatedTime": "2026-01-23T10:30:45Z"}}""";

    assertThat(post(status, update, null).statusCode()).as("no token").isEqualTo(401);
    HttpResponse<String> accepted = post(status, update, token);
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
    URI other = URI.create(status.toString().replace("/trainjobs/progress/", "/trainjobs/crashing/"));
    assertThat(post(other, update, token).statusCode()).as("another TrainJob's endpoint").isEqualTo(403);

    GenericKubernetesResource trainJob = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
        "TrainJob").inNamespace(EXAMPLES).withName("progress").get();
    assertThat((Integer) trainJob.get("status", "trainerStatus", "progressPercentage")).isEqualTo(40);
    List<Map<String, Object>> metrics = trainJob.get("status", "trainerStatus", "metrics");
    assertThat(metrics).containsExactly(Map.of("name", "loss", "value", "0.031"));
    // the printer columns, as kube-apiserver's table converter renders them for kubectl
    List<String> table = kubectl("get", "trainjob", "progress", "-n", EXAMPLES).success().lines().toList();
    assertThat(table.get(0).split("\\s+")).containsExactly("NAME", "STATE", "RESTARTS", "PROGRESS", "AGE");
    assertThat(table.get(1).split("\\s+")).startsWith("progress", "Complete", "40");
  }

  /**
   * An OptimizationJob whose trials report their objective through the status server, as the training code of
   * {@code examples/hpo-torch.yaml} does. kwok ends a pod as soon as it runs, so the trials' pods are held
   * unschedulable (a node label no node has yet) until each trial has reported; then a node gets the label.
   */
  @Test
  @Order(7)
  @SuppressWarnings("unchecked")
  void anOptimizationJobsTrialsReportTheirMetricsAndTheBestWins() throws Exception {
    kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: OptimizationJob
        metadata:
          name: tune
        spec:
          objectives:
            - metric: loss
              direction: Minimize
          searchAlgorithm:
            grid: {}
          parameters:
            - name: lr
              searchSpace:
                categorical: {choices: ["0.1", "0.01"]}
          numTrials: 2
          parallelTrials: 2
          trainJobTemplate:
            spec:
              runtimeRef:
                name: torch-distributed
              trainer:
                command: ["python3", "-c", "print('trial')"]
              runtimePatches:
                - manager: lab.kftrainer.io/held
                  trainingRuntimeSpec:
                    template:
                      spec:
                        replicatedJobs:
                          - name: node
                            template:
                              spec:
                                template:
                                  spec:
                                    nodeSelector:
                                      lab.kftrainer.io/trials: open
        """).success();
    List<String> trials = List.of("tune-trial-0", "tune-trial-1");
    await("both trials created").atMost(JOB_TIMEOUT).until(() -> trials.stream().allMatch(trial -> admin
        .genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(EXAMPLES)
        .withName(trial).get() != null));
    for (String trial : trials) {
      GenericKubernetesResource trainJob = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
          "TrainJob").inNamespace(EXAMPLES).withName(trial).get();
      String lr = ((List<Map<String, Object>>) trainJob.get("spec", "trainer", "env")).stream()
          .filter(env -> "KUBEFLOW_TRAINER_OPT_LR".equals(env.get("name"))).map(env -> (String) env.get("value"))
          .findFirst().orElseThrow();
      String token = admin.serviceAccounts().inNamespace(EXAMPLES).withName("default").tokenRequest(
          new TokenRequestBuilder().withNewSpec().withAudiences(TrainJobStatusEndpoint.audience(EXAMPLES, trial))
              .withExpirationSeconds(600L).endSpec().build()).getStatus().getToken();
      String loss = lr.equals("0.01") ? "0.05" : "0.4";
      HttpResponse<String> reported = post(URI.create("https://127.0.0.1:" + statusPort
          + "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + EXAMPLES + "/trainjobs/" + trial + "/status"),
          """
          {"trainerStatus": {"progressPercentage": 100, "metrics": [{"name": "loss", "value": "%s"}],
            "lastUpdatedTime": "2026-01-23T10:30:45Z"}}""".formatted(loss), token);
      assertThat(reported.statusCode()).as(reported.body()).isEqualTo(200);
    }
    admin.nodes().withName("kwok-node-1").edit(node -> {
      node.getMetadata().getLabels().put("lab.kftrainer.io/trials", "open");
      return node;
    });

    await("tune Complete").atMost(JOB_TIMEOUT).untilAsserted(() -> {
      GenericKubernetesResource tune = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
          "OptimizationJob").inNamespace(EXAMPLES).withName("tune").get();
      List<Map<String, Object>> conditions = tune.get("status", "conditions");
      assertThat(conditions).anySatisfy(c -> assertThat(c).containsEntry("type", "Complete")
          .containsEntry("status", "True").containsEntry("reason", "MaxTrialsReached"));
      assertThat((Map<String, Object>) tune.get("status", "result")).containsEntry("parameters",
          List.of(Map.of("name", "lr", "value", "0.01"))).containsEntry("metrics",
          List.of(Map.of("name", "loss", "value", "0.05")));
    });
  }

  /**
   * Metrics over HTTPS with authentication: a scraper's token checked by a real TokenReview, its right to
   * {@code get /metrics} by a real SubjectAccessReview, as the chart grants the manager.
   */
  @Test
  @Order(8)
  void metricsAnswerOnlyATokenAllowedToGetMetrics() throws Exception {
    admin.serviceAccounts().inNamespace(EXAMPLES).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("prometheus").endMetadata().build()).create();
    admin.serviceAccounts().inNamespace(EXAMPLES).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("nosy").endMetadata().build()).create();
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName("lab-metrics-reader")
        .endMetadata().addNewRule().withNonResourceURLs("/metrics").withVerbs("get").endRule().build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
        .withName("lab-metrics-reader").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
        .withKind("ClusterRole").withName("lab-metrics-reader").endRoleRef().addNewSubject()
        .withKind("ServiceAccount").withName("prometheus").withNamespace(EXAMPLES).endSubject().build()).create();
    URI metrics = URI.create("https://127.0.0.1:" + metricsPort + "/metrics");

    HttpResponse<String> scraped = get(metrics,
        lab.serviceAccountToken(EXAMPLES, "prometheus", Duration.ofMinutes(10)));
    assertThat(scraped.statusCode()).isEqualTo(200);
    assertThat(scraped.body())
        .contains("controller_runtime_reconcile_total{controller=\"trainjob_controller\",result=\"success\"}");
    assertThat(get(metrics, lab.serviceAccountToken(EXAMPLES, "nosy", Duration.ofMinutes(10))).statusCode())
        .isEqualTo(403);
    assertThat(get(metrics, null).statusCode()).isEqualTo(401);
  }

  /**
   * A real Prometheus (Debian's) scraping the manager as the chart's ServiceMonitor describes it, after the TrainJobs
   * of the tests before: HTTPS with the CA the operator publishes, the token of a ServiceAccount bound to the
   * monitoring overlay's ClusterRole; every query of the dashboard returns series and every alert rule evaluates.
   * Skipped without /usr/bin/prometheus.
   */
  @Test
  @Order(8)
  void aRealPrometheusScrapesTheManagerAndAnswersEveryDashboardQuery() throws Exception {
    Prometheus.assumeInstalled();
    Path monitoring = Deploy.manifests().resolve("overlays/monitoring");
    admin.serviceAccounts().inNamespace(EXAMPLES).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("lab-prometheus").endMetadata().build()).create();
    for (HasMetadata role : admin.load(Files.newInputStream(monitoring.resolve("metrics-reader-role.yaml"))).items()) {
      admin.resource(role).serverSideApply();
    }
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
        .withName("lab-prometheus").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
        .withKind("ClusterRole").withName("kubeflow-trainer-metrics-reader").endRoleRef().addNewSubject()
        .withKind("ServiceAccount").withName("lab-prometheus").withNamespace(EXAMPLES).endSubject().build()).create();
    String caBundle = admin.admissionRegistration().v1().validatingWebhookConfigurations()
        .withName("validator.trainer.kubeflow.org").get().getWebhooks().get(0).getClientConfig().getCaBundle();

    try (Prometheus prometheus = Prometheus.scraping(Locations.workDir().resolve("lab-prometheus"),
        "127.0.0.1:" + metricsPort, null, lab.serviceAccountToken(EXAMPLES, "lab-prometheus", Duration.ofMinutes(10)),
        Base64.getDecoder().decode(caBundle), monitoring.resolve("prometheus-rules.yaml"))) {
      List<String> queries = Prometheus.dashboardQueries(monitoring.resolve("kubeflow-trainer-dashboard.json"));
      await("every dashboard query answered").atMost(Duration.ofSeconds(90)).untilAsserted(() ->
          assertThat(prometheus.withoutSeries(queries)).as("queries without series").isEmpty());
      JsonNode rules = await("the rules evaluated").atMost(Duration.ofSeconds(60)).until(prometheus::rules,
          loaded -> loaded.size() == 6 && Prometheus.allEvaluated(loaded));
      assertThat(rules).allSatisfy(rule -> assertThat(rule.path("health").asText()).isEqualTo("ok"));
    }
  }

  /**
   * {@code helm upgrade} under a stream of TrainJob creates (one every 100 ms, each admitted by the webhook, which
   * refuses a TrainJob whose runtime does not exist): none is refused, as the runtimes are updated in place (same
   * uid), where a runtime deleted and created again by the upgrade refused each create in between with
   * {@code spec.runtimeRef: Not found: "torch-distributed"}. The counts and the upgrade's duration are printed.
   */
  @Test
  @Order(9)
  void aHelmUpgradeUnderAStreamOfTrainJobCreatesRefusesNone() throws Exception {
    String namespace = "upgrade-load";
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    Map<String, String> before = runtimeUids();
    assertThat(before).hasSize(8);
    assertThat(kubectl("get", "clustertrainingruntime", "torch-distributed", "-o",
        "jsonpath={.metadata.managedFields[*].manager}").success())
        .as("the install's installer Job applied the runtimes as helm").isEqualTo("helm");

    AtomicInteger attempted = new AtomicInteger();
    AtomicInteger duringUpgrade = new AtomicInteger();
    AtomicBoolean upgrading = new AtomicBoolean();
    List<String> refusals = Collections.synchronizedList(new ArrayList<>());
    ScheduledExecutorService stream = Executors.newSingleThreadScheduledExecutor();
    stream.scheduleWithFixedDelay(() -> {
      int n = attempted.incrementAndGet();
      if (upgrading.get()) {
        duringUpgrade.incrementAndGet();
      }
      GenericKubernetesResource trainJob = new GenericKubernetesResource();
      trainJob.setApiVersion("trainer.kubeflow.org/v1alpha1");
      trainJob.setKind("TrainJob");
      trainJob.setMetadata(new ObjectMetaBuilder().withName("load-" + n).withNamespace(namespace).build());
      trainJob.setAdditionalProperty("spec", Map.of("runtimeRef", Map.of("name", "torch-distributed"),
          "suspend", true));
      try {
        admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(namespace)
            .resource(trainJob).create();
      } catch (RuntimeException e) {
        refusals.add("load-" + n + ": " + e.getMessage());
      }
    }, 0, 100, TimeUnit.MILLISECONDS);
    Tools.Result upgrade;
    double seconds;
    try {
      await("creates before the upgrade").atMost(Duration.ofSeconds(30)).until(() -> attempted.get() >= 10);
      upgrading.set(true);
      long start = System.nanoTime();
      upgrade = Tools.run(List.of(Tools.helm(), "upgrade", RELEASE, Deploy.chart().toString(), "--kubeconfig",
          lab.adminKubeconfig().toString(), "-n", NAMESPACE, "--reuse-values", "--wait", "--timeout", "3m",
          "--set", "runtimes.commonLabels.upgraded=yes", "--set", "manager.podAnnotations.upgraded=yes"), null);
      seconds = (System.nanoTime() - start) / 1e9;
      upgrading.set(false);
      int after = attempted.get();
      await("creates after the upgrade").atMost(Duration.ofSeconds(30)).until(() -> attempted.get() >= after + 10);
    } finally {
      stream.shutdown(); // no interrupt: the create under way completes, and counts
      assertThat(stream.awaitTermination(30, TimeUnit.SECONDS)).as("the stream stopped").isTrue();
    }
    System.out.printf("helm upgrade under a stream of TrainJob creates: the upgrade took %.1f s; creates attempted "
        + "%d (%d while it ran), refused %d%n", seconds, attempted.get(), duringUpgrade.get(), refusals.size());
    upgrade.success();

    assertThat(refusals).as("TrainJob creates refused").isEmpty();
    assertThat(duringUpgrade.get()).as("creates while the upgrade ran").isPositive();
    assertThat(runtimeUids()).as("the runtimes updated in place: none deleted and created again").isEqualTo(before);
    assertThat(releaseRuntimes()).hasSize(8).allSatisfy(runtime -> {
      assertThat(runtime.getMetadata().getLabels()).containsEntry("upgraded", "yes");
      assertThat(Optional.ofNullable(runtime.getMetadata().getAnnotations()).orElse(Map.of()))
          .doesNotContainKey("helm.sh/hook");
    });
    assertThat(Tools.run(List.of(Tools.helm(), "get", "manifest", RELEASE, "--kubeconfig",
        lab.adminKubeconfig().toString(), "-n", NAMESPACE), null).success())
        .as("the runtimes, ordinary objects of the release").contains("kind: ClusterTrainingRuntime");
    // the TrainJobs and their JobSets gone before the next tests (the takeover is timed)
    kubectl("delete", "namespace", namespace, "--timeout=2m").success();
  }

  /** Name to uid of the release's runtimes (other tests add runtimes of their own). */
  private static Map<String, String> runtimeUids() {
    return releaseRuntimes().stream().collect(Collectors.toMap(r -> r.getMetadata().getName(),
        r -> r.getMetadata().getUid()));
  }

  private static List<GenericKubernetesResource> releaseRuntimes() {
    return admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime")
        .withLabel("app.kubernetes.io/instance", RELEASE).list().getItems();
  }

  /**
   * Every request the operator, its webhooks and its status server made to kube-apiserver over the whole suite
   * (installation, every example, failures, deletions, metrics, the upgrade, the second replica and the Lease
   * handover, cert-manager's certificate), as kube-apiserver's audit log records them: not one was forbidden by the
   * chart's RBAC. Last before the uninstall, which takes the RBAC away from the managers still running.
   */
  @Test
  @Order(13)
  void theChartsRbacAllowedEveryRequestOfTheOperator() {
    List<AuditLog.Request> requests = AuditLog.requests(lab.auditLog(), "system:serviceaccount:" + NAMESPACE + ":");

    assertThat(requests).as("the operator's requests in the audit log").hasSizeGreaterThan(100)
        .as("with the authorizer's decision").anyMatch(request -> "allow".equals(request.authorization()));
    assertThat(requests).filteredOn(AuditLog.Request::forbiddenByAuthorization).as("requests the chart's RBAC refused")
        .isEmpty();
  }

  /**
   * Two replicas on a real Lease: the leader stopped as a kubelet stops a pod (SIGTERM) releases the Lease, and the
   * other holds it within seconds (printed). The second replica's ports differ from the first's (they share the host's network).
   */
  @Test
  @Order(11)
  void aSecondReplicaTakesTheLeaseWhenTheLeaderStops() throws Exception {
    int secondHealth = LabPorts.free();
    Map<Integer, Integer> ports = Map.of(healthPort, secondHealth, metricsPort, LabPorts.free(),
        webhookPort, LabPorts.free(), statusPort, LabPorts.free());
    secondReplica = OperatorPod.start(lab, work.resolve("rootfs"), image.config(), NAMESPACE, DEPLOYMENT, "kubeflow-trainer-controller-manager-6b7f9-lab02", work, text -> {
          String remapped = text;
          for (Map.Entry<Integer, Integer> port : ports.entrySet()) {
            remapped = remapped.replaceAll("\\b" + port.getKey() + "\\b", Integer.toString(port.getValue()));
          }
          return remapped;
        });
    HttpClient http = HttpClient.newHttpClient();
    await("the second replica's /healthz").atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(200))
        .ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + secondHealth + "/healthz")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    assertThat(leaseHolder()).startsWith("kubeflow-trainer-controller-manager-6b7f9-lab01_");

    long stopped = System.nanoTime();
    operator.terminate();
    await("the second replica holds the Lease").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
        .until(() -> leaseHolder().startsWith("kubeflow-trainer-controller-manager-6b7f9-lab02_"));
    double takeover = (System.nanoTime() - stopped) / 1e9;
    System.out.printf("Leader takeover on a real Lease after SIGTERM: %.2f s%n", takeover);
    // the stopping leader releases the Lease and the standby, watching it, takes it at once (not at its elector's
    // next poll, 2 to 4.4 s apart): what remains is the leader's stop
    assertThat(takeover).as("seconds from SIGTERM to the standby holding the Lease").isLessThan(3.0);
    assertThat(operator.awaitExit(Duration.ofSeconds(30))).as("the stopped leader's exit code").contains(0);
    await("the second replica leads").atMost(Duration.ofSeconds(30))
        .until(() -> Files.readString(secondReplica.log()).contains("lab02_") && Files.readString(secondReplica.log())
            .contains("became the leader"));
  }

  /**
   * cert-manager's way, switched on by an upgrade ({@code webhook.certManager.enable=true},
   * {@code certManagement.enable=false}), and a manager started with the mounted certificate. The lab runs no
   * cert-manager: the test stands in for it, as far as the chart relies on it: the kinds Certificate and Issuer
   * served (schema-less CRDs), the Certificate's names issued by a CA (the lab's) into the Secret it names, with
   * {@code ca.crt}, and that CA put into the webhook configurations its annotation {@code cert-manager.io/inject-ca-from}
   * names, as cainjector does. The manager (a third pod of the upgraded Deployment: the Secret mounted at
   * /tmp/k8s-webhook-server/serving-certs) serves that certificate, leaves the CA bundle as injected, and
   * kube-apiserver calls its webhooks.
   */
  @Test
  @Order(12)
  void aManagerStartsWithTheCertificateCertManagerIssues() throws Exception {
    secondReplica.terminate();
    assertThat(secondReplica.awaitExit(Duration.ofSeconds(30))).as("the second replica's exit code").contains(0);
    for (String kind : List.of("Certificate", "Issuer")) {
      String plural = kind.toLowerCase() + "s";
      kubectl("apply", "--server-side", "-f", "-").withInput("""
          apiVersion: apiextensions.k8s.io/v1
          kind: CustomResourceDefinition
          metadata:
            name: PLURAL.cert-manager.io
          spec:
            group: cert-manager.io
            names: {kind: KIND, plural: PLURAL, singular: SINGULAR}
            scope: Namespaced
            versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
          """.replace("PLURAL", plural).replace("SINGULAR", kind.toLowerCase()).replace("KIND", kind)).success();
      lab.awaitServed("cert-manager.io/v1", kind, Duration.ofSeconds(30));
    }
    Tools.run(List.of(Tools.helm(), "upgrade", RELEASE, Deploy.chart().toString(), "--kubeconfig",
        lab.adminKubeconfig().toString(), "-n", NAMESPACE, "--reuse-values", "--wait", "--timeout", "3m",
        "--set", "webhook.certManager.enable=true", "--set", "manager.config.certManagement.enable=false"), null)
        .success();

    // cert-manager: the Certificate issued into its Secret
    GenericKubernetesResource certificate = admin.genericKubernetesResources("cert-manager.io/v1", "Certificate")
        .inNamespace(NAMESPACE).withName("kubeflow-trainer-webhook-cert").require();
    List<String> names = new ArrayList<>(certificate.<List<String>>get("spec", "dnsNames"));
    names.addAll(certificate.<List<String>>get("spec", "ipAddresses"));
    assertThat(names).contains("127.0.0.1", "kubeflow-trainer-controller-manager.kubeflow-system.svc");
    var issued = lab.issue(names);
    admin.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata()
        .withName(certificate.<String>get("spec", "secretName")).endMetadata().withType("kubernetes.io/tls")
        .addToStringData("tls.crt", issued.certificatePem()).addToStringData("tls.key", issued.keyPem())
        .addToStringData("ca.crt", lab.caPem()).build()).serverSideApply();
    // cainjector: the CA of the Certificate the annotation names, into every webhook of both configurations
    String caBundle = Base64.getEncoder().encodeToString(lab.caPem().getBytes(StandardCharsets.UTF_8));
    var validating = admin.admissionRegistration().v1().validatingWebhookConfigurations()
        .withName("validator.trainer.kubeflow.org");
    var mutating = admin.admissionRegistration().v1().mutatingWebhookConfigurations()
        .withName("defaulter.trainer.kubeflow.org");
    for (HasMetadata configuration : List.of(validating.get(), mutating.get())) {
      assertThat(configuration.getMetadata().getAnnotations())
          .containsEntry("cert-manager.io/inject-ca-from", NAMESPACE + "/kubeflow-trainer-webhook-cert");
    }
    validating.edit(c -> {
      c.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(caBundle));
      return c;
    });
    mutating.edit(c -> {
      c.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(caBundle));
      return c;
    });

    certManaged = OperatorPod.start(lab, work.resolve("rootfs"), image.config(), NAMESPACE, DEPLOYMENT,
        "kubeflow-trainer-controller-manager-6b7f9-lab03", work);
    OperatorPod.awaitReady("the manager with cert-manager's certificate is ready", certManaged, healthPort,
        READY_TIMEOUT);
    await("kube-apiserver calls the webhooks with the injected CA").atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200)).until(() -> kubectl("create", "--dry-run=server", "-n", EXAMPLES,
            "-f", "-").withInput("""
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                metadata:
                  name: cert-managed
                spec:
                  runtimeRef:
                    name: torch-distributed
                """).exitCode() == 0);
    Tools.Result refused = kubectl("create", "--dry-run=server", "-n", EXAMPLES, "-f", "-").withInput(NO_SUCH_RUNTIME);
    assertThat(refused.err()).as("the webhook answers").contains("spec.runtimeRef: Not found: \"no-such-runtime\"");
    assertThat(validating.get().getWebhooks()).allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle())
        .as("the CA bundle cainjector put, left as it is by the manager").isEqualTo(caBundle));
    assertThat(Files.readString(certManaged.log()).lines().filter(line -> line.contains("system:serviceaccount:"
        + NAMESPACE + ":") && line.contains("cannot "))).as("requests the chart's RBAC refused").isEmpty();
  }

  /**
   * {@code helm uninstall} deletes the runtimes with the rest of the release: they are objects of the release since
   * the upgrade (a hook of the install would stay).
   */
  @Test
  @Order(14)
  void anUninstallDeletesTheRuntimes() throws Exception {
    certManaged.terminate();
    certManaged.awaitExit(Duration.ofSeconds(30));
    Tools.run(List.of(Tools.helm(), "uninstall", RELEASE, "--kubeconfig", lab.adminKubeconfig().toString(), "-n",
        NAMESPACE), null).success();
    await("the release's runtimes deleted").atMost(Duration.ofMinutes(2)).until(() -> {
      try {
        return releaseRuntimes().isEmpty();
      } catch (KubernetesClientException e) {
        return e.getCode() == 404; // the kind is gone with its CRD: so are the runtimes
      }
    });
    assertThat(admin.apps().deployments().inNamespace(NAMESPACE).withName(DEPLOYMENT).get()).isNull();
  }

  private static String leaseHolder() {
    Lease lease = admin.leases().inNamespace(NAMESPACE).withName("trainer.kubeflow.org").get();
    return lease == null || lease.getSpec().getHolderIdentity() == null ? "" : lease.getSpec().getHolderIdentity();
  }

  private static Optional<Map<String, Object>> condition(String trainJob, String type) {
    return condition(EXAMPLES, trainJob, type);
  }

  private static Optional<Map<String, Object>> condition(String namespace, String trainJob, String type) {
    GenericKubernetesResource current = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob")
        .inNamespace(namespace).withName(trainJob).get();
    if (current == null) {
      return Optional.empty();
    }
    List<Map<String, Object>> conditions = current.get("status", "conditions");
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
  }

  private static String trainJobName(String example) throws IOException {
    List<String> names = names(Deploy.projectDir().resolve("examples").resolve(example), "TrainJob");
    assertThat(names).as("TrainJobs of " + example).hasSize(1);
    return names.get(0);
  }

  /** The names of the objects of {@code kind} in a YAML file. */
  private static List<String> names(Path file, String kind) throws IOException {
    try (var in = Files.newInputStream(file)) {
      return admin.load(in).items().stream().filter(o -> o.getKind().equals(kind))
          .map(o -> o.getMetadata().getName()).toList();
    }
  }

  private static Kubectl kubectl(String... args) {
    return new Kubectl(List.of(args));
  }

  /** kubectl as the cluster's admin. */
  private record Kubectl(List<String> args) {
    Tools.Result withInput(String stdin) throws IOException {
      List<String> command = new ArrayList<>(List.of(Tools.kubectl(), "--kubeconfig",
          lab.adminKubeconfig().toString()));
      command.addAll(args);
      return Tools.run(command, stdin);
    }

    String success() throws IOException {
      return withInput(null).success();
    }
  }

  private static HttpResponse<String> post(URI uri, String body, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return operatorClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(URI uri, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return operatorClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A client trusting the CA the operator publishes in its webhook configurations (its servers' certificate). */
  private static HttpClient operatorClient() throws Exception {
    String caBundle = admin.admissionRegistration().v1().validatingWebhookConfigurations()
        .withName("validator.trainer.kubeflow.org").get().getWebhooks().get(0).getClientConfig().getCaBundle();
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    int i = 0;
    for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(
        new ByteArrayInputStream(Base64.getDecoder().decode(caBundle)))) {
      trusted.setCertificateEntry("ca-" + i++, certificate);
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(10)).build();
  }

  private static String log() throws IOException {
    return operator == null ? "" : Files.readString(operator.log());
  }

  /**
   * Plays the kubelet for the installer Job of {@code installing}: its pod, which no kwok node takes, is run from the
   * image under bubblewrap with its ServiceAccount's token and its ConfigMap, and its exit is written to the pod's
   * status, from which the Job controller completes the Job that helm waits for. Prints how long it took.
   */
  private static void runTheInstallerPod(Path root, CompletableFuture<Tools.Result> installing) throws Exception {
    Pod pod = await("the installer Job's pod").atMost(Duration.ofMinutes(3)).until(() -> {
      if (installing.isDone()) {
        installing.join().success();
        throw new AssertionError("helm finished before the installer ran");
      }
      return admin.pods().inNamespace(NAMESPACE).withLabel("job-name", RELEASE + "-runtimes-installer").list()
          .getItems().stream().findFirst().orElse(null);
    }, Objects::nonNull);
    long start = System.nanoTime();
    String startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    int exitCode;
    try (BwrapContainer installer = OperatorPod.start(lab, root, image.config(), pod, work)) {
      exitCode = installer.awaitExit(Duration.ofMinutes(2)).orElseThrow(() -> new AssertionError(
          "the installer did not exit in 2 minutes"));
      assertThat(exitCode).as("the installer's exit; its log:\n%s", Files.readString(installer.log())).isZero();
      System.out.printf("Runtimes installer on Kubernetes %s: exited %.1f s after its container started; its log:%n%s",
          lab.versions().get("kubernetes"), (System.nanoTime() - start) / 1e9, Files.readString(installer.log()));
    }
    String finishedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    admin.pods().inNamespace(NAMESPACE).withName(pod.getMetadata().getName()).editStatus(p -> new PodBuilder(p)
        .editOrNewStatus().withPhase("Succeeded").withContainerStatuses(new ContainerStatusBuilder()
            .withName(pod.getSpec().getContainers().get(0).getName()).withImage(pod.getSpec().getContainers().get(0)
                .getImage()).withImageID("").withReady(false).withRestartCount(0).withNewState().withNewTerminated()
            .withExitCode(exitCode).withReason("Completed").withStartedAt(startedAt).withFinishedAt(finishedAt)
            .endTerminated().endState().build()).endStatus().build());
  }
}
