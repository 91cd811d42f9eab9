package io.kftrainer.plugins.flux;

import static io.kftrainer.plugins.flux.FluxFixtures.runtime;
import static io.kftrainer.plugins.flux.FluxFixtures.trainJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.BuildResult;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code flux_test.go}, case by case: {@code TestFlux} (enforce and build), {@code TestValidate},
 * {@code TestDeterministicCurve} and {@code TestBuildCurveSecret} (the Secret), {@code TestGetOriginalCommand}.
 * {@code TestGenerateRange}, {@code TestGenerateHostlist} and {@code TestEncodeZ85} are in {@link HostlistTest} and
 * {@link CurveCertificateTest}.
 */
class FluxPluginTest {

  private static final String RUNTIME = "flux/runtime.yaml";
  private static final String TRAIN_JOB = "flux/trainjob.yaml";
  private static final String CONFIG_MAP = "test-job-flux-entrypoint";
  private static final String CURVE_SECRET = "test-job-flux-curve";

  private final TestPipeline pipeline = TestPipeline.of(FluxFixtures.fixedKeyPlugin());

  // TestFlux: "no action when flux policy is nil"
  @Test
  void noActionWhenFluxPolicyIsNil() {
    RuntimeSource runtime = runtime(RUNTIME, r -> r.spec().setMlPolicy(null));
    TrainJob trainJob = trainJob(TRAIN_JOB);

    BuildResult result = pipeline.build(runtime, trainJob);

    assertThat(result.info().podSets()).isEqualTo(pipeline.initialInfo(runtime, trainJob).podSets());
    assertThat(result.objects()).isEmpty();
  }

  // TestFlux: "flux mutations are applied correctly". Upstream's expected count stays 1 because its PlainML plugin,
  // absent from that test, sets it; here the Flux plugin sets trainer.numNodes itself.
  @Test
  void fluxMutationsAreAppliedCorrectly() {
    TrainJob trainJob = trainJob(TRAIN_JOB);
    String before = Yaml.dump(trainJob);

    BuildResult result = pipeline.build(runtime(RUNTIME), trainJob);

    PodSet node = result.info().podSet("node").orElseThrow();
    assertThat(node.count()).isEqualTo(2);
    assertThat(node.initContainers()).containsExactly(ContainerInfo.builder()
        .name("flux-installer")
        .image("ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy")
        .command(List.of("/bin/bash", "/etc/flux-config/init.sh"))
        .volumeMounts(List.of(mount("flux-install", "/mnt/flux", false), mount(CONFIG_MAP, "/etc/flux-config", true)))
        .build());
    assertThat(node.containers()).containsExactly(ContainerInfo.builder()
        .name("node")
        .command(List.of("/bin/bash", "/etc/flux-config/entrypoint.sh", ""))
        .args(List.of())
        .volumeMounts(List.of(
            mount("flux-install", "/mnt/flux", false),
            mount("spack-install", "/opt/software", false),
            mount(CONFIG_MAP, "/etc/flux-config", true),
            mount("flux-curve", "/curve", true),
            mount("shared-memory", "/dev/shm", true)))
        .build());
    assertThat(node.volumes()).containsExactly(
        new VolumeBuilder().withName("spack-install").withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName("flux-install").withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(CONFIG_MAP)
            .withNewConfigMap().withName(CONFIG_MAP).withDefaultMode(0755).endConfigMap().build(),
        new VolumeBuilder().withName("shared-memory").withNewEmptyDir().withMedium("Memory").endEmptyDir().build(),
        new VolumeBuilder().withName("flux-curve")
            .withNewSecret().withSecretName(CURVE_SECRET).withDefaultMode(0400).endSecret().build());

    assertThat(result.objects()).extracting(HasMetadata::getKind, o -> o.getMetadata().getName())
        .containsExactly(tuple("ConfigMap", CONFIG_MAP), tuple("Secret", CURVE_SECRET));
    assertThat(result.objects()).allSatisfy(object -> {
      assertThat(object.getMetadata().getNamespace()).isEqualTo("default");
      assertThat(object.getMetadata().getOwnerReferences()).containsExactly(controllerReference());
    });
    assertThat(Yaml.dump(trainJob)).as("the TrainJob is read-only").isEqualTo(before);
  }

