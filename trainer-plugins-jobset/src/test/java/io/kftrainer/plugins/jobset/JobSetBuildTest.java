package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobSetBuildTest {

  static Stream<Arguments> goldenCases() {
    return Stream.of(
        Arguments.of("trainer image, command, args and env override the runtime; counts come from mlPolicy.numNodes",
            "runtime/torch-distributed.yaml", "trainjob/torch-override.yaml", "golden/torch-override.yaml"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenCases")
  void buildsTheJobSet(String name, String runtimePath, String trainJobPath, String goldenPath) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource(runtimePath));
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource(trainJobPath));
    TrainJob before = Fixtures.trainJob(Fixtures.resource(trainJobPath));

    var objects = TestPipeline.of(new JobSetPlugin()).objects(runtime, trainJob);

    Golden.assertMatches(objects, goldenPath);
    assertThat(trainJob).isEqualTo(before);
  }
}
