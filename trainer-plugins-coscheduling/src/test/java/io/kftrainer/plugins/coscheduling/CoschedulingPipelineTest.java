package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.plugins.coscheduling.model.PodGroup;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CoScheduling with the JobSet plugin, as the operator runs them: the PodGroup and the JobSet whose pods join it. */
class CoschedulingPipelineTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new CoschedulingPlugin(), new JobSetPlugin());

  @Test
  void buildsThePodGroupAndLabelsEveryPodTemplateOfTheJobSet() {
    TrainJob trainJob = trainJob(false);
    JsonNode before = Yaml.tree(trainJob);

    List<HasMetadata> objects = PIPELINE.objects(runtime(), trainJob);

    Golden.assertMatches(objects, "golden/pipeline-coscheduling.yaml");
    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("PodGroup", "JobSet");
    JobSet jobSet = (JobSet) objects.get(1);
    assertThat(jobSet.getSpec().getReplicatedJobs()).extracting(ReplicatedJob::getName)
        .containsExactly("dataset-initializer", "node");
    assertThat(jobSet.getSpec().getReplicatedJobs()).allSatisfy(job ->
        assertThat(job.getTemplate().getSpec().getTemplate().getMetadata().getLabels())
            .containsEntry("scheduling.x-k8s.io/pod-group", "gang-job"));
    assertThat(Yaml.tree(trainJob)).isEqualTo(before);
  }

  @Test
  void anExistingPodGroupOfARunningTrainJobIsNotRebuiltButItsPodsStillJoinIt() {
    List<HasMetadata> objects = PIPELINE.withCluster(existingPodGroup()).objects(runtime(), trainJob(false));

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("JobSet");
    assertThat(((JobSet) objects.get(0)).getSpec().getReplicatedJobs()).allSatisfy(job ->
        assertThat(job.getTemplate().getSpec().getTemplate().getMetadata().getLabels())
            .containsEntry("scheduling.x-k8s.io/pod-group", "gang-job"));
  }

  @Test
  void anExistingPodGroupOfASuspendedTrainJobIsRebuilt() {
    List<HasMetadata> objects = PIPELINE.withCluster(existingPodGroup()).objects(runtime(), trainJob(true));

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("PodGroup", "JobSet");
    assertThat(((PodGroup) objects.get(0)).getSpec().getMinMember()).isEqualTo(3);
    assertThat(((JobSet) objects.get(1)).getSpec().getSuspend()).isTrue();
  }

  private static RuntimeSource runtime() {
    return Fixtures.runtime(Fixtures.resource("coscheduling/runtime.yaml"));
  }

  private static TrainJob trainJob(boolean suspended) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("coscheduling/trainjob.yaml"));
    trainJob.getSpec().setSuspend(suspended);
    return trainJob;
  }

  private static PodGroup existingPodGroup() {
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("gang-job");
    podGroup.getMetadata().setNamespace("team-a");
    return podGroup;
  }
}
