package io.kftrainer.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.deploy.Deploy;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The operator image as a kubelet starts it, without a container runtime: the image archive unpacked, its
 * entrypoint run under bubblewrap ({@link BwrapContainer}) as its user 65532 on a read-only root, writable only in
 * {@code /tmp} (the Deployment's emptyDir), with a kubeconfig mounted (KUBECONFIG) and the example third-party
 * plugin's jar mounted read-only in the plugin directory, against {@code trainer.jar apiserver --empty} into which
 * the test installs what the manifests install (CRDs, webhook configurations, a runtime). The pod's {@code args}
 * are {@code run} with free ports: the container shares the host's network (as {@code hostNetwork}) with other
 * builds. Prints the image's size, its layer count and the time to ready.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorImageIT {

  private static final String OPERATOR_NAMESPACE = "kubeflow-system";
  private static final String REQUIRE_TEAM = "trainer.example.com/require-team";
  private static final String KUBECONFIG = "/var/run/trainer/kubeconfig";
  private static final String PLUGINS = "/opt/trainer/plugins";
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

  private static ImageArchive image;
  private static ApiServerProcess server;
  private static KubernetesClient client;
  private static BwrapContainer container;
  private static int healthPort;
  private static Duration timeToReady;

  @BeforeAll
  static void startTheImage() throws Exception {
    Assumptions.assumeTrue(BwrapContainer.available(), BwrapContainer.unavailableReason());
    Path work = Deploy.workDir("operator-image");
    Path root = work.resolve("rootfs");
    image = Deploy.unpackedImage(root);

    Path plugins = Files.createDirectories(work.resolve("plugins/team"));
    Path pluginJar = Deploy.pluginExampleJar();
    Assumptions.assumeTrue(Files.isRegularFile(pluginJar), "no example plugin at " + pluginJar);
    Files.copy(pluginJar, plugins.resolve(pluginJar.getFileName()));

    int webhookPort = ApiServerProcess.freePort();
    healthPort = ApiServerProcess.freePort();
    server = ApiServerProcess.start(Deploy.trainerJar(), work, webhookPort, true);
    client = server.client();
    install();

    long start = System.nanoTime();
    container = BwrapContainer.builder(root, image.config())
        .hostname("kubeflow-trainer-controller-manager-7d9f8-x2x4q")
        // metrics on a port of the system's choice: a free port picked here could be taken, by the time the
        // operator binds it, as the local port of one of its own connections (it failed a CI run so)
        .args(List.of("run", "--webhook-port=" + webhookPort, "--health-port=" + healthPort, "--metrics-port=0"))
        .env("KUBECONFIG", KUBECONFIG)
        .env("POD_NAMESPACE", OPERATOR_NAMESPACE)
        .readOnly(server.kubeconfig(), KUBECONFIG)
        .readOnly(work.resolve("plugins"), PLUGINS)
        .emptyDir("/tmp")
        .start(work.resolve("container.log"));
    await("the container's /readyz answers 200").atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(100))
        .until(() -> {
          assertThat(container.isAlive()).as("the container runs; its log:\n%s", log()).isTrue();
          return get("/readyz") == 200;
        });
    timeToReady = Duration.ofNanos(System.nanoTime() - start);
    System.out.printf("Operator image: %s, %.1f MiB, %d layers; ready %.1f s after the container started%n",
        image.repoTags(), image.size() / 1024.0 / 1024.0, image.layerCount(), timeToReady.toMillis() / 1000.0);
  }

  /** What an installation puts into the cluster before the operator runs, from the files a user applies. */
  private static void install() throws IOException {
    try (InputStream jobSetCrd = OperatorImageIT.class.getResourceAsStream(
        "/META-INF/fabric8/jobsets.jobset.x-k8s.io-v1.yml")) {
      client.load(jobSetCrd).create();
    }
    try (Stream<Path> crds = Files.list(Deploy.manifests().resolve("crds"))) {
      for (Path crd : crds.filter(p -> p.getFileName().toString().startsWith("trainer.kubeflow.org_")).toList()) {
        client.load(Files.newInputStream(crd)).create();
      }
    }
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(OPERATOR_NAMESPACE)
        .endMetadata().build()).create();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team-vision")
        .withLabels(Map.of(REQUIRE_TEAM, "true")).endMetadata().build()).create();
    for (String file : List.of("validating-webhook-configuration.yaml", "mutating-webhook-configuration.yaml")) {
      client.load(Files.newInputStream(Deploy.manifests().resolve("base").resolve(file))).create();
    }
    await("the runtime CRD is served").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
      List<HasMetadata> runtime = client.load(Files.newInputStream(
          Deploy.manifests().resolve("runtimes/torch-distributed.yaml"))).items();
      runtime.forEach(r -> r.getMetadata().getLabels().put("trainer.kubeflow.org/webhook-validation", "disabled"));
      client.resourceList(runtime).create();
      return true;
    });
  }

  @AfterAll
  static void stop() throws Exception {
    if (container != null) {
      container.close();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  @Order(1)
  void runsAsItsUserFromItsEntrypointAndAnswersItsProbes() throws Exception {
    assertThat(get("/healthz")).isEqualTo(200);
    assertThat(container.command()).containsSubsequence("--uid", "65532", "--gid", "65532");
    assertThat(container.command()).containsSubsequence("java", "-jar", "/app/trainer-operator.jar", "run");
    assertThat(timeToReady).isLessThan(READY_TIMEOUT);
  }

  @Test
  @Order(2)
  void startsWithItsClassDataArchiveAndTheMountedPlugin() throws IOException {
    String log = log();
    assertThat(log).contains("Picked up JAVA_TOOL_OPTIONS: -XX:SharedArchiveFile=/app/trainer-operator.jsa "
        + "-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError");
    assertThat(log).as("the JVM maps the image's AppCDS archive (it warns when the archive does not match)")
        .doesNotContain("Unable to use shared archive");
    assertThat(log).containsPattern("Loaded plugin \\S+ .* from " + PLUGINS + "/team/plugin-example");
  }

  @Test
  @Order(3)
  void itsWebhookDeniesATrainJobThePluginRefuses() {
    AtomicInteger attempt = new AtomicInteger();
    AtomicReference<KubernetesClientException> denial = new AtomicReference<>();
    // the plugin reads namespace labels from the operator's cache: retry until it has seen the namespace
    await("a denial").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
      GenericKubernetesResource trainJob = trainJob("anonymous-" + attempt.incrementAndGet(), Map.of());
      try {
        client.resource(trainJob).inNamespace("team-vision").create();
      } catch (KubernetesClientException e) {
        denial.set(e);
        return true;
      }
      client.resource(trainJob).inNamespace("team-vision").delete();
      return false;
    });
    assertThat(denial.get().getCode()).isEqualTo(422);
    assertThat(denial.get().getStatus().getMessage())
        .startsWith("admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: ")
        .contains("requires a team label on TrainJobs");
  }

  @Test
  @Order(4)
  void reconcilesATrainJobIntoAJobSetWithThePluginsChanges() {
    client.resource(trainJob("vision-train", Map.of("team", "vision"))).inNamespace("team-vision").create();
    await("the JobSet").atMost(Duration.ofSeconds(60)).until(() -> jobSet("vision-train").isPresent());
    GenericKubernetesResource jobSet = jobSet("vision-train").orElseThrow();
    Map<String, Object> podMetadata = jobSet.get("spec", "replicatedJobs", 0, "template", "spec", "template",
        "metadata");
    assertThat(podMetadata.get("labels")).asInstanceOf(InstanceOfAssertFactories.MAP)
        .containsEntry("example.com/team", "vision");
    assertThat(jobSet.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getName()).isEqualTo("vision-train"));
  }

  @Test
  @Order(5)
  void stopsCleanlyOnSigterm() throws Exception {
    container.terminate();
    Optional<Integer> exit = container.awaitExit(Duration.ofSeconds(30)); // the default terminationGracePeriod
    assertThat(exit).as("exit within the grace period; log:\n%s", log()).isPresent();
    assertThat(exit.get()).as("exit code; log:\n%s", log()).isZero();
    assertThat(log()).contains("The operator has stopped");
  }

  private static GenericKubernetesResource trainJob(String name, Map<String, String> labels) {
    GenericKubernetesResource trainJob = client.getKubernetesSerialization().unmarshal("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: %s
        spec:
          runtimeRef:
            name: torch-distributed
          trainer:
            numNodes: 2
            command: [python3, train.py]
        """.formatted(name), GenericKubernetesResource.class);
    trainJob.getMetadata().setLabels(labels);
    return trainJob;
  }

  private static Optional<GenericKubernetesResource> jobSet(String name) {
    return Optional.ofNullable(client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace("team-vision").withName(name).get());
  }

  private static int get(String path) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort
          + path)).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String log() throws IOException {
    return Files.readString(container.log());
  }

}
