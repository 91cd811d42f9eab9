package io.kftrainer.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Rendered;
import io.kftrainer.deploy.Renders;
import io.kftrainer.deploy.Tools;
import io.kftrainer.deploy.image.ApiServerProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code helm install}, {@code upgrade} and {@code uninstall} of the chart (the real helm; skipped without it)
 * against {@code trainer.jar apiserver --empty}, an API server with nothing installed: every object of the release
 * is accepted and stored, the custom resources validated against the CRDs the same release installs; a changed value
 * reaches the Deployment; the runtimes, applied by the installer Job at the install that brings their CRD (its pod
 * run here by the test), are adopted in place by the first upgrade (same uid: never deleted) and are ordinary objects
 * of the release from then on; after uninstall nothing is left, the runtimes included when the CRDs are not the release's;
 * bad values fail before anything is created. No operator runs: the release is what is tried, not the manager.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HelmInstallTest {

  private static final String RELEASE = Renders.RELEASE;
  private static final String NAMESPACE = Renders.NAMESPACE;

  private static ApiServerProcess server;
  private static KubernetesClient client;
  private static List<HasMetadata> installed = List.of();
  /** The runtimes' uids after the install: an upgrade keeps them (updated in place, never created again). */
  private static Map<String, String> runtimeUids = Map.of();

  @BeforeAll
  static void startAnEmptyCluster() throws Exception {
    Tools.helm();
    server = ApiServerProcess.start(Deploy.trainerJar(), Deploy.workDir("helm-install"), ApiServerProcess.freePort(),
        true);
    client = server.client();
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  @Order(1)
  void installsEveryObjectOfTheRelease() throws Exception {
    CompletableFuture<Tools.Result> install = CompletableFuture.supplyAsync(() -> helmUnchecked("install", RELEASE,
        Deploy.chart().toString(), "-n", NAMESPACE, "--create-namespace", "--set", "runtimes.defaultEnabled=true"));
    runTheInstallerJob(install);
    install.get().success();

    installed = releaseObjects();
    assertThat(installed).extracting(HasMetadata::getKind).contains("CustomResourceDefinition", "Deployment",
        "Service", "ConfigMap", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "ServiceAccount",
        "Secret", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration");
    for (HasMetadata object : installed) {
      assertThat(stored(object)).as(object.getKind() + " " + object.getMetadata().getName()).isNotNull();
    }
    assertThat(helm("status", RELEASE, "-n", NAMESPACE).success()).contains("STATUS: deployed");
    // the kind was not served when helm mapped the release: the installer Job applied the runtimes, with the
    // release's ownership metadata for the next upgrade to adopt them; the installer's objects are gone
    Rendered hooks = Rendered.parse(helm("get", "hooks", RELEASE, "-n", NAMESPACE).success());
    assertThat(hooks.ofKind("Job")).hasSize(1);
    assertThat(hooks.objects()).allSatisfy(hook -> assertThat(stored(hook)).as(hook.getKind()).isNull());
    assertThat(runtimes()).hasSize(8).allSatisfy(runtime -> assertThat(runtime.getMetadata().getAnnotations())
        .containsEntry("meta.helm.sh/release-name", RELEASE).containsEntry("meta.helm.sh/release-namespace",
            NAMESPACE));
    runtimeUids = runtimeUids();
  }

  /**
   * Plays the kubelet and the Job controller for the installer Job of {@code install} (this API server runs no
   * pods): its pod's command ({@code trainer-operator install-runtimes}) on its ConfigMap's files, then the Job's
   * success, which helm waits for.
   */
  private static void runTheInstallerJob(CompletableFuture<Tools.Result> install) throws IOException {
    String name = RELEASE + "-runtimes-installer";
    await("helm creates the installer Job").atMost(Duration.ofMinutes(2)).until(() -> install.isDone()
        || client.batch().v1().jobs().inNamespace(NAMESPACE).withName(name).get() != null);
    assertThat(install).as("helm waits for the installer Job").isNotDone();
    Path files = Files.createDirectories(Deploy.workDir("helm-install-installer"));
    for (Map.Entry<String, String> file : client.configMaps().inNamespace(NAMESPACE).withName(name).require()
        .getData().entrySet()) {
      Files.writeString(files.resolve(file.getKey()), file.getValue());
    }
    String installer = Tools.run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        Deploy.trainerJar().toString(), "io.kftrainer.operator.Main", "install-runtimes", "--dir", files.toString(),
        "--kubeconfig", server.kubeconfig().toString()), null).success();
    assertThat(installer).contains("ClusterTrainingRuntime torch-distributed applied");
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    client.batch().v1().jobs().inNamespace(NAMESPACE).withName(name).editStatus(job -> new JobBuilder(job)
        .editOrNewStatus().withSucceeded(1).withStartTime(now.toString()).withCompletionTime(now.toString())
        .addNewCondition().withType("SuccessCriteriaMet").withStatus("True").endCondition()
        .addNewCondition().withType("Complete").withStatus("True").endCondition().endStatus().build());
  }

  @Test
  @Order(2)
  void anUpgradeBringsAChangedValueToTheDeployment() throws IOException {
    Deployment before = client.apps().deployments().inNamespace(NAMESPACE)
        .withName("kubeflow-trainer-controller-manager").get();
    helm("upgrade", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE, "--reuse-values",
        "--set", "manager.replicas=2", "--set", "manager.config.clientConnection.qps=20").success();

    Deployment after = client.apps().deployments().inNamespace(NAMESPACE)
        .withName("kubeflow-trainer-controller-manager").get();
    assertThat(after.getSpec().getReplicas()).isEqualTo(2);
    assertThat(after.getMetadata().getGeneration()).isGreaterThan(before.getMetadata().getGeneration());
    assertThat(after.getSpec().getTemplate().getMetadata().getAnnotations().get("checksum/config"))
        .as("a changed Configuration rolls the pods").isNotEqualTo(before.getSpec().getTemplate().getMetadata()
            .getAnnotations().get("checksum/config"));
    ConfigMap config = client.configMaps().inNamespace(NAMESPACE).withName("kubeflow-trainer-config").get();
    assertThat(config.getData().get("controller_manager_config.yaml")).contains("qps: 20");
    assertThat(client.resources(PodDisruptionBudget.class).inNamespace(NAMESPACE)
        .withName("kubeflow-trainer-controller-manager").get()).as("a PDB with two replicas").isNotNull();
    assertThat(runtimeUids()).as("the runtimes updated in place, none deleted and created again")
        .isEqualTo(runtimeUids);
    assertThat(Rendered.parse(helm("get", "manifest", RELEASE, "-n", NAMESPACE).success())
        .ofKind("ClusterTrainingRuntime")).as("ordinary objects of the release from the first upgrade").hasSize(8);
    installed = releaseObjects();
  }

  @Test
  @Order(3)
  void anUpgradeUpdatesTheRuntimesInPlaceAndDeletesOneSwitchedOff() throws IOException {
    helm("upgrade", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE, "--reuse-values",
        "--set", "runtimes.defaultEnabled=false", "--set", "runtimes.torchDistributed.enabled=true",
        "--set", "runtimes.jaxDistributed.enabled=true", "--set", "runtimes.commonLabels.upgraded=yes").success();

    Map<String, String> expected = Map.of("torch-distributed", runtimeUids.get("torch-distributed"),
        "jax-distributed", runtimeUids.get("jax-distributed"));
    await("the runtimes switched off deleted").atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(runtimeUids()).isEqualTo(expected));
    assertThat(runtimes()).allSatisfy(runtime -> assertThat(runtime.getMetadata().getLabels())
        .containsEntry("upgraded", "yes").containsEntry("trainer.kubeflow.org/webhook-validation", "disabled"));
    helm("upgrade", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE, "--reuse-values",
        "--set", "runtimes.defaultEnabled=true").success();
    assertThat(runtimeUids()).hasSize(8).containsAllEntriesOf(expected);
    installed = releaseObjects();
  }

  @Test
  @Order(4)
  void anUninstallLeavesNothing() throws IOException {
    assertThat(installed).isNotEmpty();
    helm("uninstall", RELEASE, "-n", NAMESPACE, "--wait").success();

    await("every object of the release deleted").atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(installed.stream().filter(o -> stored(o) != null).map(o -> o.getKind() + "/"
            + o.getMetadata().getName())).isEmpty());
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems()).isEmpty();
    assertThat(client.secrets().inNamespace(NAMESPACE).withLabel("owner", "helm").list().getItems())
        .as("helm's release records").isEmpty();
  }

  /**
   * CRDs applied outside the chart ({@code crds.enabled=false}): the kind is served at the install, so the runtimes
   * are ordinary objects of the release from the start, and {@code helm uninstall} deletes them (no hook would).
   */
  @Test
  @Order(5)
  void withoutTheCrdsTheRuntimesAreTheReleasesAndGoWithIt() throws IOException {
    List<Path> crds;
    try (Stream<Path> files = Files.list(Deploy.manifests().resolve("crds"))) {
      crds = files.filter(f -> f.getFileName().toString().startsWith("trainer.kubeflow.org_")).sorted().toList();
    }
    for (Path crd : crds) {
      try (InputStream in = Files.newInputStream(crd)) {
        client.load(in).serverSideApply();
      }
    }
    await("the CRDs served").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> client
        .genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime").list() != null);
    helm("install", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE, "--create-namespace",
        "--set", "crds.enabled=false", "--set", "runtimes.defaultEnabled=true").success();
    assertThat(Rendered.parse(helm("get", "manifest", RELEASE, "-n", NAMESPACE).success())
        .ofKind("ClusterTrainingRuntime")).hasSize(8);
    assertThat(Rendered.parse(helm("get", "hooks", RELEASE, "-n", NAMESPACE).success()).objects()).isEmpty();
    assertThat(runtimes()).hasSize(8);

    helm("uninstall", RELEASE, "-n", NAMESPACE, "--wait").success();
    await("the runtimes deleted with the release").atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(runtimes()).isEmpty());
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
        .as("the CRDs are not the release's").hasSize(crds.size());
    for (Path crd : crds) {
      try (InputStream in = Files.newInputStream(crd)) {
        client.load(in).delete();
      }
    }
    await("the CRDs deleted").atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(client.apiextensions()
        .v1().customResourceDefinitions().list().getItems()).isEmpty());
  }

  /** Upstream's values file (v2.3.0's, the same at main 8c0f5059), unchanged: installed, then uninstalled. */
  @Test
  @Order(6)
  void installsFromUpstreamsValuesFileUnchanged() throws IOException {
    helm("install", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE, "--create-namespace", "-f",
        Renders.CASES.resolve("upstream-v2.3.0-values.yaml").toString()).success();
    assertThat(helm("status", RELEASE, "-n", NAMESPACE).success()).contains("STATUS: deployed");
    assertThat(client.apps().deployments().inNamespace(NAMESPACE).withName("kubeflow-trainer-controller-manager")
        .get().getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo(Deploy.image());
    helm("uninstall", RELEASE, "-n", NAMESPACE, "--wait").success();
    await("the release deleted").atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(client.apps()
        .deployments().inAnyNamespace().list().getItems()).isEmpty());
  }

  @Test
  @Order(7)
  void badValuesInstallNothing() throws IOException {
    Tools.Result result = helm("install", "bad", Deploy.chart().toString(), "-n", NAMESPACE, "--create-namespace",
        "--set", "webhook.failurePolicy=Sometimes", "--set", "manager.replicas=2");
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.err()).contains("at '/webhook/failurePolicy': value must be one of 'Fail', 'Ignore'");
    assertThat(client.secrets().inNamespace(NAMESPACE).withLabels(Map.of("owner", "helm", "name", "bad")).list()
        .getItems()).isEmpty();
    assertThat(client.apps().deployments().inAnyNamespace().list().getItems()).isEmpty();
    assertThat(client.rbac().clusterRoles().list().getItems()).isEmpty();
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems()).isEmpty();
  }

  /** The objects of the release as helm recorded them: its manifest and the hooks it keeps. */
  private static List<HasMetadata> releaseObjects() throws IOException {
    List<HasMetadata> objects = new ArrayList<>(Rendered.parse(helm("get", "manifest", RELEASE, "-n", NAMESPACE)
        .success()).objects());
    Rendered.parse(helm("get", "hooks", RELEASE, "-n", NAMESPACE).success()).objects().stream()
        .filter(hook -> !hook.getMetadata().getAnnotations().getOrDefault("helm.sh/hook-delete-policy", "")
            .contains("hook-succeeded"))
        .forEach(objects::add);
    return objects;
  }

  private static List<GenericKubernetesResource> runtimes() {
    return client.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime").list()
        .getItems();
  }

  /** Name to uid of each ClusterTrainingRuntime. */
  private static Map<String, String> runtimeUids() {
    return runtimes().stream().collect(Collectors.toMap(r -> r.getMetadata().getName(),
        r -> r.getMetadata().getUid()));
  }

  private static GenericKubernetesResource stored(HasMetadata object) {
    var resources = client.genericKubernetesResources(object.getApiVersion(), object.getKind());
    String namespace = object.getMetadata().getNamespace();
    try {
      return namespace == null ? resources.withName(object.getMetadata().getName()).get()
          : resources.inNamespace(namespace).withName(object.getMetadata().getName()).get();
    } catch (RuntimeException e) {
      return null; // the kind is gone (its CRD deleted): so is the object
    }
  }

  private static Tools.Result helmUnchecked(String... args) {
    try {
      return helm(args);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Tools.Result helm(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(args));
    command.addAll(List.of("--kubeconfig", server.kubeconfig().toString()));
    return Tools.helm(command.toArray(String[]::new));
  }
}
