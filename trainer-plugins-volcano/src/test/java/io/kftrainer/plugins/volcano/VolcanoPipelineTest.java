package io.kftrainer.plugins.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.plugins.volcano.model.PodGroup;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Volcano with the JobSet plugin, as the operator runs them: the PodGroup and the JobSet whose pods join it. */
class VolcanoPipelineTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new VolcanoPlugin(), new JobSetPlugin());

  @Test
  void buildsThePodGroupAndAnnotatesEveryPodTemplateOfTheJobSet() {
    TrainJob trainJob = trainJob(false);
    JsonNode before = Yaml.tree(trainJob);

    List<HasMetadata> objects = PIPELINE.objects(runtime(), trainJob);

    Golden.assertMatches(objects, "golden/pipeline-volcano.yaml");
    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("PodGroup", "JobSet");
    JobSet jobSet = (JobSet) objects.get(1);
    assertThat(jobSet.getSpec().getReplicatedJobs()).extracting(ReplicatedJob::getName)
        .containsExactly("launcher", "node");
    assertThat(jobSet.getSpec().getReplicatedJobs()).allSatisfy(job ->
        assertThat(job.getTemplate().getSpec().getTemplate().getMetadata().getAnnotations())
            .containsEntry("scheduling.k8s.io/group-name", "volcano-job"));
    assertThat(Yaml.tree(trainJob)).isEqualTo(before);
  }

  @Test
  void anExistingPodGroupOfARunningTrainJobIsNotRebuilt() {
    List<HasMetadata> objects = PIPELINE.withCluster(existingPodGroup()).objects(runtime(), trainJob(false));

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("JobSet");
  }

  @Test
  void anExistingPodGroupOfASuspendedTrainJobIsRebuilt() {
    List<HasMetadata> objects = PIPELINE.withCluster(existingPodGroup()).objects(runtime(), trainJob(true));

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("PodGroup", "JobSet");
    assertThat(((PodGroup) objects.get(0)).getSpec().getQueue()).isEqualTo("q1");
  }

  @Test
  void validationOfTheWholePipelineReportsTheMissingPriorityClass() {
    ValidationResult missing = PIPELINE.validate(runtime(), trainJob(false));
    ValidationResult present = PIPELINE.withCluster(new PriorityClassBuilder().withNewMetadata()
        .withName("high-priority").endMetadata().withValue(1000).build()).validate(runtime(), trainJob(false));

    assertThat(missing.errors()).extracting(Object::toString).containsExactly(
        "spec.templateSpec.priorityClassName: PriorityClass \"high-priority\" doesn't exist: "
            + "priorityclasses.scheduling.k8s.io \"high-priority\" not found");
    assertThat(present.errors()).isEmpty();
  }

  private static RuntimeSource runtime() {
    return Fixtures.runtime(Fixtures.resource("volcano/runtime.yaml"));
  }

  private static TrainJob trainJob(boolean suspended) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("volcano/trainjob.yaml"));
    trainJob.getSpec().setSuspend(suspended);
    return trainJob;
  }

  private static PodGroup existingPodGroup() {
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("volcano-job");
    podGroup.getMetadata().setNamespace("team-a");
    return podGroup;
  }
}
