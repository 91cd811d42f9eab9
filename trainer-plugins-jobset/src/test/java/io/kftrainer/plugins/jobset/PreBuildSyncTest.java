package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PreBuildSyncTest {

  /** What the pre-build step decides for one replicated job: its pod set's endpoints and the job's counts. */
  record Synced(List<String> endpoints, Integer parallelism, Integer completions) {

    static Synced of(int count, String... endpoints) {
      return new Synced(List.of(endpoints), count, count);
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("the trainer job runs mlPolicy.numNodes pods (trainer.numNodes needs an ML plugin) under the "
                + "TrainJob's name as subdomain",
            List.of(), "runtime/torch-distributed.yaml",
            Map.of("node", Synced.of(2, "alpha-node-0-0.alpha", "alpha-node-0-1.alpha"))),
        Arguments.of("network.subdomain names the endpoints and every replica of a job has its own pods",
            List.of(), "runtime/endpoints.yaml",
            Map.of(
                "launcher", Synced.of(1, "alpha-launcher-0-0.training"),
                "node", Synced.of(3, "alpha-node-0-0.training", "alpha-node-0-1.training",
                    "alpha-node-0-2.training"),
                "worker", Synced.of(1, "alpha-worker-0-0.training", "alpha-worker-1-0.training"))),
        Arguments.of("a count set by an earlier plugin becomes the job's parallelism and completions",
            List.of(new TestingMLPolicyPlugin()), "runtime/torch-distributed.yaml",
            Map.of("node", Synced.of(3, "alpha-node-0-0.alpha", "alpha-node-0-1.alpha", "alpha-node-0-2.alpha"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncsEndpointsAndCounts(String name, List<Plugin> otherPlugins, String runtimePath,
      Map<String, Synced> expected) {
    List<Plugin> plugins = new ArrayList<>(otherPlugins);
    plugins.add(new JobSetPlugin());

    RuntimeInfo info = TestPipeline.of(plugins)
        .build(Fixtures.runtime(Fixtures.resource(runtimePath)),
            Fixtures.trainJob(Fixtures.resource("trainjob/torch-override.yaml")))
        .info();

    Map<String, Synced> actual = new LinkedHashMap<>();
    for (ReplicatedJob job : info.template().getReplicatedJobs()) {
      PodSet podSet = info.podSet(job.getName()).orElseThrow();
      var spec = job.getTemplate().getSpec();
      actual.put(job.getName(), new Synced(podSet.endpoints(), spec.getParallelism(), spec.getCompletions()));
    }
    assertThat(actual).isEqualTo(expected);
  }
}
