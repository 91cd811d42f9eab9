package io.kftrainer.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Rendered;
import io.kftrainer.deploy.Renders;
import io.kftrainer.deploy.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart with the real helm (skipped without it): it lints; it renders, with its default values and with every
 * value changed (src/test/resources/chart/custom-values.yaml), exactly its golden files
 * ({@code <case>.golden.yaml}; {@code -Dtrainer.updateGolden=true} rewrites them; the CRDs, 750 kB, are left out:
 * ChartMatchesManifestsTest checks them), with only fields the Kubernetes API knows; bad values are refused with
 * the path of the value.
 */
class HelmTemplateTest {

  private static final boolean UPDATE = Boolean.getBoolean("trainer.updateGolden");
  /** Renders the runtimes alone (faster than the 750 kB of CRDs each time). */
  private static final String RUNTIMES_ONLY = "--show-only=templates/runtimes.yaml";
  /** A cluster that serves the runtimes' kind: every upgrade, an install with the CRDs applied beforehand. */
  private static final String SERVED = "--api-versions=trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime";
  private static final Pattern CRD = Pattern.compile("(?s)^# Source: kubeflow-trainer/templates/crds.yaml\n.*");

  @ParameterizedTest(name = "{0} values")
  @ValueSource(strings = {"default", "custom"})
  void lints(String testCase) throws IOException {
    Tools.Result lint = testCase.equals("default") ? Tools.helm("lint", Deploy.chart().toString())
        : Tools.helm("lint", Deploy.chart().toString(), "-f", Renders.CASES.resolve(testCase + "-values.yaml")
            .toString());
    lint.success();
    assertThat(lint.out()).contains("0 chart(s) failed").doesNotContain("[ERROR]", "[WARNING]");
  }

  @ParameterizedTest(name = "{0} values")
  @ValueSource(strings = {"default", "custom"})
  void rendersItsGoldenFile(String testCase) throws IOException {
    String rendered = withoutCrds(Renders.templateCase(testCase));
    Path golden = Renders.CASES.resolve(testCase + ".golden.yaml");
    if (UPDATE) {
      Files.writeString(golden, rendered);
    }
    assertThat(rendered).as("helm template with " + testCase + " values; -Dtrainer.updateGolden=true rewrites "
        + golden).isEqualTo(Files.readString(golden));
  }

