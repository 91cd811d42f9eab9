package io.kftrainer.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.runner.BuildOutcome;
import io.kftrainer.framework.runner.BuildResult;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PostExecutionResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Plugin;
import java.time.Instant;
import java.util.List;

/**
 * The framework's phase runner over the plugins under test, on plain objects. Run the whole pipeline
 * ({@link #build}, {@link #validate}, {@link #postExecution}) or one build step of one plugin on a runtime info
 * ({@link #context}).
 *
 * <pre>{@code
 * TestPipeline pipeline = TestPipeline.of(new TorchPlugin(), new JobSetPlugin());
 * BuildResult result = pipeline.build(Fixtures.runtime(runtimeYaml), Fixtures.trainJob(trainJobYaml));
 * Golden.assertMatches(result.objects(), "golden/torch-4-gpus.yaml");
 * }</pre>
 */
public final class TestPipeline {

  private final PhaseRunner runner;
  private final ObjectLookup cluster;

  private TestPipeline(PhaseRunner runner, ObjectLookup cluster) {
    this.runner = runner;
    this.cluster = cluster;
  }

  public static TestPipeline of(Plugin... plugins) {
    return new TestPipeline(new PhaseRunner(List.of(plugins)), ObjectLookup.empty());
  }

  public static TestPipeline of(List<? extends Plugin> plugins) {
    return new TestPipeline(new PhaseRunner(plugins), ObjectLookup.empty());
  }

  /** The same pipeline, seeing these objects as already in the cluster. */
  public TestPipeline withCluster(HasMetadata... existing) {
    return new TestPipeline(runner, new InMemoryObjectLookup(List.of(existing)));
  }

  public PhaseRunner runner() {
    return runner;
  }

  public BuildResult build(RuntimeSource runtime, TrainJob trainJob) {
    return runner.runBuild(runtime, trainJob, cluster);
  }

  public List<HasMetadata> objects(RuntimeSource runtime, TrainJob trainJob) {
    return build(runtime, trainJob).objects();
  }

  public ValidationResult validate(RuntimeSource runtime, TrainJob trainJob) {
    return runner.runPreExecution(runtime, null, trainJob, cluster);
  }

  public ValidationResult validateUpdate(RuntimeSource runtime, TrainJob oldTrainJob, TrainJob newTrainJob) {
    return runner.runPreExecution(runtime, oldTrainJob, newTrainJob, cluster);
  }

  public PostExecutionResult postExecution(TrainJob trainJob, BuildOutcome outcome, Instant now) {
    return runner.runPostExecution(trainJob, outcome, cluster, now);
  }

  /** The runtime info a build starts from, before any plugin ran. */
  public RuntimeInfo initialInfo(RuntimeSource runtime, TrainJob trainJob) {
    return runner.newRuntimeInfo(runtime, trainJob);
  }

  /** A build context over the initial runtime info, to call one plugin's build step directly. */
  public BuildContext context(RuntimeSource runtime, TrainJob trainJob) {
    return new BuildContext(trainJob, initialInfo(runtime, trainJob), cluster);
  }
}
