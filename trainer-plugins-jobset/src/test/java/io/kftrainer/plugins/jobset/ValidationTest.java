package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValidationTest {

  private static final FieldPath RUNTIME_REF = FieldPath.of("spec", "runtimeRef");
  private static final FieldPath RUNTIME_PATCHES = FieldPath.of("spec", "runtimePatches");
  private static final FieldPath MANAGER = FieldPath.of("spec", "runtimePatches", "manager");

  private static final String INITIALIZERS = "runtime/initializers.yaml";
  private static final String INITIALIZER_JOB = "trainjob/initializers.yaml";
  private static final String SIDECAR = "runtime/sidecar.yaml";
  private static final String PATCHED_JOB = "trainjob/runtime-patches.yaml";

  static Stream<Arguments> createCases() {
    return Stream.of(
        Arguments.of("initializers matching the runtime's initializer jobs are valid",
            INITIALIZERS, none(), INITIALIZER_JOB, none(), List.of()),
        Arguments.of("a runtime without initializer jobs is valid for a TrainJob without initializers",
            SIDECAR, none(), PATCHED_JOB, none(), List.of()),
        Arguments.of("a datasetConfig needs a dataset-initializer job",
            INITIALIZERS, removeJob("dataset-initializer"), INITIALIZER_JOB, none(),
            List.of(invalidRuntimeRef("must have dataset-initializer job when trainJob is configured with input "
                + "datasetConfig"))),
        Arguments.of("a datasetConfig needs a dataset-initializer container in that job",
            INITIALIZERS, renameContainer("dataset-initializer", "fetch"), INITIALIZER_JOB, none(),
            List.of(invalidRuntimeRef("must have container with name - dataset-initializer in the "
                + "dataset-initializer job"))),
        Arguments.of("a datasetConfig needs the initializer volume mounted in the dataset-initializer container",
            INITIALIZERS, removeMounts("dataset-initializer"), INITIALIZER_JOB, none(),
            List.of(invalidRuntimeRef("must have volumeMount with name - initializer in container "
                + "dataset-initializer of the dataset-initializer job"))),
        Arguments.of("a modelConfig needs a model-initializer job",
            INITIALIZERS, removeJob("model-initializer"), INITIALIZER_JOB, none(),
            List.of(invalidRuntimeRef("must have model-initializer job when trainJob is configured with input "
                + "modelConfig"))),
        Arguments.of("a modelConfig needs a model-initializer container in that job",
            INITIALIZERS, renameContainer("model-initializer", "fetch"), INITIALIZER_JOB, none(),
            List.of(invalidRuntimeRef("must have container with name - model-initializer in the "
                + "model-initializer job"))),
        Arguments.of("a modelConfig needs the initializer volume mounted in the model-initializer container",
            INITIALIZERS, removeMounts("model-initializer"), INITIALIZER_JOB, none(),
            List.of(invalidRuntimeRef("must have volumeMount with name - initializer in container "
                + "model-initializer of the model-initializer job"))),
        Arguments.of("a runtime without a model-initializer job is valid for a TrainJob with only a datasetConfig",
            INITIALIZERS, removeJob("model-initializer"), INITIALIZER_JOB,
            change(tj -> tj.getSpec().getInitializer().setModel(null)), List.of()),
        Arguments.of("dataset and model errors are both reported",
            SIDECAR, none(), INITIALIZER_JOB, none(),
            List.of(
                invalidRuntimeRef("must have dataset-initializer job when trainJob is configured with input "
                    + "datasetConfig"),
                invalidRuntimeRef("must have model-initializer job when trainJob is configured with input "
                    + "modelConfig"))),
        Arguments.of("a runtime patch may add the initializer volume mount the runtime lacks",
            INITIALIZERS, removeMounts("dataset-initializer"), INITIALIZER_JOB,
            addPatch("""
                manager: example.com/storage
                trainingRuntimeSpec:
                  template:
                    spec:
                      replicatedJobs:
                        - name: dataset-initializer
                          template:
                            spec:
                              template:
                                spec:
                                  containers:
                                    - name: dataset-initializer
                                      volumeMounts:
                                        - name: initializer
                                          mountPath: /workspace
                """), List.of()),
        Arguments.of("runtime patches of existing jobs and containers with domain-prefixed managers are valid",
            SIDECAR, none(), PATCHED_JOB, none(), List.of()),
        Arguments.of("a manager without a domain is invalid",
            SIDECAR, none(), PATCHED_JOB, manager("multikueue"),
            List.of(FieldError.invalid(MANAGER, "multikueue", DomainPrefixedPath.NOT_DOMAIN_PREFIXED))),
        Arguments.of("a manager without a path is invalid",
            SIDECAR, none(), PATCHED_JOB, manager("kueue.x-k8s.io/"),
            List.of(FieldError.invalid(MANAGER, "kueue.x-k8s.io/", DomainPrefixedPath.NOT_DOMAIN_PREFIXED))),
        Arguments.of("an empty manager is required",
            SIDECAR, none(), PATCHED_JOB, manager(""),
            List.of(FieldError.required(MANAGER, ""))),
        Arguments.of("a manager's domain must be a lowercase RFC 1123 subdomain",
            SIDECAR, none(), PATCHED_JOB, manager("Kueue.x-k8s.io/multikueue"),
            List.of(FieldError.invalid(MANAGER, "Kueue.x-k8s.io", "a lowercase RFC 1123 subdomain must consist of "
                + "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
                + "character (e.g. 'example.com', regex used for validation is "
                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"))),
        Arguments.of("a manager's path must be an HTTP path",
            SIDECAR, none(), PATCHED_JOB, manager("kueue.x-k8s.io/multi kueue"),
            List.of(FieldError.invalid(MANAGER, "multi kueue",
                "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"))),
        Arguments.of("a patched replicated job must exist in the runtime",
            SIDECAR, none(), PATCHED_JOB, addPatch("""
                manager: example.com/x
                trainingRuntimeSpec:
                  template:
                    spec:
                      replicatedJobs:
                        - name: launcher
                """),
            List.of(invalidPatches("must not have replicated job that doesn't exist in the runtime job template"))),
        Arguments.of("a patched init container must exist in the runtime job",
            SIDECAR, none(), PATCHED_JOB, addPatch(containerPatch("node", "initContainers", "prepare", false)),
            List.of(invalidPatches("must not have initContainer that doesn't exist in the runtime job node"))),
        Arguments.of("a patched container must exist in the runtime job",
            SIDECAR, none(), PATCHED_JOB, addPatch(containerPatch("evaluator", "containers", "log-shipper", false)),
            List.of(invalidPatches("must not have container that doesn't exist in the runtime job evaluator"))),
        Arguments.of("a patch must not set env on the node container",
            SIDECAR, none(), PATCHED_JOB, addPatch(containerPatch("node", "containers", "node", true)),
            List.of(invalidPatches("must not have envs for the dataset-initializer, model-initializer, node "
                + "containers"))),
        Arguments.of("a patch must not set env on an initializer container",
            INITIALIZERS, none(), INITIALIZER_JOB,
            addPatch(containerPatch("model-initializer", "containers", "model-initializer", true)),
            List.of(invalidPatches("must not have envs for the dataset-initializer, model-initializer, node "
                + "containers"))),
        Arguments.of("a patch may set env on an init container named node",
            SIDECAR, renameInitContainer("fetch", "node"), PATCHED_JOB,
            addPatch(containerPatch("node", "initContainers", "node", true)), List.of()),
        Arguments.of("every problem of every patch is reported, in order",
            SIDECAR, none(), PATCHED_JOB, change(manager("acme"), addPatch("""
                manager: example.com/x
                trainingRuntimeSpec:
                  template:
                    spec:
                      replicatedJobs:
                        - name: launcher
                        - name: node
                          template:
                            spec:
                              template:
                                spec:
                                  containers:
                                    - name: node
                                      env:
                                        - name: A
                                          value: b
                                    - name: exporter
                """)),
            List.of(
                FieldError.invalid(MANAGER, "acme", DomainPrefixedPath.NOT_DOMAIN_PREFIXED),
                invalidPatches("must not have replicated job that doesn't exist in the runtime job template"),
                invalidPatches("must not have envs for the dataset-initializer, model-initializer, node containers"),
                invalidPatches("must not have container that doesn't exist in the runtime job node"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createCases")
  void validatesOnCreate(String name, String runtimePath, Consumer<TrainingRuntimeSpec> runtimeChange,
      String trainJobPath, Consumer<TrainJob> trainJobChange, List<FieldError> expected) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource(runtimePath));
    runtimeChange.accept(runtime.spec());
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource(trainJobPath));
    trainJobChange.accept(trainJob);

    var result = TestPipeline.of(new JobSetPlugin()).validate(runtime, trainJob);

    assertThat(comparable(result.errors())).containsExactlyElementsOf(expected);
    assertThat(result.warnings()).isEmpty();
  }

  static Stream<Arguments> updateCases() {
    Consumer<TrainJob> changePatches = tj -> tj.getSpec().getRuntimePatches().get(1).getTrainingRuntimeSpec()
        .getTemplate().getMetadata().getAnnotations().put("example.com/tuned", "twice");
    return Stream.of(
        Arguments.of("unchanged runtime patches of a running TrainJob are valid",
            false, false, none(), null, List.of()),
        Arguments.of("changing the runtime patches of a running TrainJob is forbidden",
            false, false, changePatches, null,
            List.of(FieldError.forbidden(RUNTIME_PATCHES, "RuntimePatches can only be modified when the TrainJob "
                + "is suspended before or after the update"))),
        Arguments.of("removing the runtime patches of a running TrainJob is forbidden",
            false, false, change(tj -> tj.getSpec().setRuntimePatches(null)), null,
            List.of(FieldError.forbidden(RUNTIME_PATCHES, RuntimePatchImmutability.NOT_SUSPENDED))),
        Arguments.of("changing the runtime patches of a suspended TrainJob without a JobSet is valid",
            true, true, changePatches, null, List.of()),
        Arguments.of("changing the runtime patches while resuming in the same update is valid",
            true, false, changePatches, null, List.of()),
        Arguments.of("changing the runtime patches while suspending in the same update is valid",
            false, true, changePatches, null, List.of()),
        Arguments.of("changing the runtime patches while suspending is forbidden while a JobSet job is active",
            false, true, changePatches, jobSet(1, 0),
            List.of(FieldError.forbidden(RUNTIME_PATCHES,
                "RuntimePatches cannot be modified when the JobSet's ReplicatedJob node is still active"))),
        Arguments.of("each active job of the JobSet is reported",
            true, true, changePatches, jobSet(2, 1),
            List.of(
                FieldError.forbidden(RUNTIME_PATCHES,
                    "RuntimePatches cannot be modified when the JobSet's ReplicatedJob node is still active"),
                FieldError.forbidden(RUNTIME_PATCHES,
                    "RuntimePatches cannot be modified when the JobSet's ReplicatedJob evaluator is still active"))),
        Arguments.of("changing the runtime patches of a suspended TrainJob whose JobSet is inactive is valid",
            true, true, changePatches, jobSet(0, 0), List.of()),
        Arguments.of("an active JobSet does not matter when the runtime patches are unchanged",
            true, true, none(), jobSet(1, 1), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateCases")
  void validatesRuntimePatchChangesOnUpdate(String name, boolean oldSuspended, boolean newSuspended,
      Consumer<TrainJob> change, JobSet jobSet, List<FieldError> expected) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource(SIDECAR));
    TrainJob oldTrainJob = Fixtures.trainJob(Fixtures.resource(PATCHED_JOB));
    oldTrainJob.getSpec().setSuspend(oldSuspended);
    TrainJob newTrainJob = Fixtures.trainJob(Fixtures.resource(PATCHED_JOB));
    newTrainJob.getSpec().setSuspend(newSuspended);
    change.accept(newTrainJob);
    TestPipeline pipeline = TestPipeline.of(new JobSetPlugin());
    if (jobSet != null) {
      pipeline = pipeline.withCluster(jobSet);
    }

    var result = pipeline.validateUpdate(runtime, oldTrainJob, newTrainJob);

    assertThat(comparable(result.errors())).containsExactlyElementsOf(expected);
  }

  /** The errors with object-valued bad values dropped: the tests state paths, details and string values. */
  private static List<FieldError> comparable(List<FieldError> errors) {
    return errors.stream()
        .map(e -> e.badValue() instanceof String ? e : new FieldError(e.type(), e.field(), null, e.detail()))
        .toList();
  }

  private static FieldError invalidRuntimeRef(String detail) {
    return FieldError.invalid(RUNTIME_REF, null, detail);
  }

  private static FieldError invalidPatches(String detail) {
    return FieldError.invalid(RUNTIME_PATCHES, null, detail);
  }

  private static JobSet jobSet(int nodeActive, int evaluatorActive) {
    return (JobSet) Fixtures.object("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata:
          name: patched
          namespace: default
        spec:
          suspend: true
        status:
          replicatedJobsStatus:
            - {name: node, ready: 0, succeeded: 0, failed: 0, active: %d, suspended: 0}
            - {name: evaluator, ready: 0, succeeded: 1, failed: 0, active: %d, suspended: 0}
        """.formatted(nodeActive, evaluatorActive));
  }

  private static <T> Consumer<T> none() {
    return x -> { };
  }

  @SafeVarargs
  private static Consumer<TrainJob> change(Consumer<TrainJob>... changes) {
    return tj -> Stream.of(changes).forEach(c -> c.accept(tj));
  }

  private static Consumer<TrainJob> manager(String manager) {
    return tj -> tj.getSpec().getRuntimePatches().get(0).setManager(manager);
  }

  private static Consumer<TrainJob> addPatch(String yaml) {
    return tj -> {
      List<RuntimePatch> patches = tj.getSpec().getRuntimePatches() == null ? new ArrayList<>()
          : new ArrayList<>(tj.getSpec().getRuntimePatches());
      patches.add(Fixtures.serialization().unmarshal(yaml, RuntimePatch.class));
      tj.getSpec().setRuntimePatches(patches);
    };
  }

  private static String containerPatch(String job, String list, String container, boolean withEnv) {
    return """
        manager: example.com/x
        trainingRuntimeSpec:
          template:
            spec:
              replicatedJobs:
                - name: %s
                  template:
                    spec:
                      template:
                        spec:
                          %s:
                            - name: %s
        """.formatted(job, list, container)
        + (withEnv ? """
                                  env:
                                    - name: EXTRA
                                      value: "1"
            """ : "");
  }

  private static Consumer<TrainingRuntimeSpec> removeJob(String job) {
    return spec -> spec.getTemplate().getSpec().getReplicatedJobs().removeIf(j -> j.getName().equals(job));
  }

  private static Consumer<TrainingRuntimeSpec> renameContainer(String job, String newName) {
    return spec -> podSpec(spec, job).getContainers().get(0).setName(newName);
  }

  private static Consumer<TrainingRuntimeSpec> renameInitContainer(String name, String newName) {
    return spec -> podSpec(spec, "node").getInitContainers().stream()
        .filter(c -> c.getName().equals(name)).forEach(c -> c.setName(newName));
  }

  private static Consumer<TrainingRuntimeSpec> removeMounts(String job) {
    return spec -> podSpec(spec, job).getContainers().get(0).setVolumeMounts(null);
  }

  private static PodSpec podSpec(TrainingRuntimeSpec spec, String job) {
    return spec.getTemplate().getSpec().getReplicatedJobs().stream()
        .filter(j -> j.getName().equals(job))
        .findFirst().orElseThrow()
        .getTemplate().getSpec().getTemplate().getSpec();
  }
}
