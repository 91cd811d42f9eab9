package io.kftrainer.e2e.docs;

// The test example of docs/writing-plugins.md ("Testing"), run as a test; WritingPluginsDocTest keeps them equal.
// tag::test[]
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import org.junit.jupiter.api.Test;

/** The plugin on an MPI runtime, through the JobSet plugin, as the operator would build it. */
class TeamNodesPluginTest {

  // the built-in JobSet plugin (test scope) turns the runtime info into the JobSet the operator would create
  private static final TestPipeline PIPELINE = TestPipeline.of(new TeamNodesPlugin(), new JobSetPlugin());

  private static final TrainJob TRAINJOB = Fixtures.trainJob("""
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata: {name: pool-test, namespace: team-a}
      spec:
        runtimeRef: {name: deepspeed-distributed}
        trainer: {numNodes: 3}
      """);

  @Test
  void everyTrainerPodOfAnMpiRuntimeRunsInThePool() {
    RuntimeSource deepspeed = Fixtures.shippedRuntime("deepspeed-distributed");

    JobSet jobSet = (JobSet) PIPELINE.objects(deepspeed, TRAINJOB).get(0);

    // MPI: the launcher and the node pods are trainer pods
    for (ReplicatedJob job : jobSet.getSpec().getReplicatedJobs()) {
      PodSpec pod = job.getTemplate().getSpec().getTemplate().getSpec();
      assertThat(pod.getNodeSelector()).containsEntry("example.com/pool", "training");
      assertThat(pod.getContainers().get(0).getEnv()).contains(new EnvVar("NODE_POOL", "training", null));
    }
    assertThat(jobSet.getSpec().getReplicatedJobs()).extracting(ReplicatedJob::getName)
        .containsExactlyInAnyOrder("launcher", "node");
  }

  @Test
  void theTrainJobIsLeftUnchanged() {
    TrainJob before = Fixtures.serialization().clone(TRAINJOB);

    PIPELINE.build(Fixtures.shippedRuntime("deepspeed-distributed"), TRAINJOB);

    assertThat(TRAINJOB).isEqualTo(before);
  }
}
// end::test[]
