package io.kftrainer.plugins.torch;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole build with the JobSet plugin: {@code scenarios/<name>/runtime.yaml} and {@code trainjob.yaml} in,
 * {@code golden/<name>.yaml} out.
 */
class TorchGoldenTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new TorchPlugin(), new JobSetPlugin());

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"multi-node-gpu", "runtime-num-nodes", "elastic", "env-injection", "torchtune-multi-node"})
  void buildsTheGoldenJobSet(String scenario) {
    TrainJob trainJob = trainJob(scenario);
    String trainJobBefore = Yaml.dump(trainJob);

    List<HasMetadata> objects = PIPELINE.objects(runtime(scenario), trainJob);

    Golden.assertMatches(objects, "golden/" + scenario + ".yaml");
    assertThat(Yaml.dump(trainJob)).isEqualTo(trainJobBefore);
  }

  @Test
  void theRuntimeNodeCountAndTheEnvOrderMatchUpstreamsIntegrationTest() {
    JobSet jobSet = (JobSet) PIPELINE.objects(runtime("runtime-num-nodes"), trainJob("runtime-num-nodes")).get(0);

    ReplicatedJob node = jobSet.getSpec().getReplicatedJobs().get(0);
    assertThat(node.getReplicas()).isEqualTo(1);
    assertThat(node.getTemplate().getSpec().getParallelism()).isEqualTo(100);
    assertThat(node.getTemplate().getSpec().getCompletions()).isEqualTo(100);
    var container = node.getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getEnv()).extracting(EnvVar::getName).containsExactly("TRAIN_JOB", "PET_NNODES",
        "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT");
    assertThat(container.getEnv()).extracting(EnvVar::getValue)
        .containsExactly("value", "100", "1", null, "alpha-node-0-0.alpha", "29500");
    assertThat(container.getPorts()).singleElement()
        .satisfies(port -> assertThat(port.getContainerPort()).isEqualTo(29500));
  }

  private static RuntimeSource runtime(String scenario) {
    return Fixtures.runtime(Fixtures.resource("scenarios/" + scenario + "/runtime.yaml"));
  }

  private static TrainJob trainJob(String scenario) {
    return Fixtures.trainJob(Fixtures.resource("scenarios/" + scenario + "/trainjob.yaml"));
  }
}
