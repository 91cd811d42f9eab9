package io.kftrainer.webhook;

import io.kftrainer.framework.loader.LoadedPlugin;
import io.kftrainer.framework.loader.PluginLoader;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.FluxMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.webhook.TrainJobValidatingWebhookTest.Case;
import io.kftrainer.framework.runner.MLPolicyPlugins;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.testkit.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TrainingRuntime and ClusterTrainingRuntime webhooks: upstream's replicated-job rules, exact paths and
 * messages, which operations they check, and the deprecation warning; and a runtime whose ML policy needs a plugin
 * that is not loaded.
 */
class RuntimeValidatingWebhookTest {

  private static final List<Plugin> BUILT_IN_PLUGINS =
      PluginLoader.load(RuntimeValidatingWebhookTest.class.getClassLoader()).plugins().stream()
          .map(LoadedPlugin::plugin).toList();
  private static final MLPolicyPlugins BUILT_IN = new MLPolicyPlugins(BUILT_IN_PLUGINS);

  private static final String JOBS = "spec.template.spec.replicatedJobs";
  private static final String DEPRECATION_URL =
      "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy";

  /** A case: the expected response, the runtime's kind, the operation, and the edit of the fixture runtime. */
  record RuntimeCase(Case expected, String kind, String operation, Consumer<TrainingRuntime> edit) {

