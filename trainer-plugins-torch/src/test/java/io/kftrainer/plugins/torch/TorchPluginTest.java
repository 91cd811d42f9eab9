package io.kftrainer.plugins.torch;

import static io.kftrainer.plugins.torch.TorchFixtures.RANK_FROM_INDEX;
import static io.kftrainer.plugins.torch.TorchFixtures.container;
import static io.kftrainer.plugins.torch.TorchFixtures.env;
import static io.kftrainer.plugins.torch.TorchFixtures.requests;
import static io.kftrainer.plugins.torch.TorchFixtures.unchanged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.kftrainer.api.jobset.v1alpha2.FailurePolicy;
import io.kftrainer.api.jobset.v1alpha2.Network;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TorchElasticPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.testkit.TestPipeline;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What {@link TorchPlugin#enforceMLPolicy} does to the pod sets. */
class TorchPluginTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new TorchPlugin());

  @ParameterizedTest(name = "{0}")
  @MethodSource("trainerContainerCases")
  void setsTrainerCountAndEnv(String name, Consumer<TrainingRuntimeSpec> runtimeChange,
      Consumer<TrainJob> trainJobChange, int expectedCount, List<String> expectedEnv) {
    RuntimeSource runtime = TorchFixtures.runtime(runtimeChange);
    TrainJob trainJob = TorchFixtures.trainJob(trainJobChange);

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    PodSet trainer = info.podSetByAncestor("trainer").orElseThrow();
    assertThat(trainer.count()).isEqualTo(expectedCount);
    assertThat(env(trainer.container("node").orElseThrow())).containsExactlyElementsOf(expectedEnv);
    assertThat(trainer.container("node").orElseThrow().ports()).extracting(ContainerPort::getContainerPort)
        .containsExactly(29500);
  }

  static Stream<Arguments> trainerContainerCases() {
    return Stream.of(
        Arguments.of("multi-node multi-GPU training keeps nproc auto",
            unchanged(),
            trainJob(tj -> {
              tj.getMetadata().setName("gpu-job");
              tj.getSpec().getTrainer().setNumNodes(4);
              tj.getSpec().getTrainer().setResourcesPerNode(
                  requests("cpu", "8", "memory", "16Gi", "example.com/gpu", "4"));
            }),
            4,
            List.of("PET_NNODES=4", "PET_NPROC_PER_NODE=auto", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=gpu-job-node-0-0.gpu-job", "PET_MASTER_PORT=29500")),
        Arguments.of("the runtime's numNodes applies when the TrainJob sets none, after the TrainJob's env",
            runtime(spec -> {
              spec.getMlPolicy().setNumNodes(100);
              nodeContainer(spec).setResources(requests("cpu", "1", "memory", "4Gi"));
            }),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("TRAIN_JOB", "value", null)))),
            100,
            List.of("TRAIN_JOB=value", "PET_NNODES=100", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500")),
        Arguments.of("trainJob numNodes is respected rather than the mlPolicy one",
            runtime(spec -> spec.getMlPolicy().setNumNodes(3)),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(2)),
            2,
            List.of("PET_NNODES=2", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500")),
        Arguments.of("a TrainJob env var replaces the runtime's value in place",
            runtime(spec -> nodeContainer(spec).setEnv(List.of(new EnvVar("LOG_LEVEL", "info", null),
                new EnvVar("DATA", "/data", null)))),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("DATA", "/mnt/data", null),
                new EnvVar("EPOCHS", "3", null)))),
            1,
            List.of("LOG_LEVEL=info", "DATA=/mnt/data", "EPOCHS=3", "PET_NNODES=1", "PET_NPROC_PER_NODE=1",
                "PET_NODE_RANK" + RANK_FROM_INDEX, "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500")),
        Arguments.of("a TrainJob without spec.trainer still gets the torchrun env",
            runtime(spec -> spec.getMlPolicy().setNumNodes(2)),
            trainJob(tj -> tj.getSpec().setTrainer(null)),
            2,
            List.of("PET_NNODES=2", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500")),
        Arguments.of("the master address uses the trainer job's name and the JobSet subdomain",
            runtime(spec -> {
              spec.getTemplate().getSpec().getReplicatedJobs().get(0).setName("trainer");
              spec.getTemplate().getSpec().setNetwork(new Network().withSubdomain("workers"));
            }),
            unchanged(),
            1,
            List.of("PET_NNODES=1", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=alpha-trainer-0-0.workers", "PET_MASTER_PORT=29500")),
        Arguments.of("an elastic policy gives min:max nodes, restarts and a c10d rendezvous on the master",
            runtime(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
                new TorchElasticPolicy().withMinNodes(2).withMaxNodes(4).withMaxRestarts(3))),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(3)),
            3,
            List.of("PET_NNODES=2:4", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MAX_RESTARTS=3", "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500",
                "PET_RDZV_BACKEND=c10d", "PET_RDZV_ENDPOINT=alpha-node-0-0.alpha:29500")),
        Arguments.of("an elastic policy with only maxNodes uses it as both bounds and sets no restarts",
            runtime(spec -> {
              spec.getMlPolicy().setNumNodes(4);
              spec.getMlPolicy().getTorch().setElasticPolicy(new TorchElasticPolicy().withMaxNodes(4));
            }),
            unchanged(),
            4,
            List.of("PET_NNODES=4:4", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500", "PET_RDZV_BACKEND=c10d",
                "PET_RDZV_ENDPOINT=alpha-node-0-0.alpha:29500")),
        Arguments.of("an empty elastic policy uses the node count as both bounds",
            runtime(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(new TorchElasticPolicy())),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(2)),
            2,
            List.of("PET_NNODES=2:2", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
                "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500", "PET_RDZV_BACKEND=c10d",
                "PET_RDZV_ENDPOINT=alpha-node-0-0.alpha:29500")));
  }

  @Test
  void elasticMaxRestartsBecomeTheJobSetFailurePolicyUnlessTheTemplateSetsOne() {
    RuntimeSource runtime = TorchFixtures.runtime(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
        new TorchElasticPolicy().withMinNodes(1).withMaxNodes(2).withMaxRestarts(5)));

    RuntimeInfo info = PIPELINE.build(runtime, TorchFixtures.trainJob(unchanged())).info();

    assertThat(info.template().getFailurePolicy().getMaxRestarts()).isEqualTo(5);
  }

  @Test
  void aTemplateFailurePolicyWinsOverElasticMaxRestarts() {
    RuntimeSource runtime = TorchFixtures.runtime(spec -> {
      spec.getMlPolicy().getTorch().setElasticPolicy(
          new TorchElasticPolicy().withMinNodes(1).withMaxNodes(2).withMaxRestarts(5));
      spec.getTemplate().getSpec().setFailurePolicy(
          new FailurePolicy().withMaxRestarts(1));
    });

    RuntimeInfo info = PIPELINE.build(runtime, TorchFixtures.trainJob(unchanged())).info();

    assertThat(info.template().getFailurePolicy().getMaxRestarts()).isEqualTo(1);
  }

  @Test
  void envInjectionTargetsGetThePetAndMasterEnvAfterTheirOwn() {
    RuntimeSource runtime = TorchFixtures.runtime("torch/runtime-with-injection.yaml", unchanged());

    RuntimeInfo info = PIPELINE.build(runtime, TorchFixtures.trainJob(unchanged())).info();

    List<String> torchrunEnv = List.of("PET_NNODES=2", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK" + RANK_FROM_INDEX,
        "PET_MASTER_ADDR=alpha-node-0-0.alpha", "PET_MASTER_PORT=29500");
    assertThat(env(container(info, "node", "preflight-check"))).containsExactlyElementsOf(torchrunEnv);
    assertThat(env(container(info, "node", "node"))).containsExactlyElementsOf(torchrunEnv);
    assertThat(env(container(info, "monitor", "metrics")))
        .containsExactlyElementsOf(Stream.concat(Stream.of("SCRAPE_INTERVAL=10s"), torchrunEnv.stream()).toList());
    assertThat(container(info, "monitor", "setup").env()).isEmpty();
    assertThat(container(info, "node", "preflight-check").ports()).isEmpty();
    assertThat(info.podSet("monitor").orElseThrow().count()).isEqualTo(1);
  }

  @Test
  void envInjectionTargetsGetTheMasterEnvEvenForTorchtune() {
    RuntimeSource runtime = TorchFixtures.runtime("torch/runtime-with-injection.yaml", unchanged());
    TrainJob trainJob = TorchFixtures.trainJob(tj -> tj.getSpec().getTrainer().setCommand(List.of("tune", "run")));

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(env(container(info, "node", "preflight-check"))).contains("PET_MASTER_ADDR=alpha-node-0-0.alpha",
        "PET_MASTER_PORT=29500");
    assertThat(env(container(info, "node", "node"))).noneMatch(line -> line.startsWith("PET_MASTER_"));
  }

  @Test
  void aMissingEnvInjectionContainerFailsTheBuildWithUpstreamsMessage() {
    RuntimeSource runtime = TorchFixtures.runtime("torch/runtime-with-injection.yaml",
        spec -> spec.getMlPolicy().getTorch().getEnvInjection().getTargets().get(0)
            .setContainerNames(List.of("missing")));

    assertThatThrownBy(() -> PIPELINE.build(runtime, TorchFixtures.trainJob(unchanged())))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("Torch")
        .hasRootCauseMessage("envInjection target podSet \"node\" container \"missing\" not found in runtime template");
  }

  @Test
  void aPortAlreadyInTheTemplateIsNotAddedTwice() {
    RuntimeSource runtime = TorchFixtures.runtime(spec -> nodeContainer(spec).setPorts(
        List.of(new ContainerPort(29500, null, null, "master", "TCP"))));

    RuntimeInfo info = PIPELINE.build(runtime, TorchFixtures.trainJob(unchanged())).info();

    assertThat(container(info, "node", "node").ports()).singleElement()
        .satisfies(port -> assertThat(port.getName()).isEqualTo("master"));
  }

  @Test
  void runtimesWithoutTorchPolicyAreLeftAlone() {
    RuntimeSource runtime = TorchFixtures.runtime(spec -> spec.setMlPolicy(new MLPolicy().withNumNodes(3)));
    TrainJob trainJob = TorchFixtures.trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(5));

    RuntimeInfo before = PIPELINE.initialInfo(runtime, trainJob);
    RuntimeInfo after = PIPELINE.build(runtime, trainJob).info();

    assertThat(after.podSets()).isEqualTo(before.podSets());
    assertThat(after.template()).isEqualTo(before.template());
  }

  @Test
  void theTrainJobIsNotChangedByABuild() {
    RuntimeSource runtime = TorchFixtures.runtime("torch/runtime-with-injection.yaml",
        spec -> spec.getMlPolicy().getTorch().setElasticPolicy(new TorchElasticPolicy().withMaxRestarts(2)));
    TrainJob trainJob = TorchFixtures.trainJob(tj -> {
      tj.getSpec().getTrainer().setCommand(List.of("tune", "run"));
      tj.getSpec().getTrainer().setNumNodes(2);
      tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("auto"));
      tj.getSpec().getTrainer().setEnv(List.of(new EnvVar("A", "1", null)));
    });
    String before = TorchFixtures.yaml(trainJob);

    PIPELINE.build(runtime, trainJob);

    assertThat(TorchFixtures.yaml(trainJob)).isEqualTo(before);
  }

  private static Container nodeContainer(TrainingRuntimeSpec spec) {
    return spec.getTemplate().getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec()
        .getContainers().get(0);
  }

  private static Consumer<TrainingRuntimeSpec> runtime(Consumer<TrainingRuntimeSpec> change) {
    return change;
  }

  private static Consumer<TrainJob> trainJob(Consumer<TrainJob> change) {
    return change;
  }
}
