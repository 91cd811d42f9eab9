package io.kftrainer.plugins.jax;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import org.junit.jupiter.api.Test;

/** The whole build with the JobSet plugin, against a golden JobSet. */
class JaxGoldenTest {

  @Test
  void twoJaxNodesGetProcessCountIdAndCoordinatorThenTheTrainJobEnv() {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("scenarios/two-nodes/trainjob.yaml"));
    String trainJobBefore = Yaml.dump(trainJob);

    var objects = TestPipeline.of(new JaxPlugin(), new JobSetPlugin())
        .objects(Fixtures.runtime(Fixtures.resource("scenarios/two-nodes/runtime.yaml")), trainJob);

    Golden.assertMatches(objects, "golden/two-nodes.yaml");
    assertThat(Yaml.dump(trainJob)).isEqualTo(trainJobBefore);
  }
}