    @Override
    public String toString() {
      return expected.name();
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        allowed("a runtime whose ancestor jobs run one replica of their container is allowed",
            "TrainingRuntime", "CREATE", rt -> {
            }),
        allowed("replicas left unset is the CRD default 1",
            "TrainingRuntime", "CREATE", rt -> job(rt, 2).setReplicas(null)),
        allowed("a job with an ancestor label the TrainJob does not fill in is not checked",
            "TrainingRuntime", "CREATE", rt -> job(rt, 3).getTemplate().setMetadata(new ObjectMetaBuilder()
                .withLabels(Map.of("trainer.kubeflow.org/trainjob-ancestor-step", "evaluator")).build())),
        denied("a trainer job must run exactly one replica",
            "TrainingRuntime", "CREATE", rt -> job(rt, 2).setReplicas(2),
            "TrainingRuntime.trainer.kubeflow.org \"llm\" is invalid: " + JOBS + "[2].replicas: Invalid value: 2: "
                + "always must be 1",
            List.of(List.of(JOBS + "[2].replicas", "FieldValueInvalid", "Invalid value: 2: always must be 1"))),
        denied("a trainer job must contain the node container",
            "TrainingRuntime", "CREATE", rt -> containers(rt, 2).get(0).setName("trainer"),
            "TrainingRuntime.trainer.kubeflow.org \"llm\" is invalid: " + JOBS + "[2].template.spec.template.spec"
                + ".containers: Invalid value: [{\"image\":\"pytorch/pytorch:2.5.0\",\"name\":\"trainer\"}]: must "
                + "contain the required container for the ancestor: trainer",
            List.of(List.of(JOBS + "[2].template.spec.template.spec.containers", "FieldValueInvalid",
                "Invalid value: [{\"image\":\"pytorch/pytorch:2.5.0\",\"name\":\"trainer\"}]: must contain the "
                    + "required container for the ancestor: trainer"))),
        denied("each initializer job is checked for its replicas and its own container",
            "TrainingRuntime", "CREATE", rt -> {
              job(rt, 0).setReplicas(0);
              containers(rt, 1).get(0).setName("init");
            },
            "TrainingRuntime.trainer.kubeflow.org \"llm\" is invalid: [" + JOBS + "[0].replicas: Invalid value: 0: "
                + "always must be 1, " + JOBS + "[1].template.spec.template.spec.containers: Invalid value: "
                + "[{\"image\":\"ghcr.io/kubeflow/trainer/model-initializer\",\"name\":\"init\"}]: must contain "
                + "the required container for the ancestor: model-initializer]",
            List.of(
                List.of(JOBS + "[0].replicas", "FieldValueInvalid", "Invalid value: 0: always must be 1"),
                List.of(JOBS + "[1].template.spec.template.spec.containers", "FieldValueInvalid",
                    "Invalid value: [{\"image\":\"ghcr.io/kubeflow/trainer/model-initializer\",\"name\":\"init\"}]: "
                        + "must contain the required container for the ancestor: model-initializer"))),
        allowed("an update of a TrainingRuntime is not checked, as upstream",
            "TrainingRuntime", "UPDATE", rt -> job(rt, 2).setReplicas(2)),
        denied("an update of a ClusterTrainingRuntime is checked",
            "ClusterTrainingRuntime", "UPDATE", rt -> job(rt, 2).setReplicas(2),
            "ClusterTrainingRuntime.trainer.kubeflow.org \"llm\" is invalid: " + JOBS + "[2].replicas: Invalid "
                + "value: 2: always must be 1",
            List.of(List.of(JOBS + "[2].replicas", "FieldValueInvalid", "Invalid value: 2: always must be 1"))),
        withWarning("creating a deprecated ClusterTrainingRuntime gives upstream's warning",
            "ClusterTrainingRuntime", "CREATE",
            List.of("ClusterTrainingRuntime \"llm\" is deprecated and will be removed in a future release of "
                + "Kubeflow Trainer. See runtime deprecation policy: " + DEPRECATION_URL)),
        withWarning("updating a deprecated ClusterTrainingRuntime gives no warning",
            "ClusterTrainingRuntime", "UPDATE", List.of()),
        withWarning("a deprecated TrainingRuntime gives no warning, as upstream",
            "TrainingRuntime", "CREATE", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void admit(RuntimeCase c) {
    TrainingRuntime runtime = Fixtures.serialization().unmarshal(Fixtures.resource("webhook/runtime.yaml"),
        TrainingRuntime.class);
    c.edit().accept(runtime);
    boolean cluster = "ClusterTrainingRuntime".equals(c.kind());
    var object = cluster ? asCluster(runtime) : runtime;
    RuntimeValidatingWebhook webhook = cluster
        ? RuntimeValidatingWebhook.clusterTrainingRuntime(TestingAdmission.SERIALIZATION, BUILT_IN)
        : RuntimeValidatingWebhook.trainingRuntime(TestingAdmission.SERIALIZATION, BUILT_IN);

    AdmissionResponse response = webhook.admit(TestingAdmission.request(c.operation(), object,
        "UPDATE".equals(c.operation()) ? object : null));

    TrainJobValidatingWebhookTest.assertResponse(response, c.expected());
  }

  static Stream<Arguments> missingPlugins() {
    return Stream.of(
        Arguments.of("a TrainingRuntime whose ML policy plugin is not loaded is denied at its policy",
            "TrainingRuntime"),
        Arguments.of("so is a ClusterTrainingRuntime", "ClusterTrainingRuntime"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("missingPlugins")
  void aRuntimeWhosePolicyPluginIsNotLoadedIsDeniedNamingThePlugin(String name, String kind) {
    TrainingRuntime runtime = Fixtures.serialization().unmarshal(Fixtures.resource("webhook/runtime.yaml"),
        TrainingRuntime.class);
    runtime.getSpec().getMlPolicy().setTorch(null);
    runtime.getSpec().getMlPolicy().setFlux(new FluxMLPolicySource());
    MLPolicyPlugins withoutFlux = new MLPolicyPlugins(BUILT_IN_PLUGINS.stream()
        .filter(plugin -> !plugin.name().equals("Flux")).toList());
    boolean cluster = "ClusterTrainingRuntime".equals(kind);
    RuntimeValidatingWebhook webhook = cluster
        ? RuntimeValidatingWebhook.clusterTrainingRuntime(TestingAdmission.SERIALIZATION, withoutFlux)
        : RuntimeValidatingWebhook.trainingRuntime(TestingAdmission.SERIALIZATION, withoutFlux);

    AdmissionResponse response = webhook.admit(TestingAdmission.request("CREATE",
        cluster ? asCluster(runtime) : runtime, null));

    String detail = "Forbidden: needs plugin \"Flux\", which is not loaded in this operator";
    TrainJobValidatingWebhookTest.assertResponse(response, new Case(name, null,
        kind + ".trainer.kubeflow.org \"llm\" is invalid: spec.mlPolicy.flux: " + detail,
        List.of(List.of("spec.mlPolicy.flux", "FieldValueForbidden", detail)), List.of()));
  }

  private static ClusterTrainingRuntime asCluster(TrainingRuntime runtime) {
    ClusterTrainingRuntime cluster = new ClusterTrainingRuntime();
    cluster.getMetadata().setName(runtime.getMetadata().getName());
    cluster.getMetadata().setLabels(runtime.getMetadata().getLabels());
    cluster.setSpec(runtime.getSpec());
    return cluster;
  }

  private static ReplicatedJob job(TrainingRuntime runtime, int index) {
    return runtime.getSpec().getTemplate().getSpec().getReplicatedJobs().get(index);
  }

  private static List<Container> containers(TrainingRuntime runtime, int index) {
    return job(runtime, index).getTemplate().getSpec().getTemplate().getSpec().getContainers();
  }

  private static Arguments allowed(String name, String kind, String operation, Consumer<TrainingRuntime> edit) {
    return Arguments.of(new RuntimeCase(new Case(name, null, null, List.of(), List.of()), kind, operation, edit));
  }

  private static Arguments denied(String name, String kind, String operation, Consumer<TrainingRuntime> edit,
      String message, List<List<String>> causes) {
    return Arguments.of(new RuntimeCase(new Case(name, null, message, causes, List.of()), kind, operation, edit));
  }

  private static Arguments withWarning(String name, String kind, String operation, List<String> warnings) {
    return Arguments.of(new RuntimeCase(new Case(name, null, null, List.of(), warnings), kind, operation,
        rt -> rt.getMetadata().setLabels(Map.of("trainer.kubeflow.org/support", "deprecated"))));
  }
}
