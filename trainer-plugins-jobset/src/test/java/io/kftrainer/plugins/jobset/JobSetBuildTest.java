package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.BuildResult;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobSetBuildTest {

  static Stream<Arguments> goldenCases() {
    return Stream.of(
        Arguments.of("trainer image, command, args and env override the runtime; counts come from mlPolicy.numNodes",
            List.of(), "runtime/torch-distributed.yaml", "trainjob/torch-override.yaml",
            "golden/torch-override.yaml"),
        Arguments.of("initializer jobs get the storage URI, env and secret of the TrainJob's initializers",
            List.of(), "runtime/initializers.yaml", "trainjob/initializers.yaml", "golden/initializers.yaml"),
        Arguments.of("runtime patches are merged into the replicated jobs of the same name",
            List.of(), "runtime/sidecar.yaml", "trainjob/runtime-patches.yaml", "golden/runtime-patches.yaml"),
        Arguments.of("scheduler pod labels and annotations are added to every pod template",
            List.of(new TestingPodGroupPlugin()), "runtime/initializers.yaml", "trainjob/initializers.yaml",
            "golden/scheduler-pod-metadata.yaml"),
        Arguments.of("pod set env, ports, volumes, init containers, count and a plugin's command reach the JobSet",
            List.of(new TestingMLPolicyPlugin()), "runtime/torch-distributed.yaml", "trainjob/torch-override.yaml",
            "golden/pod-set-merge.yaml"),
        Arguments.of("with MPI running the launcher as a node, trainer env reaches job node, the image only the "
                + "launcher", List.of(), "runtime/mpi-launcher-as-node.yaml", "trainjob/mpi-env.yaml",
            "golden/mpi-launcher-as-node.yaml"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenCases")
  void buildsTheJobSet(String name, List<Plugin> otherPlugins, String runtimePath, String trainJobPath,
      String goldenPath) {
    RuntimeSource runtime = runtime(runtimePath);
    TrainJob trainJob = trainJob(trainJobPath);

    BuildResult result = pipeline(otherPlugins).build(runtime, trainJob);

    Golden.assertMatches(result.objects(), goldenPath);
    assertThat(trainJob).isEqualTo(trainJob(trainJobPath));
  }

  @Test
  void buildingLeavesTheRuntimeInfoTemplateAsThePreBuildSyncLeftIt() {
    RuntimeSource runtime = runtime("runtime/initializers.yaml");
    TrainJob trainJob = trainJob("trainjob/initializers.yaml");
    TestPipeline pipeline = TestPipeline.of(new JobSetPlugin());
    var context = pipeline.context(runtime, trainJob);
    new JobSetPlugin().preBuildSync(context);
    String templateBefore = Yaml.dump(context.info().template());

    new JobSetPlugin().build(context);

    assertThat(Yaml.dump(context.info().template())).isEqualTo(templateBefore);
  }

  static Stream<Arguments> existingJobSetCases() {
    return Stream.of(
        Arguments.of("a running JobSet of a running TrainJob is left alone", false, false, false),
        Arguments.of("a suspended TrainJob's JobSet is rebuilt", true, false, true),
        Arguments.of("a suspended JobSet of a resumed TrainJob is rebuilt", false, true, true),
        Arguments.of("a suspended JobSet of a suspended TrainJob is rebuilt", true, true, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("existingJobSetCases")
  void rebuildsAnExistingJobSetOnlyWhileSuspended(String name, boolean trainJobSuspended, boolean jobSetSuspended,
      boolean built) {
    TrainJob trainJob = trainJob("trainjob/torch-override.yaml");
    trainJob.getSpec().setSuspend(trainJobSuspended);
    JobSet existing = existingJobSet(trainJob, jobSetSuspended);

    List<HasMetadata> objects = TestPipeline.of(new JobSetPlugin()).withCluster(existing)
        .objects(runtime("runtime/torch-distributed.yaml"), trainJob);

    assertThat(objects).hasSize(built ? 1 : 0);
    if (built) {
      JobSet jobSet = (JobSet) objects.get(0);
      assertThat(jobSet.getSpec().getSuspend()).isEqualTo(trainJobSuspended);
    }
  }

  @Test
  void aJobSetOfAnotherNameDoesNotStopTheBuild() {
    TrainJob trainJob = trainJob("trainjob/torch-override.yaml");
    JobSet other = existingJobSet(trainJob, false);
    other.getMetadata().setName("other");

    List<HasMetadata> objects = TestPipeline.of(new JobSetPlugin()).withCluster(other)
        .objects(runtime("runtime/torch-distributed.yaml"), trainJob);

    assertThat(objects).singleElement().isInstanceOf(JobSet.class);
  }

  private static JobSet existingJobSet(TrainJob trainJob, boolean suspended) {
    return (JobSet) Fixtures.object("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata:
          name: %s
          namespace: %s
        spec:
          suspend: %s
        """.formatted(trainJob.getMetadata().getName(), trainJob.getMetadata().getNamespace(), suspended));
  }

  private static TestPipeline pipeline(List<Plugin> otherPlugins) {
    List<Plugin> plugins = new ArrayList<>(otherPlugins);
    plugins.add(new JobSetPlugin());
    return TestPipeline.of(plugins);
  }

  private static RuntimeSource runtime(String path) {
    return Fixtures.runtime(Fixtures.resource(path));
  }

  private static TrainJob trainJob(String path) {
    return Fixtures.trainJob(Fixtures.resource(path));
  }
}