  @ParameterizedTest(name = "{0} values")
  @ValueSource(strings = {"default", "custom"})
  void rendersOnlyFieldsTheKubernetesApiKnows(String testCase) throws IOException {
    Rendered.parse(Renders.templateCase(testCase)).assertOnlyKnownFields();
  }

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of("manager.replicas=-1", "at '/manager/replicas': minimum: got -1, want 0"),
        Arguments.of("webhook.failurePolicy=Sometimes", "at '/webhook/failurePolicy': value must be one of"),
        Arguments.of("manager.replica=2", "at '/manager': additional properties 'replica' not allowed"),
        Arguments.of("manager.config.leaderElection.leaseDuration=15", "at '/manager/config/leaderElection/"
            + "leaseDuration': got number, want string"),
        Arguments.of("manager.config.metrics.bindAddress=8443", "at '/manager/config/metrics/bindAddress'"),
        Arguments.of("manager.config.featureGates.TrainJobStatus=maybe",
            "at '/manager/config/featureGates/TrainJobStatus': got string, want boolean"),
        Arguments.of("manager.watchNamespaces[0]=Team_A", "at '/manager/watchNamespaces/0'"),
        Arguments.of("runtimes.torchDistributed.enable=true",
            "at '/runtimes/torchDistributed': additional properties 'enable' not allowed"),
        Arguments.of("manager.env[0].name=JAVA_TOOL_OPTIONS,manager.env[0].value=-Xmx1g",
            "manager.env: JAVA_TOOL_OPTIONS would replace the image's"),
        // upstream's keys are accepted, not anything beside them
        Arguments.of("jobset.instal=false", "at '/jobset': additional properties 'instal' not allowed"),
        Arguments.of("dataCache.enabled=maybe", "at '/dataCache/enabled': got string, want boolean"),
        Arguments.of("runtimes.installer.image.name=x",
            "at '/runtimes/installer/image': additional properties 'name' not allowed"),
        Arguments.of("manager.podDisruptionBudget.enabled=no",
            "at '/manager/podDisruptionBudget/enabled': got string, want boolean"));
  }

  @ParameterizedTest(name = "--set {0}")
  @MethodSource("badValues")
  void refusesBadValuesNamingTheValue(String set, String message) throws IOException {
    Tools.Result result = Renders.helmTemplate("--set", set);
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.err()).contains(message);
  }

  /**
   * Upstream's values file (v2.3.0's, the same at main 8c0f5059; src/test/resources/chart/upstream-v2.3.0-values.yaml)
   * unchanged: it passes the schema and lints; the keys that have no effect here are named in the notes; upstream's
   * manager image, which cannot run this chart's manager, is replaced by ours.
   */
  @Test
  void upstreamsValuesFileIsAcceptedUnchanged() throws IOException {
    String upstream = Renders.CASES.resolve("upstream-v2.3.0-values.yaml").toString();
    Tools.Result lint = Tools.helm("lint", Deploy.chart().toString(), "-f", upstream);
    lint.success();
    assertThat(lint.out()).doesNotContain("[ERROR]", "[WARNING]");
    Rendered rendered = Renders.chart("-f", upstream);
    rendered.assertOnlyKnownFields();
    Deployment deployment = rendered.get(Deployment.class, "kubeflow-trainer-controller-manager");
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo(Deploy.image());
    assertThat(rendered.ofKind(Deployment.class)).as("no JobSet subchart").hasSize(1);

    String notes = Tools.helm("install", Renders.RELEASE, Deploy.chart().toString(), "-n", Renders.NAMESPACE,
        "--dry-run=client", "-f", upstream, "--set", "dataCache.enabled=true",
        "--set", "runtimes.installer.image.tag=3.22", "--set", "runtimes.torchDistributed.enabled=true").success();
    assertThat(notes.substring(notes.indexOf("NOTES:"))).contains(
        "Values of upstream's chart accepted with no effect here",
        "jobset.install: this chart does not install JobSet", "dataCache.*: this chart installs neither",
        "image.repository: upstream's manager image (kubeflow/trainer/trainer-controller-manager) cannot run",
        "runtimes.installer.image: upstream's installer image (alpine, which installs kubectl) is not used");
    String ours = Tools.helm("install", Renders.RELEASE, Deploy.chart().toString(), "-n", Renders.NAMESPACE,
        "--dry-run=client").success();
    assertThat(ours.substring(ours.indexOf("NOTES:"))).doesNotContain("accepted with no effect");
  }

  /** {@code serviceName} and {@code secretName}, upstream's later names of the certManagement fields, map onto ours. */
  @Test
  void upstreamsLaterCertManagementNamesMapOntoTheConfigurationsFields() throws IOException {
    Rendered rendered = Renders.chart("--set", "manager.config.certManagement.serviceName=trainer-webhook",
        "--set", "manager.config.certManagement.secretName=trainer-certs");
    assertThat(rendered.find(Service.class, "trainer-webhook")).isPresent();
    assertThat(rendered.find(Secret.class, "trainer-certs")).isPresent();
    String configuration = rendered.get(ConfigMap.class, "kubeflow-trainer-config").getData()
        .get("controller_manager_config.yaml");
    assertThat(configuration).contains("webhookServiceName: trainer-webhook", "webhookSecretName: trainer-certs")
        .doesNotContain(" serviceName:", " secretName:");
  }

  /**
   * cert-manager's way: a self-signed Issuer (or the one given), a Certificate into the webhook Secret naming the
   * Service (and webhook.url's host, an IP address or a name), the CA injected into both webhook configurations, the
   * Secret mounted where the manager reads a certificate provided from outside; refused with the manager's own
   * certificates still on.
   */
  @Test
  void certManagerIssuesTheWebhookCertificate() throws IOException {
    Rendered rendered = Renders.chart("--set", "webhook.certManager.enable=true",
        "--set", "manager.config.certManagement.enable=false", "--set", "webhook.url=https://127.0.0.1:9443");
    rendered.assertOnlyKnownFields();
    HasMetadata certificate = rendered.ofKind("Certificate").get(0);
    JsonNode spec = Rendered.SERIALIZATION.convertValue(certificate, JsonNode.class).path("spec");
    assertThat(spec.path("secretName").asText()).isEqualTo("kubeflow-trainer-webhook-cert");
    assertThat(spec.path("dnsNames").toString()).isEqualTo("[\"kubeflow-trainer-controller-manager.kubeflow-system"
        + ".svc\",\"kubeflow-trainer-controller-manager.kubeflow-system.svc.cluster.local\"]");
    assertThat(spec.path("ipAddresses").toString()).isEqualTo("[\"127.0.0.1\"]");
    assertThat(spec.path("issuerRef").toString())
        .isEqualTo("{\"name\":\"kubeflow-trainer-webhook-issuer\",\"kind\":\"Issuer\",\"group\":\"cert-manager.io\"}");
    assertThat(rendered.ofKind("Issuer")).singleElement().satisfies(issuer -> assertThat(issuer.getMetadata()
        .getName()).isEqualTo("kubeflow-trainer-webhook-issuer"));
    for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
      assertThat(rendered.ofKind(kind).get(0).getMetadata().getAnnotations())
          .containsEntry("cert-manager.io/inject-ca-from", "kubeflow-system/kubeflow-trainer-webhook-cert");
    }
    assertThat(rendered.find(Secret.class, "kubeflow-trainer-webhook-cert")).as("cert-manager creates it").isEmpty();
    assertThat(certificateMount(rendered)).isTrue();

    Rendered named = Renders.chart("--set", "webhook.certManager.enable=true",
        "--set", "manager.config.certManagement.enable=false", "--set", "webhook.url=https://trainer.example.com:9443",
        "--set", "webhook.certManager.issuerRef.name=company-ca", "--set", "webhook.certManager.issuerRef.kind="
            + "ClusterIssuer");
    JsonNode namedSpec = Rendered.SERIALIZATION.convertValue(named.ofKind("Certificate").get(0), JsonNode.class)
        .path("spec");
    assertThat(namedSpec.path("dnsNames").toString()).contains("\"trainer.example.com\"");
    assertThat(namedSpec.path("ipAddresses").isMissingNode()).isTrue();
    assertThat(namedSpec.path("issuerRef").path("kind").asText()).isEqualTo("ClusterIssuer");
    assertThat(named.ofKind("Issuer")).as("the issuer given is used").isEmpty();

    Tools.Result both = Renders.helmTemplate("--set", "webhook.certManager.enable=true");
    assertThat(both.exitCode()).isNotZero();
    assertThat(both.err()).contains("webhook.certManager.enable: set manager.config.certManagement.enable=false");
  }

  /**
   * With certManagement.enable false (certificates provided from outside), the webhook Secret is mounted where the
   * manager reads them, as upstream's chart mounts it; with the manager's own certificates, nothing is mounted there
   * (the manager writes its certificate in /tmp).
   */
  @Test
  void theWebhookSecretIsMountedOnlyForCertificatesProvidedFromOutside() throws IOException {
    Rendered outside = Renders.chart("--set", "manager.config.certManagement.enable=false");
    assertThat(certificateMount(outside)).isTrue();
    assertThat(outside.find(Secret.class, "kubeflow-trainer-webhook-cert")).isPresent();
    assertThat(outside.ofKind("Certificate")).isEmpty();
    assertThat(certificateMount(Renders.chart())).isFalse();
  }

  private static boolean certificateMount(Rendered rendered) {
    var pod = rendered.get(Deployment.class, "kubeflow-trainer-controller-manager").getSpec().getTemplate().getSpec();
    return pod.getContainers().get(0).getVolumeMounts().stream().anyMatch(m -> m.getMountPath()
        .equals("/tmp/k8s-webhook-server/serving-certs") && Boolean.TRUE.equals(m.getReadOnly()) && pod.getVolumes()
        .stream().anyMatch(v -> v.getName().equals(m.getName()) && v.getSecret() != null
            && v.getSecret().getSecretName().equals("kubeflow-trainer-webhook-cert")));
  }

  /** With more than one replica and no affinity given, the manager pods prefer other nodes than each other's. */
  @Test
  void theManagerPodsPreferOtherNodesWhenThereIsMoreThanOne() throws IOException {
    assertThat(manager(Renders.chart()).getSpec().getTemplate().getSpec().getAffinity()).isNull();
    Deployment two = manager(Renders.chart("--set", "manager.replicas=2"));
    var term = two.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
        .getPreferredDuringSchedulingIgnoredDuringExecution().get(0);
    assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
    assertThat(term.getPodAffinityTerm().getLabelSelector().getMatchLabels())
        .isEqualTo(two.getSpec().getSelector().getMatchLabels());
    Deployment given = manager(Renders.chart("--set", "manager.replicas=2",
        "--set", "manager.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[0].key=pool,manager.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
            + ".nodeSelectorTerms[0].matchExpressions[0].operator=Exists"));
    assertThat(given.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()).as("the one given only")
        .isNull();
    assertThat(given.getSpec().getTemplate().getSpec().getAffinity().getNodeAffinity()).isNotNull();
  }

  /**
   * With watchNamespaces, the API server calls the webhooks of TrainJobs and TrainingRuntimes for those namespaces
   * only; the ClusterTrainingRuntime one (cluster-scoped) and every webhook without watchNamespaces, for all.
   */
  @Test
  void theWebhooksAreScopedToTheWatchedNamespaces() throws IOException {
    Map<String, JsonNode> scoped = webhooks(Renders.chart("--set", "manager.watchNamespaces={team-a,team-b}"));
    String selector = "{\"matchExpressions\":[{\"key\":\"kubernetes.io/metadata.name\",\"operator\":\"In\","
        + "\"values\":[\"team-a\",\"team-b\"]}]}";
    assertThat(scoped.get("defaulter.trainjob.trainer.kubeflow.org").path("namespaceSelector").toString())
        .isEqualTo(selector);
    assertThat(scoped.get("validator.trainjob.trainer.kubeflow.org").path("namespaceSelector").toString())
        .isEqualTo(selector);
    assertThat(scoped.get("validator.trainingruntime.trainer.kubeflow.org").path("namespaceSelector").toString())
        .isEqualTo(selector);
    assertThat(scoped.get("validator.clustertrainingruntime.trainer.kubeflow.org").has("namespaceSelector")).isFalse();
    assertThat(webhooks(Renders.chart()).values()).hasSize(4).allSatisfy(w -> assertThat(w.has("namespaceSelector"))
        .isFalse());
  }

  /** Upstream's Istio annotation: the sidecar lets the API server's calls to the webhook port through. */
  @Test
  void theManagerPodsLetIstioPassTheWebhookCalls() throws IOException {
    assertThat(manager(Renders.chart()).getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("traffic.sidecar.istio.io/excludeInboundPorts", "9443");
    assertThat(manager(Renders.chart("--set", "manager.config.webhook.port=10250")).getSpec().getTemplate()
        .getMetadata().getAnnotations()).containsEntry("traffic.sidecar.istio.io/excludeInboundPorts", "10250");
    assertThat(manager(Renders.chart("--set-string",
        "manager.podAnnotations.traffic\\.sidecar\\.istio\\.io/excludeInboundPorts=9443\\,15020"))
        .getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("traffic.sidecar.istio.io/excludeInboundPorts", "9443,15020");
  }

  @Test
  void theWebUiIsOffUnlessEnabledThenServedOnItsPortWithTheReadsItMakesForItsUsers() throws IOException {
    Rendered off = Renders.chart();
    assertThat(manager(off).getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .noneMatch(arg -> arg.startsWith("--ui-port"));
    Rendered on = Renders.chart("--set", "ui.enabled=true");
    assertThat(manager(on).getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .contains("--ui-port=8444");
    assertThat(manager(on).getSpec().getTemplate().getSpec().getContainers().get(0).getPorts())
        .anySatisfy(port -> assertThat(port.getContainerPort()).isEqualTo(8444));
    Service service = on.get(Service.class, "kubeflow-trainer-controller-manager-ui");
    assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getPort()).isEqualTo(8444);
      assertThat(port.getTargetPort().getStrVal()).isEqualTo("ui");
    });
    // a session lives in the manager that opened it
    assertThat(service.getSpec().getSessionAffinity()).isEqualTo("ClientIP");
    assertThat(off.find(Service.class, "kubeflow-trainer-controller-manager-ui")).isEmpty();
    assertThat(on.get(Service.class, "kubeflow-trainer-controller-manager").getSpec().getPorts())
        .noneSatisfy(port -> assertThat(port.getName()).isEqualTo("ui"));
    assertThat(on.get(ClusterRole.class, "kubeflow-trainer-controller-manager-workloads").getRules())
        .anySatisfy(rule -> assertThat(rule.getResources()).containsExactly("pods/log"));
    assertThat(off.get(ClusterRole.class, "kubeflow-trainer-controller-manager-workloads").getRules())
        .noneSatisfy(rule -> assertThat(rule.getResources()).contains("pods/log"));
  }

  private static Deployment manager(Rendered rendered) {
    return rendered.get(Deployment.class, "kubeflow-trainer-controller-manager");
  }

  /** Webhook name to webhook, of both configurations. */
  private static Map<String, JsonNode> webhooks(Rendered rendered) {
    Map<String, JsonNode> webhooks = new LinkedHashMap<>();
    for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
      for (HasMetadata configuration : rendered.ofKind(kind)) {
        Rendered.SERIALIZATION.convertValue(configuration, JsonNode.class).path("webhooks")
            .forEach(w -> webhooks.put(w.path("name").asText(), w));
      }
    }
    return webhooks;
  }

  @Test
  void aPodDisruptionBudgetIsNeverMadeWhenSwitchedOff() throws IOException {
    assertThat(Renders.chart("--set", "manager.replicas=3", "--set", "manager.podDisruptionBudget.enabled=false")
        .ofKind(PodDisruptionBudget.class)).isEmpty();
  }

  @Test
  void aPodDisruptionBudgetKeepsOneManagerOnlyWhenThereIsMoreThanOne() throws IOException {
    assertThat(Renders.chart().ofKind(PodDisruptionBudget.class)).isEmpty();
    PodDisruptionBudget budget = Renders.chart("--set", "manager.replicas=2").get(PodDisruptionBudget.class,
        "kubeflow-trainer-controller-manager");
    assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
    Deployment deployment = Renders.chart("--set", "manager.replicas=2").get(Deployment.class,
        "kubeflow-trainer-controller-manager");
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void eachRuntimeIsSwitchedOnByItsOwnValue() throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("runtimes.torchDistributed.enabled", "torch-distributed");
    values.put("runtimes.deepspeedDistributed.enabled", "deepspeed-distributed");
    values.put("runtimes.mlxDistributed.enabled", "mlx-distributed");
    values.put("runtimes.jaxDistributed.enabled", "jax-distributed");
    values.put("runtimes.xgboostDistributed.enabled", "xgboost-distributed");
    values.put("runtimes.torchtuneDistributed.llama3_2_1B.enabled", "torchtune-llama3.2-1b");
    values.put("runtimes.torchtuneDistributed.llama3_2_3B.enabled", "torchtune-llama3.2-3b");
    values.put("runtimes.torchtuneDistributed.qwen2_5_1_5B.enabled", "torchtune-qwen2.5-1.5b");
    assertThat(Renders.chart(SERVED).ofKind("ClusterTrainingRuntime")).isEmpty();
    assertThat(Renders.chart().ofKind("Job")).as("no installer without a runtime").isEmpty();
    for (Map.Entry<String, String> value : values.entrySet()) {
      assertThat(runtimeNames(Renders.chart(RUNTIMES_ONLY, SERVED, "--set", value.getKey() + "=true")))
          .as(value.getKey()).containsExactly(value.getValue());
      assertThat(installer(Renders.chart("--set", value.getKey() + "=true")).getData()).as(value.getKey())
          .containsOnlyKeys(value.getValue() + ".yaml");
    }
    assertThat(runtimeNames(Renders.chart(RUNTIMES_ONLY, SERVED, "--set", "runtimes.defaultEnabled=true")))
        .containsExactlyInAnyOrderElementsOf(values.values());
  }

  /**
   * Where the cluster does not serve the runtimes' kind yet (the install that brings the CRDs, where helm cannot map
   * them), a post-install Job of the operator's image applies them once it is served, with the release's ownership
   * metadata so that the next upgrade adopts them; its ServiceAccount may only get, create and patch runtimes, and
   * everything of it is a hook deleted once it succeeded. Wherever the kind is served (every upgrade, an install
   * with the CRDs applied beforehand) the runtimes are ordinary objects of the release, which helm updates in place
   * and never deletes to create again, and no Job runs.
   */
  @Test
  void anInstallerJobAppliesTheRuntimesOnlyWhereTheirKindIsNotServedYet() throws IOException {
    Rendered install = Renders.chart("--set", "runtimes.defaultEnabled=true");
    assertThat(install.ofKind("ClusterTrainingRuntime")).as("helm cannot map them").isEmpty();
    ConfigMap runtimes = installer(install);
    assertThat(runtimes.getData()).hasSize(8);
    List<HasMetadata> parsed = runtimes.getData().values().stream()
        .map(yaml -> Rendered.SERIALIZATION.unmarshal(yaml, HasMetadata.class)).toList();
    assertThat(parsed).allSatisfy(runtime -> {
      assertThat(runtime.getKind()).isEqualTo("ClusterTrainingRuntime");
      assertThat(runtime.getMetadata().getAnnotations())
          .containsEntry("meta.helm.sh/release-name", Renders.RELEASE)
          .containsEntry("meta.helm.sh/release-namespace", Renders.NAMESPACE)
          .doesNotContainKey("helm.sh/hook");
      assertThat(runtime.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "Helm")
          .containsEntry("trainer.kubeflow.org/webhook-validation", "disabled");
    });

    String name = Renders.RELEASE + "-runtimes-installer";
    Job job = install.get(Job.class, name);
    for (HasMetadata hook : List.of(job, runtimes, install.get(ServiceAccount.class, name),
        install.get(ClusterRole.class, name), install.get(ClusterRoleBinding.class, name))) {
      assertThat(hook.getMetadata().getAnnotations()).as(hook.getKind())
          .containsEntry("helm.sh/hook", "post-install,post-rollback")
          .containsEntry("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded");
    }
    assertThat(job.getMetadata().getAnnotations()).containsEntry("helm.sh/hook-weight", "0");
    assertThat(runtimes.getMetadata().getAnnotations()).containsEntry("helm.sh/hook-weight", "-1");
    assertThat(install.get(ClusterRole.class, name).getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getResources()).containsExactly("clustertrainingruntimes");
      assertThat(rule.getVerbs()).containsExactly("get", "create", "patch");
    });
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo(name);
    assertThat(pod.getContainers()).singleElement().satisfies(container -> {
      assertThat(container.getImage()).as("the operator's image, not upstream's alpine").isEqualTo(Deploy.image());
      assertThat(container.getArgs()).containsExactly("install-runtimes", "--dir=/etc/kubeflow-trainer/runtimes");
      assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    });

    List<HasMetadata> ordinary = Renders.chart(SERVED, "--set", "runtimes.defaultEnabled=true")
        .ofKind("ClusterTrainingRuntime");
    assertThat(ordinary).hasSize(8).allSatisfy(runtime -> assertThat(runtime.getMetadata().getAnnotations())
        .as(runtime.getMetadata().getName()).isNullOrEmpty());
    assertThat(Renders.chart(SERVED, "--set", "runtimes.defaultEnabled=true").ofKind("Job")).isEmpty();
  }

  /** Upstream's runtimes.installer values place the installer's pod; another image repository is a mirror. */
  @Test
  void theInstallerValuesPlaceItsPod() throws IOException {
    Rendered rendered = Renders.chart("--set", "runtimes.torchDistributed.enabled=true",
        "--set", "runtimes.installer.nodeSelector.pool=system",
        "--set", "runtimes.installer.tolerations[0].operator=Exists",
        "--set", "runtimes.installer.imagePullSecrets[0].name=mirror",
        "--set", "runtimes.installer.resources.limits.memory=300Mi",
        "--set", "runtimes.installer.image.registry=mirror.example.com",
        "--set", "runtimes.installer.image.repository=kftrainer/trainer-operator",
        "--set", "runtimes.installer.image.tag=0.1.0");
    PodSpec pod = rendered.get(Job.class, Renders.RELEASE + "-runtimes-installer").getSpec().getTemplate().getSpec();
    assertThat(pod.getNodeSelector()).containsExactly(Map.entry("pool", "system"));
    assertThat(pod.getTolerations()).extracting(Toleration::getOperator).containsExactly("Exists");
    assertThat(pod.getImagePullSecrets()).extracting(LocalObjectReference::getName).containsExactly("mirror");
    assertThat(pod.getContainers().get(0).getResources().getLimits()).containsOnlyKeys("memory");
    assertThat(pod.getContainers().get(0).getImage()).isEqualTo("mirror.example.com/kftrainer/trainer-operator:0.1.0");
  }

  private static ConfigMap installer(Rendered rendered) {
    return rendered.get(ConfigMap.class, Renders.RELEASE + "-runtimes-installer");
  }

  @Test
  void aRuntimeImageValueReplacesTheShippedImage() throws IOException {
    String yaml = Renders.template(RUNTIMES_ONLY, SERVED, "--set", "runtimes.xgboostDistributed.enabled=true",
        "--set", "runtimes.xgboostDistributed.image.registry=mirror.example.com",
        "--set", "runtimes.xgboostDistributed.image.tag=v2.3.1");
    assertThat(yaml).contains("image: mirror.example.com/kubeflow/trainer/xgboost-runtime:v2.3.1")
        .doesNotContain("ghcr.io/kubeflow/trainer/xgboost-runtime");
  }

  private static List<String> runtimeNames(Rendered rendered) {
    return rendered.ofKind("ClusterTrainingRuntime").stream().map(HasMetadata::getMetadata)
        .map(m -> m.getName()).toList();
  }

  /** The rendered documents but the CRDs, each replaced by a line naming it. */
  private static String withoutCrds(String yaml) {
    StringBuilder kept = new StringBuilder();
    for (String document : yaml.split("(?m)^---\\n")) {
      if (document.isBlank()) {
        continue;
      }
      if (CRD.matcher(document).matches()) {
        String name = document.lines().filter(l -> l.startsWith("  name: ")).findFirst().orElse("?");
        kept.append("---\n# CustomResourceDefinition ").append(name.substring("  name: ".length()).trim())
            .append(" (manifests/crds; ChartMatchesManifestsTest)\n");
      } else {
        kept.append("---\n").append(document);
      }
    }
    return kept.toString();
  }
}