  static Stream<Arguments> validationCases() {
    return Stream.of(
        Arguments.of("valid when flux policy is nil", false, List.of(), List.of()),
        Arguments.of("valid when flux policy is present", true, List.of(), List.of()),
        Arguments.of("invalid when node podSet includes reserved flux installer init container", true,
            List.of("flux-installer"), List.of(FieldError.invalid(
                FieldPath.of("spec", "trainer", "initContainers"), "flux-installer",
                "InitContainer 'flux-installer' is reserved"))),
        Arguments.of("another init container in the node podSet is valid", true, List.of("warm-up"),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validationCases")
  void validate(String name, boolean flux, List<String> initContainers, List<FieldError> expected) {
    RuntimeSource runtime = runtime(RUNTIME, r -> {
      if (!flux) {
        r.spec().setMlPolicy(null);
      }
      var pod = r.spec().getTemplate().getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate()
          .getSpec();
      pod.setInitContainers(initContainers.stream()
          .map(n -> new ContainerBuilder().withName(n).withImage("busybox").build()).toList());
    });

    assertThat(pipeline.validate(runtime, trainJob(TRAIN_JOB)).errors()).isEqualTo(expected);
  }

  static Stream<Arguments> trainJobValidationCases() {
    return Stream.of(
        Arguments.of("an integer numProcPerNode is valid", new IntOrString(4), List.of(), List.of()),
        Arguments.of("numProcPerNode auto is for torch runtimes", new IntOrString("auto"), List.of(),
            List.of(FieldError.invalid(FieldPath.of("spec", "trainer", "numProcPerNode"), "auto",
                "must be an integer for a Flux runtime"))),
        Arguments.of("a Flux setting with a literal value is valid", null,
            List.of(new EnvVar("FLUX_QUEUE_POLICY", "easy", null)), List.of()),
        Arguments.of("a Flux setting from a reference is forbidden", null, List.of(
                new EnvVar("OTHER", "x", null),
                new EnvVarBuilder().withName("FLUX_VIEW_IMAGE").withNewValueFrom().withNewConfigMapKeyRef()
                    .withName("images").withKey("flux").endConfigMapKeyRef().endValueFrom().build()),
            List.of(FieldError.forbidden(FieldPath.of("spec", "trainer", "env").index(1).child("valueFrom"),
                "FLUX_VIEW_IMAGE is a Flux setting, read by the operator when it builds the pods: set value"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trainJobValidationCases")
  void validateTheTrainJob(String name, IntOrString numProcPerNode, List<EnvVar> env, List<FieldError> expected) {
    TrainJob trainJob = trainJob(TRAIN_JOB, tj -> {
      tj.getSpec().getTrainer().setNumProcPerNode(numProcPerNode);
      tj.getSpec().getTrainer().setEnv(env);
    });

    assertThat(pipeline.validate(runtime(RUNTIME), trainJob).errors()).isEqualTo(expected);
  }

  // TestDeterministicCurve and TestBuildCurveSecret: the same TrainJob keeps its certificate. Upstream derives it
  // from the TrainJob's UID every time; here it is random, built once and then left as it is.
  @Test
  void theCurveSecretIsBuiltOnceAndThenKept() {
    List<HasMetadata> first = TestPipeline.of(new FluxPlugin()).objects(runtime(RUNTIME), trainJob(TRAIN_JOB));
    Secret secret = FluxFixtures.secret(first);

    List<HasMetadata> next = TestPipeline.of(new FluxPlugin()).withCluster(secret)
        .objects(runtime(RUNTIME), trainJob(TRAIN_JOB));

    assertThat(next).extracting(HasMetadata::getKind).containsExactly("ConfigMap");
    assertThat(secret.getImmutable()).isTrue();
  }

  @Test
  void theCurveSecretHoldsTheCertificateOfItsTrainJob() {
    Secret secret = FluxFixtures.secret(pipeline.objects(runtime(RUNTIME), trainJob(TRAIN_JOB)));

    assertThat(secret.getMetadata().getName()).isEqualTo(CURVE_SECRET);
    assertThat(secret.getType()).isEqualTo("Opaque");
    assertThat(secret.getData()).containsOnlyKeys("curve.cert");
    assertThat(FluxFixtures.certificate(secret))
        .isEqualTo(CurveCertificate.of(FluxFixtures.RFC7748_SECRET).text("test-job"))
        .contains("metadata", "curve", "    public-key =", "    secret-key =", "name = \"test-job\"");
  }

  @Test
  void differentTrainJobsGetDifferentKeys() {
    TestPipeline random = TestPipeline.of(new FluxPlugin());
    String first = FluxFixtures.certificate(FluxFixtures.secret(random.objects(runtime(RUNTIME),
        trainJob(TRAIN_JOB))));
    String second = FluxFixtures.certificate(FluxFixtures.secret(random.objects(runtime(RUNTIME),
        trainJob(TRAIN_JOB, tj -> tj.getMetadata().setUid("different-uid")))));

    assertThat(first).isNotEqualTo(second);
  }

  static Stream<Arguments> originalCommands() {
    return Stream.of(
        Arguments.of("full command and args", List.of("python"), List.of("train.py", "--epochs", "10"), null,
            "python train.py --epochs 10"),
        Arguments.of("command and args with extra spaces", List.of("  python  "), List.of(" script.py "), null,
            "python    script.py"),
        Arguments.of("the runtime's command when the TrainJob sets none, then the TrainJob's args", null,
            List.of("--steps", "5"), List.of("lmp", "-in", "in.lj"), "lmp -in in.lj --steps 5"),
        Arguments.of("no command at all: an interactive Flux cluster", null, null, null, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("originalCommands")
  void originalCommand(String name, List<String> command, List<String> args, List<String> runtimeCommand,
      String expected) {
    RuntimeSource runtime = runtime(RUNTIME, r -> r.spec().getTemplate().getSpec().getReplicatedJobs().get(0)
        .getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0).setCommand(runtimeCommand));
    TrainJob trainJob = trainJob(TRAIN_JOB, tj -> {
      tj.getSpec().getTrainer().setCommand(command);
      tj.getSpec().getTrainer().setArgs(args);
    });
    RuntimeInfo info = pipeline.initialInfo(runtime, trainJob);

    assertThat(WrappedCommand.original(info, trainJob)).isEqualTo(expected);
    assertThat(WrappedCommand.of(info, trainJob))
        .containsExactly("/bin/bash", "/etc/flux-config/entrypoint.sh", expected);
  }

  private static VolumeMount mount(String name, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).withReadOnly(readOnly ? true : null).build();
  }

  private static OwnerReference controllerReference() {
    return new OwnerReferenceBuilder().withApiVersion("trainer.kubeflow.org/v1alpha1").withKind("TrainJob")
        .withName("test-job").withUid("test-uid").withController(true).withBlockOwnerDeletion(true).build();
  }
}
