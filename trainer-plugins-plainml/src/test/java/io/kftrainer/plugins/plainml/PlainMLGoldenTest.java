package io.kftrainer.plugins.plainml;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import org.junit.jupiter.api.Test;

/** The whole build with the JobSet plugin, against a golden JobSet. */
class PlainMLGoldenTest {

  @Test
  void aPlainRuntimeRunsTheTrainJobsNodeCountWithItsEnv() {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("scenarios/plain/trainjob.yaml"));
    String trainJobBefore = Yaml.dump(trainJob);

    var objects = TestPipeline.of(new PlainMLPlugin(), new JobSetPlugin())
        .objects(Fixtures.runtime(Fixtures.resource("scenarios/plain/runtime.yaml")), trainJob);

    Golden.assertMatches(objects, "golden/plain.yaml");
    assertThat(Yaml.dump(trainJob)).isEqualTo(trainJobBefore);
  }
}
