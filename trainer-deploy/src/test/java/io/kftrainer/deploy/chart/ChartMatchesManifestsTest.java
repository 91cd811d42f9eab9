package io.kftrainer.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Rendered;
import io.kftrainer.deploy.Renders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The chart installs what manifests/ installs: the same CRDs and runtimes (files/crds and files/runtimes are copies
 * of manifests/crds and manifests/runtimes; {@code -Dtrainer.updateChart=true} refreshes them), the same RBAC rules,
 * webhooks, Deployment, Service and Configuration, when both are rendered with their defaults (helm and kustomize,
 * the real tools; skipped without them). Labels may differ (the chart's are upstream's chart's; selectors are
 * immutable, so kustomize keeps its own).
 */
class ChartMatchesManifestsTest {

  private static final boolean UPDATE = Boolean.getBoolean("trainer.updateChart");
  private static final String MANAGER = "kubeflow-trainer-controller-manager";

  /** The alert rules and the dashboard: the chart's files/monitoring are copies of manifests/overlays/monitoring. */
  private static final List<String> MONITORING_FILES = List.of("prometheus-rules.yaml",
      "kubeflow-trainer-dashboard.json");

  private static Rendered chart;
  private static Rendered manifests;

  @BeforeAll
  static void render() throws IOException {
    if (UPDATE) {
      copy(Deploy.manifests().resolve("crds"), Deploy.chart().resolve("files/crds"), "trainer.kubeflow.org_");
      copy(Deploy.manifests().resolve("runtimes"), Deploy.chart().resolve("files/runtimes"), "");
      for (String file : MONITORING_FILES) {
        Files.copy(Deploy.manifests().resolve("overlays/monitoring").resolve(file),
            Deploy.chart().resolve("files/monitoring").resolve(file), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    // as an upgrade renders it, the runtimes' kind served: the runtimes are objects of the release, no installer Job
    chart = Renders.chart("--set", "runtimes.defaultEnabled=true",
        "--api-versions=trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime");
    manifests = Renders.kustomize("base");
  }

  @Test
  void theChartsCrdsAreManifestsCrds() throws IOException {
    assertThat(files(Deploy.chart().resolve("files/crds"))).as("run with -Dtrainer.updateChart=true to refresh")
        .isEqualTo(files(Deploy.manifests().resolve("crds"), "trainer.kubeflow.org_"));
    assertThat(specs(chart.ofKind("CustomResourceDefinition")))
        .isEqualTo(specs(manifests.ofKind("CustomResourceDefinition")));
  }

  @Test
  void theChartsRuntimesAreManifestsRuntimes() throws IOException {
    assertThat(files(Deploy.chart().resolve("files/runtimes"))).as("run with -Dtrainer.updateChart=true to refresh")
        .isEqualTo(files(Deploy.manifests().resolve("runtimes"), "", "kustomization.yaml"));
    Rendered shipped = Renders.kustomize("runtimes");
    assertThat(specs(chart.ofKind("ClusterTrainingRuntime"))).isEqualTo(specs(shipped.ofKind("ClusterTrainingRuntime")));
    assertThat(chart.ofKind("ClusterTrainingRuntime")).allSatisfy(runtime -> assertThat(runtime.getMetadata()
        .getLabels()).containsEntry("trainer.kubeflow.org/webhook-validation", "disabled"));
  }

  /**
   * The monitoring overlay and the chart's monitoring values make the same ServiceMonitor endpoint, alerts (the
   * rules file, which the overlay's PrometheusRule carries verbatim) and dashboard.
   */
  @Test
  void theMonitoringOverlayIsTheChartsMonitoring() throws IOException {
    for (String file : MONITORING_FILES) {
      assertThat(Files.readString(Deploy.chart().resolve("files/monitoring").resolve(file)))
          .as("%s; run with -Dtrainer.updateChart=true to refresh", file)
          .isEqualTo(Files.readString(Deploy.manifests().resolve("overlays/monitoring").resolve(file)));
    }
    Rendered fromChart = Renders.chart("--set", "manager.metrics.serviceMonitor.enabled=true",
        "--set", "manager.metrics.prometheusRule.enabled=true", "--set", "grafanaDashboard.defaultEnabled=true");
    Rendered fromManifests = Renders.kustomize("overlays/monitoring");
    JsonNode rules = Rendered.SERIALIZATION.unmarshal(Files.readString(
        Deploy.manifests().resolve("overlays/monitoring/prometheus-rules.yaml")), JsonNode.class);
    for (Rendered rendered : List.of(fromChart, fromManifests)) {
      assertThat(spec(rendered.ofKind("PrometheusRule").get(0))).isEqualTo(rules);
      assertThat(spec(rendered.ofKind("ServiceMonitor").get(0)).path("endpoints"))
          .isEqualTo(spec(fromManifests.ofKind("ServiceMonitor").get(0)).path("endpoints"));
      assertThat(rendered.ofKind("ConfigMap").stream().filter(map -> map.getMetadata().getName()
          .endsWith("grafana-dashboard"))).singleElement().satisfies(map -> assertThat(map.getMetadata()
          .getLabels()).containsEntry("grafana_dashboard", "1"));
    }
    assertThat(Renders.chart().ofKind("ServiceMonitor")).as("off by default").isEmpty();
  }

  private static JsonNode spec(HasMetadata object) {
    return Rendered.SERIALIZATION.convertValue(object, JsonNode.class).path("spec");
  }

  @Test
  void theRbacRulesAreTheSame() {
    for (ClusterRole role : manifests.ofKind(ClusterRole.class)) {
      assertThat(rules(chart.get(ClusterRole.class, role.getMetadata().getName()).getRules()))
          .as("ClusterRole " + role.getMetadata().getName()).isEqualTo(rules(role.getRules()));
    }
    for (Role role : manifests.ofKind(Role.class)) {
      assertThat(rules(chart.get(Role.class, role.getMetadata().getName()).getRules()))
          .as("Role " + role.getMetadata().getName()).isEqualTo(rules(role.getRules()));
    }
    assertThat(chart.ofKind(ClusterRole.class)).hasSameSizeAs(manifests.ofKind(ClusterRole.class));
    assertThat(chart.ofKind(Role.class)).hasSameSizeAs(manifests.ofKind(Role.class));
    assertThat(bindings(chart)).isEqualTo(bindings(manifests));
  }

  @Test
  void theWebhooksAreTheSame() {
    for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
      assertThat(webhooks(chart, kind)).as(kind).isEqualTo(webhooks(manifests, kind));
    }
  }

  @Test
  void theManagerRunsTheSameWay() {
    Deployment fromChart = chart.get(Deployment.class, MANAGER);
    Deployment fromManifests = manifests.get(Deployment.class, MANAGER);
    assertThat(fromChart.getSpec().getReplicas()).isEqualTo(fromManifests.getSpec().getReplicas());
    assertThat(fromChart.getSpec().getTemplate().getSpec().getSecurityContext())
        .isEqualTo(fromManifests.getSpec().getTemplate().getSpec().getSecurityContext());
    Container a = fromChart.getSpec().getTemplate().getSpec().getContainers().get(0);
    Container b = fromManifests.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(a.getImage()).isEqualTo(b.getImage());
    assertThat(a.getArgs()).isEqualTo(b.getArgs());
    assertThat(a.getPorts()).containsExactlyInAnyOrderElementsOf(b.getPorts());
    assertThat(a.getLivenessProbe()).isEqualTo(b.getLivenessProbe());
    assertThat(a.getReadinessProbe()).isEqualTo(b.getReadinessProbe());
    assertThat(a.getResources()).isEqualTo(b.getResources());
    assertThat(a.getSecurityContext()).isEqualTo(b.getSecurityContext());
    assertThat(a.getEnv()).isEqualTo(b.getEnv());
    assertThat(a.getVolumeMounts().stream().map(m -> m.getMountPath() + " " + m.getSubPath() + " " + m.getReadOnly())
        .sorted().toList()).isEqualTo(b.getVolumeMounts().stream().map(m -> m.getMountPath() + " " + m.getSubPath()
        + " " + m.getReadOnly()).sorted().toList());
  }

  /**
   * Upstream's Istio annotation on the manager pods (the webhook port), and, with more than one replica (the base's
   * PodDisruptionBudget is there for that), the preferred anti-affinity of the manager pods on the node, each
   * selecting its own Deployment's pods.
   */
  @Test
  void theManagerPodsAreAnnotatedAndSpreadTheSameWay() throws IOException {
    Deployment fromChart = Renders.chart("--set", "manager.replicas=2").get(Deployment.class, MANAGER);
    Deployment fromManifests = manifests.get(Deployment.class, MANAGER);
    for (Deployment deployment : List.of(fromChart, fromManifests, chart.get(Deployment.class, MANAGER))) {
      assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
          .containsEntry("traffic.sidecar.istio.io/excludeInboundPorts", "9443");
    }
    for (Deployment deployment : List.of(fromChart, fromManifests)) {
      var terms = deployment.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
          .getPreferredDuringSchedulingIgnoredDuringExecution();
      assertThat(terms).singleElement().satisfies(term -> {
        assertThat(term.getWeight()).isEqualTo(100);
        assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
            .containsAllEntriesOf(term.getPodAffinityTerm().getLabelSelector().getMatchLabels());
      });
    }
  }

  /**
   * The namespace-scoped variant: the chart's {@code manager.watchNamespaces} and manifests/overlays/namespaced (for
   * team-a and team-b) give the same RoleBindings, arguments and webhooks (those of TrainJobs and TrainingRuntimes
   * scoped to the two namespaces).
   */
  @Test
  void theNamespacedVariantIsTheSame() throws IOException {
    Rendered fromChart = Renders.chart("--set", "manager.watchNamespaces={team-a,team-b}");
    Rendered fromManifests = Renders.kustomize("overlays/namespaced");
    assertThat(bindings(fromChart)).isEqualTo(bindings(fromManifests));
    assertThat(fromChart.get(Deployment.class, MANAGER).getSpec().getTemplate().getSpec().getContainers().get(0)
        .getArgs()).isEqualTo(fromManifests.get(Deployment.class, MANAGER).getSpec().getTemplate().getSpec()
        .getContainers().get(0).getArgs());
    for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
      assertThat(webhooks(fromChart, kind)).as(kind).isEqualTo(webhooks(fromManifests, kind));
    }
    assertThat(webhooks(fromManifests, "ValidatingWebhookConfiguration").get("validator.trainer.kubeflow.org/"
        + "validator.trainjob.trainer.kubeflow.org").path("namespaceSelector").toString())
        .isEqualTo("{\"matchExpressions\":[{\"key\":\"kubernetes.io/metadata.name\",\"operator\":\"In\","
            + "\"values\":[\"team-a\",\"team-b\"]}]}");
  }

  @Test
  void theServiceExposesTheSamePorts() {
    assertThat(ports(chart.get(Service.class, MANAGER))).isEqualTo(ports(manifests.get(Service.class, MANAGER)));
  }

  @Test
  void theManagersConfigurationIsTheSame() {
    assertThat(configuration(chart.get(ConfigMap.class, "kubeflow-trainer-config")))
        .isEqualTo(configuration(manifests.get(ConfigMap.class, "kubeflow-trainer-config")));
    assertThat(chart.get(ConfigMap.class, "kubeflow-trainer-public").getData())
        .isEqualTo(manifests.get(ConfigMap.class, "kubeflow-trainer-public").getData());
  }

  /**
   * cert-manager's way is the same with both: the chart's {@code webhook.certManager.enable} (with
   * {@code certManagement.enable=false}) and manifests/overlays/cert-manager make the same Issuer and Certificate, the
   * same CA-injection annotation, the same Configuration, the Secret mounted at the same place, and no empty Secret
   * of their own (cert-manager creates it).
   */
  @Test
  void theCertManagerWayIsTheSame() throws IOException {
    Rendered fromChart = Renders.chart("--set", "webhook.certManager.enable=true",
        "--set", "manager.config.certManagement.enable=false");
    Rendered fromManifests = Renders.kustomize("overlays/cert-manager");
    for (String kind : List.of("Certificate", "Issuer")) {
      Map<String, JsonNode> a = specs(fromChart.ofKind(kind));
      a.values().forEach(spec -> ((ObjectNode) spec).remove("secretTemplate"));
      assertThat(a).as(kind + " (the chart's Secret template aside)").isEqualTo(specs(fromManifests.ofKind(kind)))
          .hasSize(1);
    }
    assertThat(configuration(fromChart.get(ConfigMap.class, "kubeflow-trainer-config")))
        .isEqualTo(configuration(fromManifests.get(ConfigMap.class, "kubeflow-trainer-config")));
    JsonNode base = configuration(manifests.get(ConfigMap.class, "kubeflow-trainer-config")).deepCopy();
    ((ObjectNode) base.path("certManagement")).put("enable", false);
    assertThat(configuration(fromManifests.get(ConfigMap.class, "kubeflow-trainer-config")))
        .as("the overlay's Configuration is the base's but certManagement.enable").isEqualTo(base);
    for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
      assertThat(fromChart.ofKind(kind)).singleElement().satisfies(c -> assertThat(c.getMetadata().getAnnotations())
          .isEqualTo(fromManifests.ofKind(kind).get(0).getMetadata().getAnnotations())
          .containsEntry("cert-manager.io/inject-ca-from", "kubeflow-system/kubeflow-trainer-webhook-cert"));
      assertThat(webhooks(fromChart, kind)).isEqualTo(webhooks(fromManifests, kind));
    }
    for (Rendered rendered : List.of(fromChart, fromManifests)) {
      assertThat(rendered.find(Secret.class, "kubeflow-trainer-webhook-cert")).isEmpty();
      var pod = rendered.get(Deployment.class, MANAGER).getSpec().getTemplate().getSpec();
      assertThat(pod.getContainers().get(0).getVolumeMounts()).anySatisfy(m -> {
        assertThat(m.getMountPath()).isEqualTo("/tmp/k8s-webhook-server/serving-certs");
        assertThat(m.getReadOnly()).isTrue();
        assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getName() + " " + (v.getSecret() == null ? null
            : v.getSecret().getSecretName())).isEqualTo(m.getName() + " kubeflow-trainer-webhook-cert"));
      });
    }
  }

  // ------------------------------------------------------------------------------------------------------------

  private static JsonNode configuration(ConfigMap configMap) {
    return Rendered.SERIALIZATION.unmarshal(configMap.getData().get("controller_manager_config.yaml"),
        JsonNode.class);
  }

  /** Name to spec of each object. */
  private static Map<String, JsonNode> specs(List<HasMetadata> objects) {
    Map<String, JsonNode> specs = new TreeMap<>();
    for (HasMetadata object : objects) {
      specs.put(object.getMetadata().getName(), Rendered.SERIALIZATION.convertValue(object, JsonNode.class)
          .path("spec"));
    }
    return specs;
  }

  /** Rules in a comparable form: each rule with its lists sorted, the rules sorted. */
  private static List<String> rules(List<PolicyRule> rules) {
    return rules.stream().map(rule -> String.join(";", sorted(rule.getApiGroups()), sorted(rule.getResources()),
        sorted(rule.getResourceNames()), sorted(rule.getVerbs()))).sorted().toList();
  }

  private static String sorted(List<String> values) {
    return values == null ? "" : String.join(",", new TreeSet<>(values));
  }

  /** Who is granted what, where: "Kind namespace/name -> role kind/name: subjects". */
  private static List<String> bindings(Rendered rendered) {
    List<String> bindings = new ArrayList<>();
    rendered.ofKind(ClusterRoleBinding.class).forEach(b -> bindings.add("ClusterRoleBinding " + b.getMetadata()
        .getName() + " -> " + b.getRoleRef().getKind() + "/" + b.getRoleRef().getName() + ": " + b.getSubjects()));
    rendered.ofKind(RoleBinding.class).forEach(b -> bindings.add("RoleBinding " + b.getMetadata().getNamespace()
        + "/" + b.getMetadata().getName() + " -> " + b.getRoleRef().getKind() + "/" + b.getRoleRef().getName() + ": "
        + b.getSubjects()));
    return bindings.stream().sorted().toList();
  }

  /** The webhooks of a configuration kind, by name, without what depends on the installation (labels). */
  private static Map<String, JsonNode> webhooks(Rendered rendered, String kind) {
    Map<String, JsonNode> webhooks = new TreeMap<>();
    for (HasMetadata configuration : rendered.ofKind(kind)) {
      for (JsonNode webhook : Rendered.SERIALIZATION.convertValue(configuration, JsonNode.class).path("webhooks")) {
        ObjectNode copy = webhook.deepCopy();
        webhooks.put(configuration.getMetadata().getName() + "/" + webhook.path("name").asText(), copy);
      }
    }
    return webhooks;
  }

  private static List<String> ports(Service service) {
    return service.getSpec().getPorts().stream().map((ServicePort p) -> p.getName() + " " + p.getPort() + " -> "
        + p.getTargetPort().getStrVal() + "/" + p.getProtocol()).sorted().toList();
  }

  /** File name to content of the YAML files of {@code dir} whose name starts with {@code prefix}. */
  private static Map<String, String> files(Path dir, String prefix, String... except) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(dir)) {
      for (Path file : list.toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith(".yaml") && name.startsWith(prefix) && !List.of(except).contains(name)) {
          files.put(name, Files.readString(file));
        }
      }
    }
    return files;
  }

  private static Map<String, String> files(Path dir) throws IOException {
    return files(dir, "");
  }

  private static void copy(Path from, Path to, String prefix) throws IOException {
    try (Stream<Path> old = Files.list(to)) {
      for (Path file : old.toList()) {
        Files.delete(file);
      }
    }
    for (String name : files(from, prefix, "kustomization.yaml").keySet()) {
      Files.copy(from.resolve(name), to.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
