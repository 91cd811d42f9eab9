package io.kftrainer.operator.manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.framework.loader.PluginConfiguration;
import io.kftrainer.operator.plugins.OperatorPlugins;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the installation manifests as {@code kubectl kustomize} renders them: {@code manifests/base} (CRDs,
 * RBAC, Deployment, Service, webhook configurations) and {@code manifests/runtimes} (the shipped
 * ClusterTrainingRuntimes).
 *
 * <p>Tests that render are skipped (JUnit assumption) when {@code kubectl} cannot be run; set {@code KUBECTL} or
 * the system property {@code kubectl} to its path if it is not on the {@code PATH}. Rendering needs no cluster.
 * The runtime files are also parsed one by one into our API model, as the operator's {@code render} command
 * loads them.
 *
 * <p>Reuse from other tests: {@link #render(String)} returns the rendered objects of a kustomization and
 * {@link #renderedRbac()} the RBAC rules bound to the operator's ServiceAccount, with
 * {@link RenderedRbac#allows} to ask whether one request is authorized. A test that checks the RBAC against
 * every request the operator makes should use those.
 *
 * <p>{@code manifests/crds} is generated separately. Until it has a {@code kustomization.yaml}, the base is
 * rendered from a temporary copy next to an empty CRD kustomization, and only the test that checks the CRDs
 * themselves is skipped.
 */
public class ManifestsTest {

    public static final String NAMESPACE = "kubeflow-system";
    public static final String OPERATOR = "kubeflow-trainer-controller-manager";
    public static final String IMAGE = "ghcr.io/kftrainer/trainer-operator:0.1.0";

    static final String VALIDATING_CONFIGURATION = "validator.trainer.kubeflow.org";
    static final String MUTATING_CONFIGURATION = "defaulter.trainer.kubeflow.org";
    static final String WEBHOOK_SECRET = "kubeflow-trainer-webhook-cert";
    static final String LEASE = "trainer.kubeflow.org";
    static final String ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step";
    static final String FRAMEWORK_LABEL = "trainer.kubeflow.org/framework";
    static final String WEBHOOK_VALIDATION_LABEL = "trainer.kubeflow.org/webhook-validation";

    /** The shipped runtimes and their framework label. */
    static final Map<String, String> RUNTIMES = orderedMap(
            "torch-distributed", "torch",
            "deepspeed-distributed", "deepspeed",
            "mlx-distributed", "mlx",
            "jax-distributed", "jax",
            "xgboost-distributed", "xgboost",
            "torchtune-llama3.2-1b", "torchtune",
            "torchtune-llama3.2-3b", "torchtune",
            "torchtune-qwen2.5-1.5b", "torchtune");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final Map<String, List<HasMetadata>> RENDERED = new ConcurrentHashMap<>();

    // ------------------------------------------------------------------------------------------------------
    // Reusable helpers
    // ------------------------------------------------------------------------------------------------------

    /** The repository's {@code manifests/} directory, found from the module directory Maven runs tests in. */
    public static Path manifestsDir() {
        Path moduleDir = moduleDir();
        for (Path candidate : List.of(moduleDir.resolve("../manifests"), moduleDir.resolve("manifests"))) {
            if (Files.isDirectory(candidate.resolve("base"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("no manifests/base next to " + moduleDir.toAbsolutePath());
    }

    /**
     * Renders {@code manifests/<kustomization>} (e.g. {@code "base"}, {@code "runtimes"}) with
     * {@code kubectl kustomize} and parses every document. Skips the calling test when kubectl is absent.
     * Built-in kinds come back typed (Deployment, ClusterRole, ...), our own kinds as
     * {@link GenericKubernetesResource} unless a typed class is registered with fabric8. Cached per JVM: do not
     * modify the returned objects.
     */
    public static List<HasMetadata> render(String kustomization) {
        String kubectl = kubectl();
        return RENDERED.computeIfAbsent(kustomization, k -> parseAll(run(kubectl, "kustomize",
                kustomizationDir(k).toString())));
    }

    /** The RBAC rules bound to the operator's ServiceAccount in the rendered {@code manifests/base}. */
    public static RenderedRbac renderedRbac() {
        List<HasMetadata> base = render("base");
        assertThat(find(base, ServiceAccount.class, OPERATOR)).as("ServiceAccount " + OPERATOR).isNotNull();
        List<PolicyRule> clusterRules = new ArrayList<>();
        List<PolicyRule> namespaceRules = new ArrayList<>();
        for (ClusterRoleBinding binding : ofKind(base, ClusterRoleBinding.class)) {
            if (bindsOperator(binding.getSubjects())) {
                clusterRules.addAll(rulesOf(base, binding.getRoleRef(), null));
            }
        }
        for (RoleBinding binding : ofKind(base, RoleBinding.class)) {
            if (NAMESPACE.equals(binding.getMetadata().getNamespace()) && bindsOperator(binding.getSubjects())) {
                namespaceRules.addAll(rulesOf(base, binding.getRoleRef(), NAMESPACE));
            }
        }
        return new RenderedRbac(NAMESPACE, List.copyOf(clusterRules), List.copyOf(namespaceRules));
    }

    /**
     * The rules granted to the operator: {@code clusterRules} through ClusterRoleBindings (every namespace and
     * cluster-scoped resources), {@code namespaceRules} through RoleBindings in {@code namespace} only.
     */
    public record RenderedRbac(String namespace, List<PolicyRule> clusterRules, List<PolicyRule> namespaceRules) {

        /**
         * Whether the API server would authorize the request.
         *
         * @param apiGroup "" for the core group
         * @param resource plural name, with "/subresource" if any (e.g. {@code trainjobs/status})
         * @param namespace the request's namespace; null for cluster-scoped resources or all namespaces
         * @param name the object's name; null for requests without one (list, watch, create)
         */
        public boolean allows(String apiGroup, String resource, String verb, String namespace, String name) {
            Stream<PolicyRule> rules = this.namespace.equals(namespace)
                    ? Stream.concat(clusterRules.stream(), namespaceRules.stream())
                    : clusterRules.stream();
            return rules.anyMatch(rule -> matches(rule, apiGroup, resource, verb, name));
        }

        /** Whether the request is authorized in every namespace (or cluster-wide), for any object name. */
        public boolean allowsEverywhere(String apiGroup, String resource, String verb) {
            return allows(apiGroup, resource, verb, null, null);
        }

        public List<PolicyRule> allRules() {
            return Stream.concat(clusterRules.stream(), namespaceRules.stream()).toList();
        }

        static boolean matches(PolicyRule rule, String apiGroup, String resource, String verb, String name) {
            List<String> names = rule.getResourceNames();
            return matchesOrStar(rule.getApiGroups(), apiGroup)
                    && matchesOrStar(rule.getResources(), resource)
                    && matchesOrStar(rule.getVerbs(), verb)
                    && (names == null || names.isEmpty() || (name != null && names.contains(name)));
        }

        private static boolean matchesOrStar(List<String> values, String value) {
            return values != null && (values.contains(value) || values.contains("*"));
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // manifests/base
    // ------------------------------------------------------------------------------------------------------

    @Test
    void baseRendersEveryOperatorObjectInItsNamespace() {
        List<HasMetadata> base = render("base");
        assertThat(base).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).contains(
                "Namespace/" + NAMESPACE,
                "ServiceAccount/" + OPERATOR,
                "ClusterRole/" + OPERATOR,
                "ClusterRoleBinding/" + OPERATOR,
                "Role/" + OPERATOR,
                "RoleBinding/" + OPERATOR,
                "Deployment/" + OPERATOR,
                "Service/" + OPERATOR,
                "ValidatingWebhookConfiguration/" + VALIDATING_CONFIGURATION,
                "MutatingWebhookConfiguration/" + MUTATING_CONFIGURATION);
        for (Class<? extends HasMetadata> namespaced : List.of(ServiceAccount.class, Role.class,
                RoleBinding.class, Deployment.class, Service.class)) {
            assertThat(ofKind(base, namespaced)).allSatisfy(o -> assertThat(o.getMetadata().getNamespace())
                    .as(o.getKind() + " " + o.getMetadata().getName()).isEqualTo(NAMESPACE));
        }
    }

    @Test
    void baseIncludesTheTrainerCrds() {
        Assumptions.assumeTrue(Files.exists(manifestsDir().resolve("crds/kustomization.yaml")),
                "manifests/crds/kustomization.yaml is not generated yet");
        assertThat(ofKind(render("base"), CustomResourceDefinition.class))
                .extracting(crd -> crd.getMetadata().getName())
                .contains("trainjobs.trainer.kubeflow.org", "trainingruntimes.trainer.kubeflow.org",
                        "clustertrainingruntimes.trainer.kubeflow.org", "optimizationjobs.trainer.kubeflow.org");
    }

    @Test
    void builtInObjectsUseOnlyFieldsKnownToTheirSchema() {
        // fabric8 keeps unknown (e.g. misspelt) fields in additionalProperties instead of failing.
        for (HasMetadata object : render("base")) {
            if (object instanceof GenericKubernetesResource || object instanceof CustomResourceDefinition) {
                continue; // not ours to check, or no typed schema here
            }
            assertThat(unknownFields(object, object.getKind() + "/" + object.getMetadata().getName()))
                    .as("unknown fields").isEmpty();
        }
    }

    @Test
    void deploymentRunsTheOperatorHardened() {
        Deployment deployment = find(render("base"), Deployment.class, OPERATOR);
        assertThat(deployment).as("Deployment " + OPERATOR).isNotNull();
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        assertThat(deployment.getSpec().getSelector().getMatchLabels()).isNotEmpty();
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());

        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(OPERATOR);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getContainers()).hasSize(1);

        Container manager = pod.getContainers().get(0);
        assertThat(manager.getImage()).isEqualTo(IMAGE);
        assertThat(manager.getCommand()).as("the image's entrypoint is used").isNullOrEmpty();
        assertThat(manager.getArgs()).first().isEqualTo("run");
        // ports, names and the Lease come from upstream's Configuration file, mounted as upstream mounts it
        assertThat(manager.getArgs()).contains("--config=/controller_manager_config.yaml",
                "--plugins-dir=/opt/trainer/plugins");
        assertThat(manager.getVolumeMounts()).anySatisfy(mount -> {
            assertThat(mount.getMountPath()).isEqualTo("/controller_manager_config.yaml");
            assertThat(mount.getSubPath()).isEqualTo("controller_manager_config.yaml");
        });

        var security = manager.getSecurityContext();
        assertThat(security.getRunAsNonRoot()).isTrue();
        assertThat(security.getRunAsUser()).isEqualTo(65532L);
        assertThat(security.getReadOnlyRootFilesystem()).isTrue();
        assertThat(security.getAllowPrivilegeEscalation()).isFalse();
        assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
        assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");

        assertThat(manager.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(manager.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(containerPort(manager, manager.getLivenessProbe().getHttpGet().getPort().getStrVal(),
                manager.getLivenessProbe().getHttpGet().getPort().getIntVal())).isEqualTo(8081);
        assertThat(containerPort(manager, manager.getReadinessProbe().getHttpGet().getPort().getStrVal(),
                manager.getReadinessProbe().getHttpGet().getPort().getIntVal())).isEqualTo(8081);
        assertThat(manager.getPorts()).extracting(ContainerPort::getContainerPort).contains(9443, 8443, 8081);

        assertThat(manager.getResources().getRequests()).containsOnlyKeys("cpu", "memory");
        assertThat(manager.getResources().getRequests().get("cpu").toString()).isEqualTo("500m");
        assertThat(manager.getResources().getRequests().get("memory").toString()).isEqualTo("512Mi");
        assertThat(manager.getResources().getLimits().get("cpu").toString()).isEqualTo("2");
        assertThat(manager.getResources().getLimits().get("memory").toString()).isEqualTo("1Gi");

        Map<String, EnvVar> env = manager.getEnv().stream()
                .collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertThat(env.get("POD_NAMESPACE").getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("metadata.namespace");
        assertThat(env).as("JAVA_TOOL_OPTIONS would replace the image's (its class-data archive)")
                .doesNotContainKey("JAVA_TOOL_OPTIONS");

        Map<String, String> mounts = manager.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
        Map<String, Volume> volumes = pod.getVolumes().stream()
                .collect(Collectors.toMap(Volume::getName, v -> v));
        assertThat(volumes.get(mounts.get("/tmp")).getEmptyDir()).as("/tmp is an emptyDir").isNotNull();
        assertThat(volumes.get(mounts.get("/opt/trainer/plugins"))).as("plugins volume").isNotNull();
    }

    @Test
    void thePluginConfigurationComesFromItsConfigMapAndTheOperatorAcceptsIt() {
        List<HasMetadata> base = render("base");
        PodSpec pod = find(base, Deployment.class, OPERATOR).getSpec().getTemplate().getSpec();
        Container manager = pod.getContainers().get(0);
        assertThat(manager.getArgs()).contains("--plugin-config=/etc/trainer/plugin-config/plugins.yaml");
        VolumeMount mount = manager.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals("/etc/trainer/plugin-config")).findFirst().orElseThrow();
        Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                .orElseThrow();
        ConfigMap configMap = base.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
                .filter(cm -> cm.getMetadata().getName().equals(volume.getConfigMap().getName()))
                .findFirst().orElseThrow(() -> new AssertionError("no ConfigMap " + volume.getConfigMap().getName()));
        assertThat(configMap.getMetadata().getName()).startsWith("kubeflow-trainer-plugin-config-");

        PluginConfiguration.parse(configMap.getData().get("plugins.yaml"), "plugins.yaml")
                .apply(OperatorPlugins.load(Path.of("target/no-such-plugins")).plugins().stream()
                        .map(loaded -> loaded.plugin()).toList());
    }

    @Test
    void serviceRoutesWebhookAndMetricsToTheOperatorPods() {
        List<HasMetadata> base = render("base");
        Service service = find(base, Service.class, OPERATOR);
        Deployment deployment = find(base, Deployment.class, OPERATOR);
        assertThat(service).as("Service " + OPERATOR).isNotNull();
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());

        Container manager = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<Integer, Integer> portToContainerPort = new LinkedHashMap<>();
        for (ServicePort port : service.getSpec().getPorts()) {
            portToContainerPort.put(port.getPort(), containerPort(manager, port.getTargetPort().getStrVal(),
                    port.getTargetPort().getIntVal()));
        }
        assertThat(portToContainerPort).containsEntry(443, 9443).containsEntry(8443, 8443);
    }

    @Test
    void webhookConfigurationsPointAtTheOperatorService() {
        List<HasMetadata> base = render("base");
        ValidatingWebhookConfiguration validating =
                find(base, ValidatingWebhookConfiguration.class, VALIDATING_CONFIGURATION);
        MutatingWebhookConfiguration mutating = find(base, MutatingWebhookConfiguration.class, MUTATING_CONFIGURATION);
        assertThat(validating).as(VALIDATING_CONFIGURATION).isNotNull();
        assertThat(mutating).as(MUTATING_CONFIGURATION).isNotNull();

        Map<String, WebhookSummary> webhooks = new LinkedHashMap<>();
        for (ValidatingWebhook w : validating.getWebhooks()) {
            webhooks.put(w.getName(), new WebhookSummary(w.getClientConfig(), w.getRules(), w.getFailurePolicy(),
                    w.getSideEffects(), w.getAdmissionReviewVersions(),
                    w.getObjectSelector() == null ? null : SERIALIZATION.asJson(w.getObjectSelector())));
        }
        for (MutatingWebhook w : mutating.getWebhooks()) {
            webhooks.put(w.getName(), new WebhookSummary(w.getClientConfig(), w.getRules(), w.getFailurePolicy(),
                    w.getSideEffects(), w.getAdmissionReviewVersions(),
                    w.getObjectSelector() == null ? null : SERIALIZATION.asJson(w.getObjectSelector())));
        }

        Map<String, String> expectedPaths = orderedMap(
                "validator.trainjob.trainer.kubeflow.org", "/validate-trainer-kubeflow-org-v1alpha1-trainjob",
                "validator.trainingruntime.trainer.kubeflow.org",
                "/validate-trainer-kubeflow-org-v1alpha1-trainingruntime",
                "validator.clustertrainingruntime.trainer.kubeflow.org",
                "/validate-trainer-kubeflow-org-v1alpha1-clustertrainingruntime",
                "defaulter.trainjob.trainer.kubeflow.org", "/mutate-trainer-kubeflow-org-v1alpha1-trainjob");
        Map<String, String> expectedResources = orderedMap(
                "validator.trainjob.trainer.kubeflow.org", "trainjobs",
                "validator.trainingruntime.trainer.kubeflow.org", "trainingruntimes",
                "validator.clustertrainingruntime.trainer.kubeflow.org", "clustertrainingruntimes",
                "defaulter.trainjob.trainer.kubeflow.org", "trainjobs");
        assertThat(webhooks.keySet()).containsExactlyInAnyOrderElementsOf(expectedPaths.keySet());

        webhooks.forEach((name, webhook) -> {
            var service = webhook.clientConfig().getService();
            assertThat(service.getName()).as(name).isEqualTo(OPERATOR);
            assertThat(service.getNamespace()).as(name).isEqualTo(NAMESPACE);
            assertThat(service.getPath()).as(name).isEqualTo(expectedPaths.get(name));
            assertThat(service.getPort()).as(name).isIn(null, 443);
            assertThat(webhook.clientConfig().getUrl()).as(name).isNull();
            assertThat(webhook.clientConfig().getCaBundle()).as(name + " caBundle is patched at runtime")
                    .isNullOrEmpty();
            assertThat(webhook.failurePolicy()).as(name).isEqualTo("Fail");
            assertThat(webhook.sideEffects()).as(name).isEqualTo("None");
            assertThat(webhook.admissionReviewVersions()).as(name).containsExactly("v1");
            assertThat(webhook.rules()).as(name).singleElement().satisfies(rule -> {
                assertThat(rule.getApiGroups()).containsExactly("trainer.kubeflow.org");
                assertThat(rule.getApiVersions()).containsExactly("v1alpha1");
                assertThat(rule.getResources()).containsExactly(expectedResources.get(name));
                assertThat(rule.getOperations()).containsExactlyInAnyOrder("CREATE", "UPDATE");
            });
            boolean runtimeWebhook = name.contains("trainingruntime");
            if (runtimeWebhook) {
                assertThat(webhook.objectSelectorJson()).as(name + " objectSelector")
                        .contains(WEBHOOK_VALIDATION_LABEL, "NotIn", "disabled");
            } else {
                assertThat(webhook.objectSelectorJson()).as(name + " objectSelector").isNull();
            }
        });
    }

    private record WebhookSummary(WebhookClientConfig clientConfig, List<RuleWithOperations> rules,
            String failurePolicy, String sideEffects, List<String> admissionReviewVersions,
            String objectSelectorJson) {
    }

    // ------------------------------------------------------------------------------------------------------
    // RBAC
    // ------------------------------------------------------------------------------------------------------

    @Test
    void rbacHasNoWildcardsAndNoPrivilegeEscalation() {
        RenderedRbac rbac = renderedRbac();
        assertThat(rbac.clusterRules()).isNotEmpty();
        assertThat(rbac.namespaceRules()).isNotEmpty();
        for (PolicyRule rule : rbac.allRules()) {
            String described = SERIALIZATION.asJson(rule);
            assertThat(rule.getApiGroups()).as(described).isNotEmpty().doesNotContain("*");
            assertThat(rule.getResources()).as(described).isNotEmpty().doesNotContain("*")
                    .noneMatch(r -> r.endsWith("/*"));
            assertThat(rule.getVerbs()).as(described).isNotEmpty()
                    .doesNotContain("*", "escalate", "bind", "impersonate", "deletecollection");
            assertThat(rule.getResourceNames()).as(described).doesNotContain("*");
            assertThat(rule.getNonResourceURLs()).as(described).isNullOrEmpty();
            assertThat(rule.getApiGroups()).as(described)
                    .doesNotContain("rbac.authorization.k8s.io", "certificates.k8s.io");
            if (rule.getApiGroups().contains("authentication.k8s.io")) {
                // metrics.auth and the status server's fallback ask who a token belongs to (TokenReview): it
                // grants nothing; no TokenRequest (minting tokens) or anything else
                assertThat(rule.getApiGroups()).as(described).containsExactly("authentication.k8s.io");
                assertThat(rule.getResources()).as(described).containsExactly("tokenreviews");
                assertThat(rule.getVerbs()).as(described).containsExactly("create");
            }
        }
    }

    @Test
    void rbacBindsOnlyTheRolesDefinedHere() {
        List<HasMetadata> base = render("base");
        assertThat(ofKind(base, ClusterRoleBinding.class)).allSatisfy(binding -> {
            assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
            assertThat(find(base, ClusterRole.class, binding.getRoleRef().getName())).isNotNull();
            assertThat(bindsOperator(binding.getSubjects())).isTrue();
        });
        // but upstream's kubeflow-trainer-public, which lets every authenticated user read one ConfigMap
        assertThat(ofKind(base, RoleBinding.class)).filteredOn(b -> !b.getMetadata().getName()
                .equals("kubeflow-trainer-public")).allSatisfy(binding -> {
            assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
            assertThat(find(base, Role.class, binding.getRoleRef().getName())).isNotNull();
            assertThat(bindsOperator(binding.getSubjects())).isTrue();
        });
    }

    static Stream<Arguments> rbacSamples() {
        return Stream.of(
                // what the operator needs
                allowed("trainer.kubeflow.org", "trainjobs", "watch", null, null),
                allowed("trainer.kubeflow.org", "trainjobs/status", "patch", null, null),
                allowed("trainer.kubeflow.org", "trainjobs/finalizers", "update", null, null),
                allowed("trainer.kubeflow.org", "clustertrainingruntimes", "list", null, null),
                // trial TrainJobs of OptimizationJobs, and their history
                allowed("trainer.kubeflow.org", "trainjobs", "create", null, null),
                allowed("trainer.kubeflow.org", "trainjobs", "delete", null, null),
                allowed("trainer.kubeflow.org", "optimizationjobs", "watch", null, null),
                allowed("trainer.kubeflow.org", "optimizationjobs/status", "patch", null, null),
                allowed("jobset.x-k8s.io", "jobsets", "delete", null, null),
                allowed("scheduling.volcano.sh", "podgroups", "create", null, null),
                allowed("", "secrets", "watch", null, null),
                allowed("events.k8s.io", "events", "create", null, null),
                allowed("admissionregistration.k8s.io", "validatingwebhookconfigurations", "patch", null,
                        VALIDATING_CONFIGURATION),
                allowed("admissionregistration.k8s.io", "mutatingwebhookconfigurations", "update", null,
                        MUTATING_CONFIGURATION),
                allowed("coordination.k8s.io", "leases", "update", NAMESPACE, LEASE),
                allowed("coordination.k8s.io", "leases", "create", NAMESPACE, null),
                allowed("", "secrets", "update", NAMESPACE, WEBHOOK_SECRET),
                allowed("scheduling.k8s.io", "priorityclasses", "get", null, null),
                allowed("", "namespaces", "list", null, null),
                // failed JobSet pods: the restart Events name the pod, its node and why
                allowed("", "pods", "watch", null, null),
                // and no more
                denied("trainer.kubeflow.org", "optimizationjobs", "create", null, null),
                denied("trainer.kubeflow.org", "optimizationjobs", "delete", null, null),
                denied("trainer.kubeflow.org", "clustertrainingruntimes", "update", null, null),
                denied("", "pods", "delete", null, null),
                denied("", "pods/log", "get", null, null),
                denied("", "secrets", "delete", null, null),
                denied("", "namespaces", "update", null, null),
                denied("admissionregistration.k8s.io", "validatingwebhookconfigurations", "patch", null,
                        "someone-elses-webhook"),
                denied("coordination.k8s.io", "leases", "update", "default", LEASE),
                denied("coordination.k8s.io", "leases", "update", NAMESPACE, "another-lease"),
                denied("apiextensions.k8s.io", "customresourcedefinitions", "update", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rbacSamples")
    void rbacGrantsTheOperatorsRequestsAndNoMore(String description, String apiGroup, String resource, String verb,
            String namespace, String name, boolean expected) {
        assertThat(renderedRbac().allows(apiGroup, resource, verb, namespace, name)).as(description)
                .isEqualTo(expected);
    }

    private static Arguments allowed(String group, String resource, String verb, String namespace, String name) {
        return sample(true, group, resource, verb, namespace, name);
    }

    private static Arguments denied(String group, String resource, String verb, String namespace, String name) {
        return sample(false, group, resource, verb, namespace, name);
    }

    private static Arguments sample(boolean allowed, String group, String resource, String verb, String namespace,
            String name) {
        String description = String.format("%s %s %s%s%s %s", allowed ? "allows" : "denies", verb,
                group.isEmpty() ? "" : group + "/", resource, name == null ? "" : " " + name,
                namespace == null ? "cluster-wide" : "in namespace " + namespace);
        return Arguments.of(description, group, resource, verb, namespace, name, allowed);
    }

    // ------------------------------------------------------------------------------------------------------
    // manifests/runtimes
    // ------------------------------------------------------------------------------------------------------

    @Test
    void runtimesRenderAsTheShippedClusterTrainingRuntimes() {
        List<HasMetadata> runtimes = render("runtimes");
        assertThat(runtimes).allSatisfy(runtime -> {
            assertThat(runtime.getApiVersion()).isEqualTo("trainer.kubeflow.org/v1alpha1");
            assertThat(runtime.getKind()).isEqualTo("ClusterTrainingRuntime");
            assertThat(runtime.getMetadata().getNamespace()).as("cluster-scoped").isNull();
            assertThat(runtime.getMetadata().getLabels())
                    .containsEntry(FRAMEWORK_LABEL, RUNTIMES.get(runtime.getMetadata().getName()))
                    .containsEntry(WEBHOOK_VALIDATION_LABEL, "disabled");
        });
        assertThat(runtimes).extracting(r -> r.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(RUNTIMES.keySet());
    }

    @Test
    void everyRuntimeFileHoldsOneRuntimeNamedAfterIt() throws IOException {
        List<Path> files = runtimeFiles();
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrderElementsOf(RUNTIMES.keySet().stream().map(n -> n + ".yaml").toList());
        for (Path file : files) {
            Object parsed = SERIALIZATION.unmarshal(Files.readString(file));
            assertThat(parsed).as(file + " holds one object").isInstanceOf(HasMetadata.class);
            HasMetadata runtime = (HasMetadata) parsed;
            assertThat(runtime.getKind()).as(file.toString()).isEqualTo("ClusterTrainingRuntime");
            assertThat(runtime.getMetadata().getName() + ".yaml").isEqualTo(file.getFileName().toString());
        }
    }

    /**
     * The operator's {@code render} command loads the runtime files into our API model: every field written in
     * them must be known to {@link ClusterTrainingRuntime} and survive the round trip.
     */
    @Test
    void runtimeFilesParseIntoOurClusterTrainingRuntimeModel() throws IOException {
        for (Path file : runtimeFiles()) {
            String yaml = Files.readString(file);
            ClusterTrainingRuntime typed = SERIALIZATION.unmarshal(yaml, ClusterTrainingRuntime.class);
            assertThat(typed.getMetadata().getName() + ".yaml").isEqualTo(file.getFileName().toString());
            assertThat(typed.getSpec()).as(file + " spec").isNotNull();
            Object written = SERIALIZATION.convertValue(SERIALIZATION.unmarshal(yaml, GenericKubernetesResource.class),
                    Map.class);
            Object roundTripped = SERIALIZATION.convertValue(typed, Map.class);
            List<String> lost = new ArrayList<>();
            collectLostFields(written, roundTripped, "", lost);
            assertThat(lost).as(file + ": fields that the ClusterTrainingRuntime model drops or changes").isEmpty();
        }
    }

    /**
     * The checks of the runtime validating webhook, applied ahead of time: the shipped runtimes carry
     * {@code webhook-validation: disabled}, so the webhook itself never sees them.
     */
    @Test
    void runtimesPassTheRuntimeWebhookChecks() {
        Map<String, String> requiredContainer = Map.of("trainer", "node", "model-initializer", "model-initializer",
                "dataset-initializer", "dataset-initializer");
        for (HasMetadata runtime : render("runtimes")) {
            String name = runtime.getMetadata().getName();
            Map<String, Object> spec = map(asMap(runtime), "spec");
            Map<String, Object> mlPolicy = map(spec, "mlPolicy");
            assertThat(mlPolicy.get("numNodes")).as(name + " numNodes").isEqualTo(1);
            assertThat(mlPolicy.keySet()).as(name + " has exactly one ML policy")
                    .filteredOn(k -> !k.equals("numNodes")).hasSize(1);

            List<Map<String, Object>> jobs = list(map(map(spec, "template"), "spec"), "replicatedJobs");
            assertThat(jobs).as(name).isNotEmpty();
            int trainers = 0;
            for (Map<String, Object> job : jobs) {
                String jobName = name + "/" + job.get("name");
                Map<String, Object> template = map(job, "template");
                Object ancestor = optionalMap(optionalMap(template, "metadata"), "labels").get(ANCESTOR_LABEL);
                if (ancestor == null) {
                    continue;
                }
                assertThat(requiredContainer).as(jobName + " ancestor").containsKey((String) ancestor);
                assertThat(job.getOrDefault("replicas", 1)).as(jobName + " replicas").isEqualTo(1);
                List<Map<String, Object>> containers =
                        list(map(map(map(template, "spec"), "template"), "spec"), "containers");
                assertThat(containers).as(jobName + " containers").extracting(c -> c.get("name"))
                        .contains(requiredContainer.get(ancestor));
                if ("trainer".equals(ancestor)) {
                    trainers++;
                } else {
                    Map<String, Object> initializer = containers.stream()
                            .filter(c -> ancestor.equals(c.get("name"))).findFirst().orElseThrow();
                    assertThat(list(initializer, "volumeMounts")).as(jobName + " mounts")
                            .extracting(m -> m.get("name")).contains("initializer");
                }
            }
            assertThat(trainers).as(name + " has one trainer job").isEqualTo(1);
        }
    }

    @Test
    void mpiRuntimesStartTheLauncherOnceTheSshNodesAreReady() {
        for (String name : List.of("deepspeed-distributed", "mlx-distributed")) {
            Map<String, Object> spec = map(asMap(findRuntime(name)), "spec");
            Map<String, Object> mpi = map(map(spec, "mlPolicy"), "mpi");
            assertThat(mpi).as(name).containsEntry("mpiImplementation", "OpenMPI")
                    .containsEntry("numProcPerNode", 1)
                    .containsEntry("sshAuthMountPath", "/home/mpiuser/.ssh")
                    .containsEntry("runLauncherAsNode", true);

            Map<String, Object> jobSet = map(map(spec, "template"), "spec");
            assertThat(map(jobSet, "network")).as(name).containsEntry("publishNotReadyAddresses", true);
            assertThat(values(map(jobSet, "successPolicy"), "targetReplicatedJobs")).as(name)
                    .containsExactly("launcher");
            Map<String, Map<String, Object>> jobs = list(jobSet, "replicatedJobs").stream()
                    .collect(Collectors.toMap(j -> (String) j.get("name"), j -> j));
            assertThat(jobs).as(name).containsOnlyKeys("launcher", "node");
            assertThat(values(jobs.get("launcher"), "dependsOn")).as(name)
                    .containsExactly(Map.of("name", "node", "status", "Ready"));
            Map<String, Object> node = list(map(map(map(map(jobs.get("node"), "template"), "spec"), "template"),
                    "spec"), "containers").get(0);
            assertThat(map(map(node, "readinessProbe"), "tcpSocket")).as(name).containsEntry("port", 2222);
        }
    }

    @Test
    void torchtuneRuntimesShareTheInitializerVolume() {
        for (String name : RUNTIMES.keySet().stream().filter(n -> n.startsWith("torchtune-")).toList()) {
            Map<String, Object> jobSet = map(map(map(asMap(findRuntime(name)), "spec"), "template"), "spec");
            assertThat(list(jobSet, "volumeClaimPolicies")).as(name)
                    .flatExtracting(p -> list(p, "templates"))
                    .extracting(t -> map(t, "metadata").get("name")).containsExactly("initializer");
            Map<String, Map<String, Object>> jobs = list(jobSet, "replicatedJobs").stream()
                    .collect(Collectors.toMap(j -> (String) j.get("name"), j -> j));
            assertThat(values(jobs.get("node"), "dependsOn")).as(name).containsExactlyInAnyOrder(
                    Map.of("name", "dataset-initializer", "status", "Complete"),
                    Map.of("name", "model-initializer", "status", "Complete"));
            Map<String, Object> node = list(map(map(map(map(jobs.get("node"), "template"), "spec"), "template"),
                    "spec"), "containers").get(0);
            assertThat(values(node, "command")).as(name).startsWith("tune", "run");
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // plumbing
    // ------------------------------------------------------------------------------------------------------

    private static String kubectlCommand;

    /** The kubectl command, checked once per JVM; skips the calling test when it cannot be run. */
    private static synchronized String kubectl() {
        String kubectl = System.getProperty("kubectl", Objects.requireNonNullElse(System.getenv("KUBECTL"), "kubectl"));
        if (!kubectl.equals(kubectlCommand)) {
            boolean available;
            try {
                Process process = new ProcessBuilder(kubectl, "version", "--client").redirectErrorStream(true).start();
                process.getInputStream().transferTo(OutputStream.nullOutputStream());
                available = process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
            } catch (IOException e) {
                available = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                available = false;
            }
            Assumptions.assumeTrue(available, "kubectl (" + kubectl + ") cannot be run: skipping the manifest"
                    + " checks. Install kubectl, or set KUBECTL / -Dkubectl to its path.");
            kubectlCommand = kubectl;
        }
        return kubectl;
    }

    /** {@code manifests/<name>}; for the base without generated CRDs, a copy next to an empty CRD kustomization. */
    private static Path kustomizationDir(String name) {
        Path manifests = manifestsDir();
        Path dir = manifests.resolve(name);
        if (!name.equals("base") || Files.exists(manifests.resolve("crds/kustomization.yaml"))) {
            return dir;
        }
        try {
            Path root = moduleDir().resolve("target/manifests-without-crds");
            deleteRecursively(root);
            Files.createDirectories(root.resolve("crds"));
            Files.writeString(root.resolve("crds/kustomization.yaml"),
                    "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n");
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path source : files.toList()) {
                    Path target = root.resolve("base").resolve(dir.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(source, target);
                    }
                }
            }
            System.err.println("ManifestsTest: manifests/crds/kustomization.yaml is missing; rendering "
                    + "manifests/base against an empty CRD kustomization in " + root);
            return root.resolve("base");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path moduleDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(command).start();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
            String stdout = readAll(process.getInputStream());
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " timed out");
            }
            if (process.exitValue() != 0) {
                fail(String.join(" ", command) + " failed (exit " + process.exitValue() + "):\n" + stderr.join());
            }
            return stdout;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<HasMetadata> parseAll(String yaml) {
        Object parsed = SERIALIZATION.unmarshal(yaml);
        List<?> documents = parsed instanceof List<?> list ? list : List.of(parsed);
        List<HasMetadata> objects = new ArrayList<>();
        for (Object document : documents) {
            assertThat(document).as("rendered document").isInstanceOf(HasMetadata.class);
            objects.add((HasMetadata) document);
        }
        return List.copyOf(objects);
    }

    static <T extends HasMetadata> List<T> ofKind(List<HasMetadata> objects, Class<T> kind) {
        return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    static <T extends HasMetadata> T find(List<HasMetadata> objects, Class<T> kind, String name) {
        return ofKind(objects, kind).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst()
                .orElse(null);
    }

    private static HasMetadata findRuntime(String name) {
        return render("runtimes").stream().filter(r -> name.equals(r.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no runtime " + name));
    }

    private static boolean bindsOperator(List<Subject> subjects) {
        return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
                && OPERATOR.equals(s.getName()) && NAMESPACE.equals(s.getNamespace()));
    }

    private static List<PolicyRule> rulesOf(List<HasMetadata> objects, RoleRef ref, String namespace) {
        if ("ClusterRole".equals(ref.getKind())) {
            ClusterRole role = find(objects, ClusterRole.class, ref.getName());
            assertThat(role).as("bound ClusterRole " + ref.getName()).isNotNull();
            return role.getRules();
        }
        Role role = ofKind(objects, Role.class).stream()
                .filter(r -> ref.getName().equals(r.getMetadata().getName()))
                .filter(r -> Objects.equals(namespace, r.getMetadata().getNamespace()))
                .findFirst().orElse(null);
        assertThat(role).as("bound Role " + namespace + "/" + ref.getName()).isNotNull();
        return role.getRules();
    }

    private static Integer containerPort(Container container, String name, Integer number) {
        if (name == null) {
            return number;
        }
        return container.getPorts().stream().filter(p -> name.equals(p.getName()))
                .map(ContainerPort::getContainerPort).findFirst()
                .orElseThrow(() -> new AssertionError("no container port named " + name));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(HasMetadata object) {
        return SERIALIZATION.convertValue(object, Map.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as(key).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> optionalMap(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as(key).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> values(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertThat(value).as(key).isInstanceOf(List.class);
        return (List<Object>) value;
    }

    private static List<Path> runtimeFiles() throws IOException {
        try (Stream<Path> listing = Files.list(manifestsDir().resolve("runtimes"))) {
            return listing.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
                    .sorted(Comparator.naturalOrder())
                    .toList();
        }
    }

    /** Paths present in {@code written} that are missing or different in {@code roundTripped}. */
    private static void collectLostFields(Object written, Object roundTripped, String path, List<String> lost) {
        if (written instanceof Map<?, ?> writtenMap) {
            if (!(roundTripped instanceof Map<?, ?> roundTrippedMap)) {
                lost.add(path + " (not an object after the round trip: " + roundTripped + ")");
                return;
            }
            writtenMap.forEach((k, v) -> collectLostFields(v, roundTrippedMap.get(k), path + "." + k, lost));
        } else if (written instanceof List<?> writtenList) {
            if (!(roundTripped instanceof List<?> roundTrippedList) || roundTrippedList.size() != writtenList.size()) {
                lost.add(path + " (list changed: " + roundTripped + ")");
                return;
            }
            for (int i = 0; i < writtenList.size(); i++) {
                collectLostFields(writtenList.get(i), roundTrippedList.get(i), path + "[" + i + "]", lost);
            }
        } else if (roundTripped == null || !String.valueOf(written).equals(String.valueOf(roundTripped))) {
            // Scalars compare as text: a Quantity written as 2 comes back as "2".
            lost.add(path + " = " + written + " (after the round trip: " + roundTripped + ")");
        }
    }

    /** Paths of fields that fabric8 did not recognise, found through the model's getters. */
    private static List<String> unknownFields(Object value, String path) {
        List<String> found = new ArrayList<>();
        collectUnknownFields(value, path, found);
        return found;
    }

    private static void collectUnknownFields(Object value, String path, List<String> found) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectUnknownFields(list.get(i), path + "[" + i + "]", found);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknownFields(v, path + "." + k, found));
            return;
        }
        if (value == null || !value.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add(path + ": " + extra.keySet());
                }
                continue;
            }
            String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
            collectUnknownFields(child, path + "." + field, found);
        }
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

}
