package com.example.trainer.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The plugin with the JobSet plugin, as the operator runs them: what reaches the JobSet. */
class TeamTolerationPluginTest {

  private static final RuntimeSource RUNTIME = Fixtures.runtime(Fixtures.resource("runtime.yaml"));
  private static final TestPipeline PIPELINE = TestPipeline.of(new TeamTolerationPlugin(), new JobSetPlugin());
  private static final Toleration GPU = toleration("nvidia.com/gpu", "Exists", null);

  @Test
  void theJobSetLabelsEveryPodWithTheTeamAndLetsTheTrainerOntoTheTeamsNodes() {
    TrainJob trainJob = trainJob("trainjob.yaml", "vision");
    JsonNode trainJobBefore = Yaml.tree(trainJob);
    JsonNode runtimeBefore = Yaml.tree(RUNTIME.spec());

    List<HasMetadata> objects = PIPELINE.objects(RUNTIME, trainJob);

    Golden.assertMatches(objects, "golden/team-vision.yaml");
    assertThat(Yaml.tree(trainJob)).isEqualTo(trainJobBefore);
    assertThat(Yaml.tree(RUNTIME.spec())).isEqualTo(runtimeBefore);
  }

  static Stream<Arguments> tolerations() {
    return Stream.of(
        arguments("a team's trainer pods tolerate the taint of the team's nodes",
            "trainjob.yaml", "vision", List.of(dedicated("vision"))),
        arguments("a toleration a runtime patch already set is not added twice",
            "trainjob-patched.yaml", "vision", List.of(GPU, dedicated("vision"))),
        arguments("tolerations from runtime patches are kept before the team's",
            "trainjob-patched.yaml", "speech", List.of(GPU, dedicated("vision"), dedicated("speech"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tolerations")
  void trainerTolerations(String name, String trainJobFile, String team, List<Toleration> expected) {
    JobSet jobSet = (JobSet) PIPELINE.objects(RUNTIME, trainJob(trainJobFile, team)).get(0);

    assertThat(pod(jobSet, "node").getSpec().getTolerations()).containsExactlyElementsOf(expected);
    assertThat(pod(jobSet, "dataset-initializer").getSpec().getTolerations()).isNullOrEmpty();
    assertThat(List.of(pod(jobSet, "node"), pod(jobSet, "dataset-initializer")))
        .allSatisfy(pod -> assertThat(pod.getMetadata().getLabels())
            .containsEntry(TeamTolerationPlugin.POD_LABEL, team));
  }

  @Test
  void aTrainJobWithoutATeamGetsTheSameJobSetAsWithoutThePlugin() {
    TrainJob trainJob = trainJob("trainjob.yaml", null);

    List<HasMetadata> withPlugin = PIPELINE.objects(RUNTIME, trainJob);
    List<HasMetadata> withoutPlugin = TestPipeline.of(new JobSetPlugin()).objects(RUNTIME, trainJob);

    assertThat(withPlugin).extracting(Yaml::tree).containsExactlyElementsOf(
        withoutPlugin.stream().map(Yaml::tree).toList());
  }

  @Test
  void onItsOwnThePluginChangesOnlyTheRuntimeInfo() {
    BuildContext context = PIPELINE.context(RUNTIME, trainJob("trainjob.yaml", "vision"));

    new TeamTolerationPlugin().enforcePodSpec(context);

    assertThat(context.info().schedulerPodLabels())
        .containsExactly(Map.entry(TeamTolerationPlugin.POD_LABEL, "vision"));
    assertThat(context.info().podSpec("node").orElseThrow().getTolerations())
        .containsExactly(dedicated("vision"));
    assertThat(context.info().podSpec("dataset-initializer").orElseThrow().getTolerations())
        .isNullOrEmpty();
  }

  private static TrainJob trainJob(String file, String team) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource(file));
    Map<String, String> labels = new HashMap<>(trainJob.getMetadata().getLabels());
    labels.remove(TeamLabel.KEY);
    if (team != null) {
      labels.put(TeamLabel.KEY, team);
    }
    trainJob.getMetadata().setLabels(labels);
    return trainJob;
  }

  private static PodTemplateSpec pod(JobSet jobSet, String jobName) {
    return jobSet.getSpec().getReplicatedJobs().stream()
        .filter(job -> job.getName().equals(jobName))
        .findFirst()
        .orElseThrow()
        .getTemplate().getSpec().getTemplate();
  }

  private static Toleration dedicated(String team) {
    return toleration(TeamTolerationPlugin.TAINT_KEY, "Equal", team);
  }

  private static Toleration toleration(String key, String operator, String value) {
    Toleration toleration = new Toleration();
    toleration.setKey(key);
    toleration.setOperator(operator);
    toleration.setValue(value);
    toleration.setEffect("NoSchedule");
    return toleration;
  }
}
