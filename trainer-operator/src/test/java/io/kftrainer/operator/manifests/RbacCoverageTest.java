package io.kftrainer.operator.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.webhook.cert.CaBundleInjector;
import io.kftrainer.operator.controller.TrainJobEventSources;
import io.kftrainer.operator.plugins.OperatorPlugins;
import io.kftrainer.runtime.RuntimeCatalog;
import io.kftrainer.testkit.Fixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every request the operator makes is allowed by the RBAC of {@code manifests/base}, as rendered by
 * {@code kubectl kustomize} (skipped without kubectl). The requests come from the code where it declares them:
 *
 * <ul>
 *   <li>each kind the built-in plugins and the controller watch ({@link PhaseRunner#watches()},
 *       {@link TrainJobEventSources#OPERATOR_WATCHES}) is read cluster-wide by an informer: get, list, watch;</li>
 *   <li>each kind of child (owned watches, and every kind the built-in plugins build for the shipped runtimes and
 *       the gang-scheduled test runtimes) is server-side applied in the TrainJob's namespace: create, patch;</li>
 *   <li>the fixed requests of the controller and of the webhook certificates: TrainJob status, Events, runtime
 *       snapshots, the deadline's JobSet deletion, the leader-election Lease, the certificate Secret and the two
 *       webhook configurations, with the names the operator uses by default.</li>
 * </ul>
 */
class RbacCoverageTest {

  private static final String USER_NAMESPACE = "team-a";
  private static final String OPERATOR_NAMESPACE = OperatorConfig.DEFAULT_OPERATOR_NAMESPACE;
  private static final PhaseRunner RUNNER = OperatorPlugins.load(Path.of("target/no-plugins")).runner();

  private static ManifestsTest.RenderedRbac rbac;

  /**
   * One API request: {@code verb} on {@code resource} (with {@code /subresource} if any) of {@code group}, in a
   * namespace (null: every namespace, or cluster-wide) for an object name (null: none).
   */
  record Request(String verb, String group, String resource, boolean namespaced, String namespace, String name,
      String why) {

    static Request of(String verb, Class<? extends HasMetadata> type, String namespace, String name, String why) {
      return new Request(verb, HasMetadata.getGroup(type), HasMetadata.getPlural(type),
          Namespaced.class.isAssignableFrom(type), namespace, name, why);
    }

    Request subresource(String subresource) {
      return new Request(verb, group, resource + "/" + subresource, namespaced, namespace, name, why);
    }

    @Override
    public String toString() {
      String[] parts = resource.split("/", 2);
      String where = namespace != null ? " in " + namespace : namespaced ? " in every namespace" : " cluster-wide";
      return verb + " " + parts[0] + (group.isEmpty() ? "" : "." + group) + (parts.length > 1 ? "/" + parts[1] : "")
          + where + (name == null ? "" : " named " + name) + " (" + why + ")";
    }
  }

  @BeforeAll
  static void render() {
    rbac = ManifestsTest.renderedRbac();
  }

  static Stream<Request> requests() {
    List<Request> requests = new ArrayList<>();
    for (String verb : List.of("get", "list", "watch")) {
      requests.add(Request.of(verb, TrainJob.class, null, null, "the controller's primary informer"));
    }
    for (Watch watch : watches()) {
      for (String verb : List.of("get", "list", "watch")) {
        requests.add(Request.of(verb, watch.type(), null, null, "informer of a watched kind"));
      }
    }
    for (Class<? extends HasMetadata> child : children()) {
      for (String verb : List.of("create", "patch")) {
        requests.add(Request.of(verb, child, USER_NAMESPACE, null, "server-side apply of a TrainJob's child"));
      }
    }
    requests.add(Request.of("patch", TrainJob.class, USER_NAMESPACE, "job", "status").subresource("status"));
    requests.add(Request.of("update", TrainJob.class, USER_NAMESPACE, "job", "owner references with "
        + "blockOwnerDeletion").subresource("finalizers"));
    requests.add(Request.of("create", Event.class, USER_NAMESPACE, null, "Events about TrainJobs"));
    requests.add(Request.of("create", ConfigMap.class, USER_NAMESPACE, null, "runtime snapshot"));
    requests.add(Request.of("get", ConfigMap.class, USER_NAMESPACE, "job-runtime-snapshot", "runtime snapshot"));
    requests.add(Request.of("delete", JobSet.class, USER_NAMESPACE, "job", "active deadline exceeded"));
    String lease = OperatorConfig.DEFAULT_LEASE_NAME;
    requests.add(Request.of("create", Lease.class, OPERATOR_NAMESPACE, null, "leader election"));
    requests.add(Request.of("get", Lease.class, OPERATOR_NAMESPACE, lease, "leader election"));
    requests.add(Request.of("patch", Lease.class, OPERATOR_NAMESPACE, lease, "leader election renewal"));
    String secret = OperatorConfig.DEFAULT_WEBHOOK_SECRET_NAME;
    requests.add(Request.of("create", Secret.class, OPERATOR_NAMESPACE, null, "webhook certificate"));
    requests.add(Request.of("get", Secret.class, OPERATOR_NAMESPACE, secret, "webhook certificate"));
    requests.add(Request.of("update", Secret.class, OPERATOR_NAMESPACE, secret, "webhook certificate renewal"));
    for (String verb : List.of("get", "patch")) {
      requests.add(Request.of(verb, ValidatingWebhookConfiguration.class, null,
          CaBundleInjector.VALIDATING_CONFIGURATION, "caBundle"));
      requests.add(Request.of(verb, MutatingWebhookConfiguration.class, null,
          CaBundleInjector.MUTATING_CONFIGURATION, "caBundle"));
    }
    return new LinkedHashSet<>(requests).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void theRbacAllows(Request request) {
    assertThat(rbac.allows(request.group(), request.resource(), request.verb(), request.namespace(), request.name()))
        .as(request.toString())
        .isTrue();
  }

  @Test
  void everyKindThePluginsBuildIsWatchedAsOwned() {
    Set<Class<? extends HasMetadata>> owned = new LinkedHashSet<>();
    watches().stream().filter(w -> w.relation() == Watch.Relation.OWNED).forEach(w -> owned.add(w.type()));

    assertThat(built()).isNotEmpty().allSatisfy(kind -> assertThat(owned).contains(kind));
  }

  @Test
  void theCertificateSecretIsTheOnlySecretTheOperatorMayWriteByNameInItsNamespace() {
    assertThat(rbac.allows("", "secrets", "update", OPERATOR_NAMESPACE, OperatorConfig.DEFAULT_WEBHOOK_SECRET_NAME))
        .isTrue();
    assertThat(rbac.namespaceRules()).filteredOn(rule -> rule.getResources().contains("secrets"))
        .filteredOn(rule -> rule.getVerbs().contains("update"))
        .allSatisfy(rule -> assertThat(rule.getResourceNames())
            .containsExactly(OperatorConfig.DEFAULT_WEBHOOK_SECRET_NAME));
  }

  @Test
  void webhookConfigurationsOtherThanTheOperatorsCannotBeWritten() {
    assertThat(rbac.allows("admissionregistration.k8s.io", "validatingwebhookconfigurations", "patch", null,
        "someone-elses")).isFalse();
    assertThat(rbac.allows("admissionregistration.k8s.io", "mutatingwebhookconfigurations", "update", null,
        "someone-elses")).isFalse();
  }

  private static List<Watch> watches() {
    List<Watch> watches = new ArrayList<>(TrainJobEventSources.OPERATOR_WATCHES);
    watches.addAll(RUNNER.watches());
    return watches;
  }

  private static Set<Class<? extends HasMetadata>> children() {
    Set<Class<? extends HasMetadata>> children = new LinkedHashSet<>();
    watches().stream().filter(w -> w.relation() == Watch.Relation.OWNED).forEach(w -> children.add(w.type()));
    children.addAll(built());
    return children;
  }

  /** The kinds the built-in plugins build for the shipped runtimes and the gang-scheduled test runtimes. */
  private static Set<Class<? extends HasMetadata>> built() {
    List<RuntimeSource> runtimes = new ArrayList<>(RuntimeCatalog.shipped());
    Fixtures.objects(Fixtures.resource("rbac/gang-runtimes.yaml")).forEach(object ->
        runtimes.add(Fixtures.runtime(Fixtures.serialization().asYaml(object))));
    Set<Class<? extends HasMetadata>> kinds = new LinkedHashSet<>();
    for (RuntimeSource runtime : runtimes) {
      TrainJob trainJob = Fixtures.trainJob("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
          + "metadata: {name: job, namespace: " + USER_NAMESPACE + "}\n"
          + "spec: {runtimeRef: {name: " + runtime.name() + ", kind: " + runtime.kind() + "}}\n");
      for (HasMetadata object : RUNNER.runBuild(runtime, trainJob, ObjectLookup.empty()).objects()) {
        assertThat(object).as(object.getKind() + " is namespaced").isInstanceOf(Namespaced.class);
        kinds.add(object.getClass());
      }
    }
    return kinds;
  }
}
