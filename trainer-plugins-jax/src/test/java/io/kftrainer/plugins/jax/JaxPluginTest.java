package io.kftrainer.plugins.jax;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.jobset.v1alpha2.Network;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JaxPluginTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new JaxPlugin());
  private static final String PROCESS_ID =
      "JAX_PROCESS_ID<-metadata.annotations['batch.kubernetes.io/job-completion-index']";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void setsCountEnvAndPort(String name, Consumer<TrainingRuntimeSpec> runtimeChange, Consumer<TrainJob> trainJobChange,
      int expectedCount, List<String> expectedEnv) {
    RuntimeInfo info = PIPELINE.build(loadRuntime(runtimeChange), loadTrainJob(trainJobChange)).info();

    PodSet trainer = info.podSet("node").orElseThrow();
    assertThat(trainer.count()).isEqualTo(expectedCount);
    assertThat(env(trainer)).containsExactlyElementsOf(expectedEnv);
    assertThat(trainer.container("node").orElseThrow().ports()).extracting(ContainerPort::getContainerPort)
        .containsExactly(29500);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("single node JAX training", runtime(spec -> { }), trainJob(tj -> { }), 1,
            List.of("JAX_NUM_PROCESSES=1", PROCESS_ID, "JAX_COORDINATOR_ADDRESS=test-job-node-0-0.test-job:29500")),
        Arguments.of("trainJob numNodes is respected rather than the runtime one",
            runtime(spec -> spec.getMlPolicy().setNumNodes(2)),
            trainJob(tj -> {
              tj.getMetadata().setName("multi-node-job");
              tj.getSpec().getTrainer().setNumNodes(4);
            }),
            4,
            List.of("JAX_NUM_PROCESSES=4", PROCESS_ID,
                "JAX_COORDINATOR_ADDRESS=multi-node-job-node-0-0.multi-node-job:29500")),
        Arguments.of("GPU resources do not change the one process per node",
            runtime(spec -> { }),
            trainJob(tj -> {
              tj.getMetadata().setName("gpu-job");
              tj.getSpec().getTrainer().setNumNodes(2);
              tj.getSpec().getTrainer().setResourcesPerNode(new ResourceRequirements(null, null,
                  Map.of("cpu", new Quantity("8"), "nvidia.com/gpu", new Quantity("4"))));
            }),
            2,
            List.of("JAX_NUM_PROCESSES=2", PROCESS_ID, "JAX_COORDINATOR_ADDRESS=gpu-job-node-0-0.gpu-job:29500")),
        Arguments.of("the TrainJob's env is left to the JobSet builder, the runtime's comes first",
            runtime(spec -> nodeContainer(spec).setEnv(List.of(new EnvVar("XLA_FLAGS", "--runtime", null)))),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("TRAIN_JOB", "value", null),
                new EnvVar("XLA_FLAGS", "--trainjob", null)))),
            1,
            List.of("XLA_FLAGS=--runtime", "JAX_NUM_PROCESSES=1", PROCESS_ID,
                "JAX_COORDINATOR_ADDRESS=test-job-node-0-0.test-job:29500")),
        Arguments.of("a TrainJob without spec.trainer still gets the JAX env",
            runtime(spec -> spec.getMlPolicy().setNumNodes(3)),
            trainJob(tj -> tj.getSpec().setTrainer(null)),
            3,
            List.of("JAX_NUM_PROCESSES=3", PROCESS_ID, "JAX_COORDINATOR_ADDRESS=test-job-node-0-0.test-job:29500")),
        Arguments.of("the coordinator address uses the JobSet subdomain",
            runtime(spec -> spec.getTemplate().getSpec().setNetwork(new Network().withSubdomain("hosts"))),
            trainJob(tj -> { }),
            1,
            List.of("JAX_NUM_PROCESSES=1", PROCESS_ID, "JAX_COORDINATOR_ADDRESS=test-job-node-0-0.hosts:29500")));
  }

  @Test
  void runtimesWithoutJaxPolicyAreLeftAlone() {
    RuntimeSource runtime = loadRuntime(spec -> spec.setMlPolicy(new MLPolicy().withNumNodes(2)));
    TrainJob trainJob = loadTrainJob(tj -> tj.getSpec().getTrainer().setNumNodes(5));

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(info.podSets()).isEqualTo(PIPELINE.initialInfo(runtime, trainJob).podSets());
  }

  @Test
  void aRuntimeWithoutTrainerJobIsLeftAlone() {
    RuntimeSource runtime = loadRuntime(spec -> spec.getTemplate().getSpec().getReplicatedJobs().get(0).getTemplate()
        .getMetadata().setLabels(Map.of()));
    TrainJob trainJob = loadTrainJob(tj -> tj.getSpec().getTrainer().setNumNodes(2));

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(info.podSets()).isEqualTo(PIPELINE.initialInfo(runtime, trainJob).podSets());
  }

  @Test
  void theTrainJobIsNotChangedByABuild() {
    TrainJob trainJob = loadTrainJob(tj -> {
      tj.getSpec().getTrainer().setNumNodes(2);
      tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("A", "1", null)));
    });
    String before = Yaml.dump(trainJob);

    PIPELINE.build(loadRuntime(spec -> { }), trainJob);

    assertThat(Yaml.dump(trainJob)).isEqualTo(before);
  }

  private static Container nodeContainer(TrainingRuntimeSpec spec) {
    return spec.getTemplate().getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec()
        .getContainers().get(0);
  }

  private static RuntimeSource loadRuntime(Consumer<TrainingRuntimeSpec> change) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource("jax/runtime.yaml"));
    change.accept(runtime.spec());
    return runtime;
  }

  private static TrainJob loadTrainJob(Consumer<TrainJob> change) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("jax/trainjob.yaml"));
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
