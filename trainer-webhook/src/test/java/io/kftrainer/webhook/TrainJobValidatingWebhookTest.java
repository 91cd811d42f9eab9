package io.kftrainer.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.loader.LoadedPlugin;
import io.kftrainer.framework.loader.PluginLoader;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.runtime.RuntimeCatalog;
import io.kftrainer.runtime.TrainJobValidator;
import io.kftrainer.testkit.Fixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TrainJob validating webhook without transport: the built-in plugins over an in-memory runtime catalog in place
 * of the informer caches; denials checked to the exact message and causes.
 */
class TrainJobValidatingWebhookTest {

  private static final PhaseRunner BUILT_IN = builtInRunner();
  private static final RuntimeCatalog RUNTIMES = new RuntimeCatalog(Fixtures.objects(
      Fixtures.resource("webhook/runtimes.yaml")).stream().map(TrainJobValidatingWebhookTest::runtime).toList());
  private static final String DEPRECATION_URL =
      "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy";

  private final TrainJobValidatingWebhook webhook = webhook(BUILT_IN);

  /** A case: how the fixture TrainJob is changed, and the cause list ([field, reason, message]) expected. */
  record Case(String name, Consumer<TrainJob> edit, String message, List<List<String>> causes,
      List<String> warnings) {

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> creates() {
    return Stream.of(
        allowed("a TrainJob of an existing ClusterTrainingRuntime is allowed", tj -> {
        }, List.of()),
        allowed("a TrainJob of a TrainingRuntime in its own namespace is allowed",
            tj -> tj.getSpec().setRuntimeRef(ref("TrainingRuntime", "torch")), List.of()),
        allowed("a TrainJob of a deprecated ClusterTrainingRuntime is allowed with upstream's warning",
            tj -> tj.getSpec().getRuntimeRef().setName("torch-old"),
            List.of("Referenced ClusterTrainingRuntime \"torch-old\" is deprecated and will be removed in a future "
                + "release of Kubeflow Trainer. See runtime deprecation policy: " + DEPRECATION_URL)),
        denied("a runtime of another API group is an unsupported runtime",
            tj -> tj.getSpec().getRuntimeRef().setApiGroup("example.com"),
            "TrainJob.trainer.kubeflow.org \"job\" is invalid: spec.runtimeRef: Unsupported value: "
                + "unsupported runtime: ClusterTrainingRuntime.example.com",
            List.of(List.of("spec.runtimeRef", "FieldValueNotSupported",
                "Unsupported value: unsupported runtime: ClusterTrainingRuntime.example.com"))),
        denied("a missing ClusterTrainingRuntime must be created first",
            tj -> tj.getSpec().getRuntimeRef().setName("nope"),
            "TrainJob.trainer.kubeflow.org \"job\" is invalid: spec.runtimeRef: Not found: \"nope\": "
                + "specified clusterTrainingRuntime must be created before the TrainJob is created",
            List.of(List.of("spec.runtimeRef", "FieldValueNotFound", "Not found: \"nope\": specified "
                + "clusterTrainingRuntime must be created before the TrainJob is created"))),
        denied("a TrainingRuntime of another namespace is not found",
            tj -> {
              tj.getSpec().setRuntimeRef(ref("TrainingRuntime", "torch"));
              tj.getMetadata().setNamespace("team-b");
            },
            "TrainJob.trainer.kubeflow.org \"job\" is invalid: spec.runtimeRef: Not found: \"torch\": "
                + "specified trainingRuntime must be created before the TrainJob is created",
            List.of(List.of("spec.runtimeRef", "FieldValueNotFound", "Not found: \"torch\": specified "
                + "trainingRuntime must be created before the TrainJob is created"))),
        denied("a plugin's error is reported with its field path",
            tj -> tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("many")),
            "TrainJob.trainer.kubeflow.org \"job\" is invalid: spec.trainer.numProcPerNode: Invalid value: "
                + "\"many\": must have an int value or [auto cpu gpu]",
            List.of(List.of("spec.trainer.numProcPerNode", "FieldValueInvalid",
                "Invalid value: \"many\": must have an int value or [auto cpu gpu]"))),
        denied("several errors are listed in brackets, in plugin order",
            tj -> {
              tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("many"));
              tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("PET_NNODES", "4", null)));
            },
            "TrainJob.trainer.kubeflow.org \"job\" is invalid: [spec.trainer.numProcPerNode: Invalid value: "
                + "\"many\": must have an int value or [auto cpu gpu], spec.trainer.env: Invalid value: "
                + "[{\"name\":\"PET_NNODES\",\"value\":\"4\"}]: must not have reserved envs, invalid envs configured: "
                + "[PET_NNODES]]",
            List.of(
                List.of("spec.trainer.numProcPerNode", "FieldValueInvalid",
                    "Invalid value: \"many\": must have an int value or [auto cpu gpu]"),
                List.of("spec.trainer.env", "FieldValueInvalid", "Invalid value: [{\"name\":\"PET_NNODES\","
                    + "\"value\":\"4\"}]: must not have reserved envs, invalid envs configured: [PET_NNODES]"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("creates")
  void create(Case c) {
    TrainJob trainJob = trainJob(c.edit());
    String before = TestingAdmission.SERIALIZATION.asJson(trainJob);

    AdmissionResponse response = webhook.admit(TestingAdmission.create(trainJob));

    assertResponse(response, c);
    assertThat(TestingAdmission.SERIALIZATION.asJson(trainJob)).as("the TrainJob is unchanged").isEqualTo(before);
  }

  @Test
  void anUpdateIsValidatedWithTheStoredTrainJobAsTheOldObject() {
    TrainJob old = trainJob(tj -> tj.getSpec().setSuspend(true));
    TrainJob updated = trainJob(tj -> tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("many")));
    List<ValidationContext> seen = new ArrayList<>();
    TrainJobValidatingWebhook recording = webhook(withTorch(new Recording(seen)));

    AdmissionResponse response = recording.admit(TestingAdmission.update(updated, old));

    assertThat(response.getAllowed()).isTrue();
    assertThat(seen).singleElement().satisfies(context -> {
      assertThat(context.oldTrainJob())
          .hasValueSatisfying(stored -> assertThat(stored.getSpec().getSuspend()).isTrue());
      assertThat(context.trainJob().getSpec().getTrainer().getNumProcPerNode()).isEqualTo(new IntOrString("many"));
      assertThat(context.trainJob().getSpec().getRuntimeRef().getKind())
          .as("CRD defaults are set before the plugins run").isEqualTo("ClusterTrainingRuntime");
      assertThat(context.trainJob().getSpec().getManagedBy()).isEqualTo("trainer.kubeflow.org/trainjob-controller");
    });
  }

  @Test
  void aCreateHasNoOldObject() {
    List<ValidationContext> seen = new ArrayList<>();
    webhook(withTorch(new Recording(seen))).admit(TestingAdmission.create(trainJob(tj -> {
    })));

    assertThat(seen).singleElement().satisfies(context -> assertThat(context.oldTrainJob()).isEmpty());
  }

  @Test
  void aFailingPluginDeniesTheRequestNamingThePlugin() {
    TrainJobValidatingWebhook failing = webhook(withTorch(new Failing()));
    AdmissionReviews reviews = new AdmissionReviews(TestingAdmission.SERIALIZATION);

    AdmissionResponse response = reviews.answer(TestingAdmission.create(trainJob(tj -> {
    })), failing);

    assertThat(response.getAllowed()).isFalse();
    assertThat(response.getStatus().getCode()).isEqualTo(500);
    assertThat(response.getStatus().getReason()).isEqualTo("InternalError");
    assertThat(response.getStatus().getMessage())
        .isEqualTo("plugin Failing failed in CustomValidation: cannot reach the quota service");
  }

  @Test
  void aTrainJobOnARuntimeWhosePolicyPluginIsLoadedIsAllowed() {
    AdmissionResponse response = webhook.admit(TestingAdmission.create(trainJob(
        tj -> tj.getSpec().getRuntimeRef().setName("flux-distributed"))));

    assertThat(response.getAllowed()).isTrue();
  }

  @Test
  void aTrainJobOnARuntimeWhosePolicyPluginIsNotLoadedIsDeniedNamingThePlugin() {
    TrainJobValidatingWebhook withoutFlux = webhook(new PhaseRunner(BUILT_IN.plugins().stream()
        .filter(plugin -> !plugin.name().equals("Flux")).toList()));

    AdmissionResponse response = withoutFlux.admit(TestingAdmission.create(trainJob(
        tj -> tj.getSpec().getRuntimeRef().setName("flux-distributed"))));

    String detail = "ClusterTrainingRuntime \"flux-distributed\" sets spec.mlPolicy.flux, which needs plugin "
        + "\"Flux\", which is not loaded in this operator";
    assertResponse(response, new Case("", null,
        "TrainJob.trainer.kubeflow.org \"job\" is invalid: spec.runtimeRef: Invalid value: \"flux-distributed\": "
            + detail,
        List.of(List.of("spec.runtimeRef", "FieldValueInvalid", "Invalid value: \"flux-distributed\": " + detail)),
        List.of()));
  }

  @Test
  void deletesAndConnectsAreAllowedWithoutValidation() {
    AdmissionResponse response = webhook.admit(TestingAdmission.request("DELETE",
        trainJob(tj -> tj.getSpec().getRuntimeRef().setName("nope")), null));

    assertThat(response.getAllowed()).isTrue();
    assertThat(response.getStatus()).isNull();
  }

  static void assertResponse(AdmissionResponse response, Case c) {
    assertThat(response.getWarnings() == null ? List.of() : response.getWarnings()).isEqualTo(c.warnings());
    if (c.message() == null) {
      assertThat(response.getAllowed()).isTrue();
      assertThat(response.getStatus()).isNull();
      return;
    }
    assertThat(response.getAllowed()).isFalse();
    assertThat(response.getStatus().getCode()).isEqualTo(422);
    assertThat(response.getStatus().getStatus()).isEqualTo("Failure");
    assertThat(response.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(response.getStatus().getMessage()).isEqualTo(c.message());
    assertThat(response.getStatus().getDetails().getCauses())
        .extracting(cause -> List.of(cause.getField(), cause.getReason(), cause.getMessage()))
        .containsExactlyElementsOf(c.causes());
  }

  private static Arguments allowed(String name, Consumer<TrainJob> edit, List<String> warnings) {
    return Arguments.of(new Case(name, edit, null, List.of(), warnings));
  }

  private static Arguments denied(String name, Consumer<TrainJob> edit, String message,
      List<List<String>> causes) {
    return Arguments.of(new Case(name, edit, message, causes, List.of()));
  }

  /** The plugin with a no-op stand-in for Torch, which the fixture runtimes' policy needs loaded. */
  private static PhaseRunner withTorch(Plugin plugin) {
    return new PhaseRunner(List.of(plugin, (Plugin) () -> "Torch"));
  }

  private static TrainJobValidatingWebhook webhook(PhaseRunner runner) {
    return new TrainJobValidatingWebhook(new TrainJobValidator(RUNTIMES, runner), ObjectLookup.empty(),
        TestingAdmission.SERIALIZATION);
  }

  private static TrainJob trainJob(Consumer<TrainJob> edit) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("webhook/trainjob.yaml"));
    edit.accept(trainJob);
    return trainJob;
  }

