package io.kftrainer.plugins.xgboost;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.plugins.plainml.PlainMLPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import org.junit.jupiter.api.Test;

/**
 * The whole build with the PlainML and JobSet plugins, as in the operator: PlainML leaves the XGBoost runtime
 * alone, this plugin puts the TrainJob's env before the tracker variables.
 */
class XGBoostGoldenTest {

  @Test
  void twoNodesWithFourGpusRunEightWorkers() {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("scenarios/gpu/trainjob.yaml"));
    String trainJobBefore = Yaml.dump(trainJob);

    var objects = TestPipeline.of(new XGBoostPlugin(), new PlainMLPlugin(), new JobSetPlugin())
        .objects(Fixtures.runtime(Fixtures.resource("scenarios/gpu/runtime.yaml")), trainJob);

    Golden.assertMatches(objects, "golden/gpu.yaml");
    assertThat(Yaml.dump(trainJob)).isEqualTo(trainJobBefore);
  }
}
