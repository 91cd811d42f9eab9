package io.kftrainer.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Tools;
import io.kftrainer.deploy.image.BwrapContainer;
import io.kftrainer.deploy.image.ImageArchive;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabExtension;
import io.kftrainer.lab.LabPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
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

/**
 * The operator on real Kubernetes ({@link Lab}: kube-apiserver, controller manager, scheduler, kwok nodes, the real
 * JobSet controller), installed as a cluster operator installs it: {@code helm install} of the chart with the
 * runtimes on, the webhooks called by kube-apiserver at {@code webhook.url} (the operator runs outside the
 * cluster's network), and the operator from the image as the chart's Deployment runs it ({@link OperatorPod}),
 * authenticated as the chart's ServiceAccount with a token from TokenRequest: the chart's RBAC is all it has.
 * Each example TrainJob then runs to {@code Complete} on kwok's nodes; a failing pod fails its TrainJob; a deleted
 * TrainJob's children go with the real garbage collector; an invalid TrainJob is refused through kube-apiserver.
 */
@ExtendWith(LabExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChartOnKubernetesIT {

  private static final String RELEASE = "kubeflow-trainer";
  private static final String NAMESPACE = "kubeflow-system";
  private static final String DEPLOYMENT = "kubeflow-trainer-controller-manager";
  private static final String EXAMPLES = "examples";
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(2);
  /** Examples whose pods cannot be scheduled here: the runtime asks for the scheduler-plugins scheduler. */
  private static final List<String> NOT_SCHEDULED = List.of("torch-coscheduling.yaml");

  private static Lab lab;
  private static KubernetesClient admin;
  private static BwrapContainer operator;
  private static int healthPort;
  private static Path work;

  /**
   * {@code --wait}: the runtimes are post-install hooks of the CRDs' release, which helm can only build once
   * kube-apiserver serves the CRDs (Established); without the wait a hook can find no mapping for
   * ClusterTrainingRuntime ("ensure CRDs are installed first"), as it did here once in two installs.
   */
  @BeforeAll
  static void installAndStartTheOperator(Lab started) throws Exception {
    lab = started;
    admin = lab.admin();
    String helm = Tools.helm();
    Assumptions.assumeTrue(BwrapContainer.available(), BwrapContainer.unavailableReason());
    work = Deploy.workDir("chart-on-kubernetes");
    Path root = work.resolve("rootfs");
    ImageArchive image = Deploy.unpackedImage(root);

    healthPort = LabPorts.free();
    int webhookPort = LabPorts.free();
    Tools.run(List.of(helm, "install", RELEASE, Deploy.chart().toString(), "--kubeconfig",
        lab.adminKubeconfig().toString(), "-n", NAMESPACE, "--create-namespace", "--wait", "--timeout", "3m",
        "--set", "runtimes.defaultEnabled=true",
        "--set", "webhook.url=https://127.0.0.1:" + webhookPort,
        "--set", "manager.config.webhook.host=127.0.0.1",
        "--set", "manager.config.webhook.port=" + webhookPort,
        "--set", "manager.config.health.healthProbeBindAddress=127.0.0.1:" + healthPort,
        "--set", "manager.config.metrics.bindAddress=127.0.0.1:" + LabPorts.free(),
        "--set", "manager.config.statusServer.port=" + LabPorts.free()), null).success();

    long start = System.nanoTime();
    operator = OperatorPod.start(lab, root, image.config(), NAMESPACE, DEPLOYMENT,
        "kubeflow-trainer-controller-manager-6b7f9-lab01", work);
    HttpClient http = HttpClient.newHttpClient();
    await("the operator's /readyz answers 200").atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(200))
        .ignoreExceptions().until(() -> {
          assertThat(operator.isAlive()).as("the operator runs; its log:\n%s", log()).isTrue();
          return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz")).build(),
              HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        });
    System.out.printf("Operator on Kubernetes %s: ready %.1f s after its container started%n",
        lab.versions().get("kubernetes"), (System.nanoTime() - start) / 1e9);

    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(EXAMPLES).endMetadata().build())
        .create();
    // the node pool torch-runtime-patches.yaml pins its pods to, as a platform team labels it
    for (String node : List.of("kwok-node-2", "kwok-node-3")) {
      admin.nodes().withName(node).edit(n -> {
        n.getMetadata().getLabels().put("example.com/node-pool", "a100-pool");
        return n;
      });
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (operator != null) {
      operator.close();
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
    Tools.Result refused = kubectl("apply", "-n", EXAMPLES, "-f", "-").withInput("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: no-such-runtime
        spec:
          runtimeRef:
            name: no-such-runtime
        """);
    assertThat(refused.exitCode()).isNotZero();
    // the webhook's field error, as kube-apiserver passes on an admission webhook's Invalid Status
    assertThat(refused.err()).isEqualTo("The TrainJob \"no-such-runtime\" is invalid: spec.runtimeRef: Not found: "
        + "\"no-such-runtime\": specified clusterTrainingRuntime must be created before the TrainJob is created\n");
    assertThat(admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(EXAMPLES)
        .withName("no-such-runtime").get()).isNull();
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
  void theChartsRbacAllowedEveryRequestOfTheOperator() throws IOException {
    assertThat(log().lines().filter(line -> line.contains("forbidden") || line.contains("Forbidden")))
        .as("requests the chart's RBAC refused").isEmpty();
  }

  private static Optional<Map<String, Object>> condition(String trainJob, String type) {
    GenericKubernetesResource current = admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob")
        .inNamespace(EXAMPLES).withName(trainJob).get();
    if (current == null) {
      return Optional.empty();
    }
    List<Map<String, Object>> conditions = current.get("status", "conditions");
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
  }

  private static String trainJobName(String example) throws IOException {
    List<String> names = new ArrayList<>();
    try (var in = Files.newInputStream(Deploy.projectDir().resolve("examples").resolve(example))) {
      admin.load(in).items().stream().filter(o -> o.getKind().equals("TrainJob"))
          .forEach(o -> names.add(o.getMetadata().getName()));
    }
    assertThat(names).as("TrainJobs of " + example).hasSize(1);
    return names.get(0);
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

  private static String log() throws IOException {
    return operator == null ? "" : Files.readString(operator.log());
  }
}
