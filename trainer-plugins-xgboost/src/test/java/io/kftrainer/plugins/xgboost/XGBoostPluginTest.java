package io.kftrainer.plugins.xgboost;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class XGBoostPluginTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new XGBoostPlugin());
  private static final String TASK_ID =
      "DMLC_TASK_ID<-metadata.annotations['batch.kubernetes.io/job-completion-index']";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void setsCountTrackerEnvAndWorkers(String name, Consumer<TrainingRuntimeSpec> runtimeChange,
      Consumer<TrainJob> trainJobChange, int expectedCount, String expectedWorkers) {
    RuntimeInfo info = PIPELINE.build(loadRuntime(runtimeChange), loadTrainJob(trainJobChange)).info();

    PodSet trainer = info.podSet("node").orElseThrow();
    assertThat(trainer.count()).isEqualTo(expectedCount);
    assertThat(env(trainer)).containsExactly("DMLC_TRACKER_URI=test-job-node-0-0.test-job", "DMLC_TRACKER_PORT=29500",
        TASK_ID, "DMLC_NUM_WORKER=" + expectedWorkers);
    assertThat(trainer.container("node").orElseThrow().ports()).extracting(ContainerPort::getContainerPort)
        .containsExactly(29500);
  }

  @Test
  void putsTheTrainJobEnvBeforeTheTrackerEnv() {
    RuntimeInfo info = PIPELINE.build(loadRuntime(spec -> { }), loadTrainJob(tj -> {
      tj.getSpec().getTrainer().setNumNodes(2);
      tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("LEARNING_RATE", "0.1", null)));
    })).info();

    assertThat(env(info.podSet("node").orElseThrow())).containsExactly("LEARNING_RATE=0.1",
        "DMLC_TRACKER_URI=test-job-node-0-0.test-job", "DMLC_TRACKER_PORT=29500", TASK_ID, "DMLC_NUM_WORKER=2");
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("single node CPU training has one worker", runtime(spec -> { }),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(1)), 1, "1"),
        Arguments.of("multi-node CPU training has one worker per node", runtime(spec -> { }),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(4)), 4, "4"),
        Arguments.of("GPU training has one worker per GPU", runtime(spec -> { }),
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumNodes(2);
              tj.getSpec().getTrainer().setResourcesPerNode(
                  requests("cpu", "8", "memory", "32Gi", "example.com/gpu", "4"));
            }),
            2, "8"),
        Arguments.of("trainJob numNodes is respected rather than the runtime one",
            runtime(spec -> spec.getMlPolicy().setNumNodes(5)),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(3)), 3, "3"),
        Arguments.of("the runtime numNodes applies when the TrainJob sets none",
            runtime(spec -> spec.getMlPolicy().setNumNodes(5)), trainJob(tj -> { }), 5, "5"),
        Arguments.of("GPUs set in the runtime only count", runtime(spec -> nodeContainer(spec).setResources(
                requests("example.com/gpu", "2"))),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(3)), 3, "6"),
        Arguments.of("GPUs set in the TrainJob replace the runtime's",
            runtime(spec -> nodeContainer(spec).setResources(requests("example.com/gpu", "1"))),
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumNodes(2);
              tj.getSpec().getTrainer().setResourcesPerNode(requests("example.com/gpu", "3"));
            }),
            2, "6"),
        Arguments.of("TrainJob resources without GPUs replace runtime GPUs entirely",
            runtime(spec -> nodeContainer(spec).setResources(requests("example.com/gpu", "2"))),
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumNodes(2);
              tj.getSpec().getTrainer().setResourcesPerNode(requests("cpu", "4"));
            }),
            2, "2"),
        Arguments.of("a GPU limit without a request counts", runtime(spec -> { }),
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumNodes(2);
              tj.getSpec().getTrainer().setResourcesPerNode(
                  new ResourceRequirements(null, quantities("nvidia.com/gpu", "2"), null));
            }),
            2, "4"),
        Arguments.of("a TrainJob without spec.trainer still gets the tracker env",
            runtime(spec -> spec.getMlPolicy().setNumNodes(2)), trainJob(tj -> tj.getSpec().setTrainer(null)),
            2, "2"));
  }

  @Test
  void runtimesWithoutXGBoostPolicyAreLeftAlone() {
    RuntimeSource runtime = loadRuntime(spec -> spec.setMlPolicy(new MLPolicy().withTorch(new TorchMLPolicySource())));
    TrainJob trainJob = loadTrainJob(tj -> tj.getSpec().getTrainer().setNumNodes(5));

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(info.podSets()).isEqualTo(PIPELINE.initialInfo(runtime, trainJob).podSets());
  }

  @Test
  void theTrainJobIsNotChangedByABuild() {
    TrainJob trainJob = loadTrainJob(tj -> {
      tj.getSpec().getTrainer().setNumNodes(2);
      tj.getSpec().getTrainer().setResourcesPerNode(requests("nvidia.com/gpu", "2"));
    });
    String before = Yaml.dump(trainJob);

    PIPELINE.build(loadRuntime(spec -> { }), trainJob);

    assertThat(Yaml.dump(trainJob)).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validationCases")
  void forbidsReservedEnv(String name, Consumer<TrainingRuntimeSpec> runtimeChange, List<EnvVar> env,
      List<String> expectedErrors) {
    var result = PIPELINE.validate(loadRuntime(runtimeChange),
        loadTrainJob(tj -> tj.getSpec().getTrainer().setEnv(env)));

    assertThat(result.errors()).extracting(e -> e.type() + " " + e.field() + ": " + e.detail())
        .containsExactlyElementsOf(expectedErrors);
    assertThat(result.errors()).extracting(FieldError::badValue).allSatisfy(value -> assertThat(value).isNull());
  }

  static Stream<Arguments> validationCases() {
    return Stream.of(
        Arguments.of("env without reserved names is valid", runtime(spec -> { }),
            List.of(env("LEARNING_RATE")), List.of()),
        Arguments.of("DMLC_TRACKER_URI is forbidden", runtime(spec -> { }),
            List.of(env("A"), env("DMLC_TRACKER_URI")),
            List.of("FORBIDDEN spec.trainer.env[1]: DMLC_TRACKER_URI is reserved for the XGBoost runtime")),
        Arguments.of("DMLC_NUM_WORKER is forbidden", runtime(spec -> { }), List.of(env("DMLC_NUM_WORKER")),
            List.of("FORBIDDEN spec.trainer.env[0]: DMLC_NUM_WORKER is reserved for the XGBoost runtime")),
        Arguments.of("every reserved variable gets its own error", runtime(spec -> { }),
            List.of(env("DMLC_TRACKER_URI"), env("DMLC_TASK_ID"), env("DMLC_TRACKER_PORT")),
            List.of("FORBIDDEN spec.trainer.env[0]: DMLC_TRACKER_URI is reserved for the XGBoost runtime",
                "FORBIDDEN spec.trainer.env[1]: DMLC_TASK_ID is reserved for the XGBoost runtime",
                "FORBIDDEN spec.trainer.env[2]: DMLC_TRACKER_PORT is reserved for the XGBoost runtime")),
        Arguments.of("a runtime that is not XGBoost is not checked",
            runtime(spec -> spec.setMlPolicy(new MLPolicy().withTorch(new TorchMLPolicySource()))),
            List.of(env("DMLC_TRACKER_URI")), List.of()));
  }

  private static EnvVar env(String name) {
    return new EnvVar(name, "value", null);
  }

  private static ResourceRequirements requests(String... namesAndQuantities) {
    return new ResourceRequirements(null, null, quantities(namesAndQuantities));
  }

  private static Map<String, Quantity> quantities(String... namesAndQuantities) {
    Map<String, Quantity> map = new LinkedHashMap<>();
    for (int i = 0; i < namesAndQuantities.length; i += 2) {
      map.put(namesAndQuantities[i], new Quantity(namesAndQuantities[i + 1]));
    }
    return map;
  }

  private static Container nodeContainer(TrainingRuntimeSpec spec) {
    return spec.getTemplate().getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec()
        .getContainers().get(0);
  }

  private static RuntimeSource loadRuntime(Consumer<TrainingRuntimeSpec> change) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource("xgboost/runtime.yaml"));
    change.accept(runtime.spec());
    return runtime;
  }

  private static TrainJob loadTrainJob(Consumer<TrainJob> change) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("xgboost/trainjob.yaml"));
    change.accept(trainJob);
    return trainJob;
  }

  private static Consumer<TrainingRuntimeSpec> runtime(Consumer<TrainingRuntimeSpec> change) {
    return change;
  }

  private static Consumer<TrainJob> trainJob(Consumer<TrainJob> change) {
    return change;
  }

  private static List<String> env(PodSet podSet) {
    return podSet.container("node").orElseThrow().env().stream()
        .map(e -> e.getValueFrom() != null ? e.getName() + "<-" + e.getValueFrom().getFieldRef().getFieldPath()
            : e.getName() + "=" + e.getValue())
        .toList();
  }
}