  private static RuntimeRef ref(String kind, String name) {
    RuntimeRef ref = new RuntimeRef();
    ref.setKind(kind);
    ref.setName(name);
    return ref;
  }

  private static RuntimeSource runtime(HasMetadata object) {
    return object instanceof TrainingRuntime runtime ? RuntimeSource.of(runtime)
        : RuntimeSource.of((ClusterTrainingRuntime) object);
  }

  /** Records what it validates. */
  private record Recording(List<ValidationContext> seen) implements CustomValidation {

    @Override
    public String name() {
      return "Recording";
    }

    @Override
    public ValidationResult validate(ValidationContext context) {
      seen.add(context);
      return ValidationResult.ok();
    }
  }

  /** A plugin with a bug, or a dependency that is down. */
  private static final class Failing implements CustomValidation {

    @Override
    public String name() {
      return "Failing";
    }

    @Override
    public ValidationResult validate(ValidationContext context) {
      throw new IllegalStateException("cannot reach the quota service");
    }
  }

  /** A runner over the built-in plugins on the test class path, as the operator loads them. */
  private static io.kftrainer.framework.runner.PhaseRunner builtInRunner() {
    return TestPipeline.of(PluginLoader.load(WebhookServerTest.class.getClassLoader()).plugins().stream()
        .map(LoadedPlugin::plugin).toList()).runner();
  }
}
