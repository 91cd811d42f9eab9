package io.kftrainer.plugins.torch;

import static io.kftrainer.plugins.torch.TorchFixtures.container;
import static io.kftrainer.plugins.torch.TorchFixtures.limits;
import static io.kftrainer.plugins.torch.TorchFixtures.requests;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.TestPipeline;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code PET_NPROC_PER_NODE} for each combination of requested value and node resources. */
class ProcsPerNodeTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new TorchPlugin());

  /**
   * @param runtimeResources resources of the runtime's node container, or null
   * @param trainJobResources the TrainJob's resourcesPerNode, or null
   * @param policyProcs the torch policy's numProcPerNode, or null
   * @param trainJobProcs the TrainJob's numProcPerNode, or null
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void resolvesProcessesPerNode(String name, ResourceRequirements runtimeResources,
      ResourceRequirements trainJobResources, IntOrString policyProcs, IntOrString trainJobProcs, String expected) {
    RuntimeSource runtime = TorchFixtures.runtime(spec -> {
      spec.getMlPolicy().getTorch().setNumProcPerNode(policyProcs);
      spec.getTemplate().getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec()
          .getContainers().get(0).setResources(runtimeResources);
    });
    TrainJob trainJob = TorchFixtures.trainJob(tj -> {
      tj.getSpec().getTrainer().setResourcesPerNode(trainJobResources);
      tj.getSpec().getTrainer().setNumProcPerNode(trainJobProcs);
    });

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(container(info, "node", "node").envVar(TorchEnv.NUM_PROC_PER_NODE).orElseThrow().getValue())
        .isEqualTo(expected);
  }

  static Stream<Arguments> cases() {
    IntOrString auto = new IntOrString("auto");
    return Stream.of(
        Arguments.of("a CPU request of 4 gives 4 processes", null, requests("cpu", "4"), null, null, "4"),
        Arguments.of("no resources at all give 1 process", null, null, null, null, "1"),
        Arguments.of("a CPU request of 2.5 rounds up to 3", null, requests("cpu", "2.5"), null, null, "3"),
        Arguments.of("a CPU request of 0.7 gives 1 process", null, requests("cpu", "0.7"), null, null, "1"),
        Arguments.of("a CPU limit of 3.7 without a request rounds up to 4", null, limits("cpu", "3.7"), null, null,
            "4"),
        Arguments.of("a CPU request of 1500m rounds up to 2", null, requests("cpu", "1500m"), null, null, "2"),
        Arguments.of("a zero CPU request falls back to the CPU limit", null,
            new ResourceRequirements(null, TorchFixtures.quantities("cpu", "2"), TorchFixtures.quantities("cpu", "0")),
            null, null, "2"),
        Arguments.of("a GPU request keeps auto", null,
            requests("cpu", "8", "memory", "16Gi", "example.com/gpu", "4"), null, null, "auto"),
        Arguments.of("a GPU limit without a request keeps auto", null, limits("nvidia.com/gpu", "1"), null, null,
            "auto"),
        Arguments.of("an explicit auto with a GPU stays auto", null, requests("nvidia.com/gpu", "2"), null, auto,
            "auto"),
        Arguments.of("an explicit int wins over GPUs", null, requests("nvidia.com/gpu", "2"), null,
            new IntOrString(3), "3"),
        Arguments.of("cpu counts CPUs even with GPUs", null, requests("cpu", "6", "example.com/gpu", "2"), null,
            new IntOrString("cpu"), "6"),
        Arguments.of("cpu without CPU resources gives 1", null, null, null, new IntOrString("cpu"), "1"),
        Arguments.of("gpu gives the GPU count", null, requests("cpu", "6", "nvidia.com/gpu", "2"), null,
            new IntOrString("gpu"), "2"),
        Arguments.of("gpu without GPUs gives 1", null, requests("cpu", "4"), null, new IntOrString("gpu"), "1"),
        Arguments.of("the runtime node container's CPU applies when the TrainJob sets no resources",
            requests("cpu", "3"), null, null, null, "3"),
        Arguments.of("the runtime node container's GPU keeps auto", limits("nvidia.com/gpu", "1"), null, null, null,
            "auto"),
        Arguments.of("TrainJob resources replace the runtime's instead of merging with them",
            requests("cpu", "8", "nvidia.com/gpu", "1"), limits("cpu", "2"), null, null, "2"),
        Arguments.of("the policy's numProcPerNode applies when the TrainJob sets none", null, requests("cpu", "4"),
            new IntOrString(2), null, "2"),
        Arguments.of("the TrainJob's numProcPerNode overrides the policy's", null, requests("cpu", "4"),
            new IntOrString(2), new IntOrString(5), "5"),
        Arguments.of("the TrainJob's auto overrides the policy's int", null, requests("cpu", "4"),
            new IntOrString(2), auto, "4"));
  }
}
