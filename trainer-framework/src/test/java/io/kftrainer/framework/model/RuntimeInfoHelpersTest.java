package io.kftrainer.framework.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.MPIMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.Yamls;
import io.kftrainer.framework.runner.PhaseRunner;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuntimeInfoHelpersTest {

  @Test
  void numNodesIsTheTrainJobsThenThePolicysThenTheTrainerPodSetCount() {
    MLPolicy policy = new MLPolicy();
    policy.setNumNodes(3);

    assertThat(info(policy, trainerPodSet(5)).numNodes(trainJob(2))).isEqualTo(2);
    assertThat(info(policy, trainerPodSet(5)).numNodes(trainJob(null))).isEqualTo(3);
    assertThat(info(null, trainerPodSet(5)).numNodes(trainJob(null))).isEqualTo(5);
    assertThat(info(null, podSet("other", null, 5)).numNodes(trainJob(null))).isEqualTo(1);
  }

  @Test
  void trainerPodSetsAreTheTrainerAncestorAndForMpiAlsoTheUnlabelledWorkers() {
    PodSet initializer = podSet("dataset-initializer", "dataset-initializer", 1);
    PodSet launcher = podSet("launcher", "trainer", 1);
    PodSet node = podSet("node", null, 2);
    MLPolicy mpi = new MLPolicy();
    mpi.setMpi(new MPIMLPolicySource());

    assertThat(info(mpi, initializer, launcher, node).trainerPodSets()).containsExactly(launcher, node);
    assertThat(info(null, initializer, launcher, node).trainerPodSets()).containsExactly(launcher);
  }

  @Test
  void updateTrainerPodSetsChangesEveryContainerOfEachTrainerPodSetOnly() {
    PodSet initializer = podSet("dataset-initializer", "dataset-initializer", 1);
    RuntimeInfo info = info(null, initializer, trainerPodSet(1));
    EnvVar env = new EnvVar("TEAM", "vision", null);

    info.updateTrainerPodSets(ps -> ps.withEveryContainer(c -> c.withEnvUpserted(List.of(env))));

    assertThat(info.podSet("node").orElseThrow().containers())
        .allSatisfy(c -> assertThat(c.env()).containsExactly(env)).hasSize(2);
    assertThat(info.podSet("dataset-initializer").orElseThrow()).isEqualTo(initializer);
  }

  @Test
  void podSpecIsTheLiveObjectOfTheTemplateThatBuildersCopy() {
    ClusterTrainingRuntime runtime = Yamls.load("torch-runtime.yaml", ClusterTrainingRuntime.class);
    TrainJob trainJob = Yamls.load("trainjob-with-patches.yaml", TrainJob.class);
    RuntimeInfo info = new PhaseRunner(List.of()).newRuntimeInfo(RuntimeSource.of(runtime), trainJob);

    info.podSpec("node").orElseThrow().setPriorityClassName("high");

    PodSpec templatePod = info.template().getReplicatedJobs().get(1).getTemplate().getSpec().getTemplate().getSpec();
    assertThat(templatePod.getPriorityClassName()).isEqualTo("high");
    assertThat(info.podTemplate("node").orElseThrow().getSpec()).isSameAs(templatePod);
    assertThat(info.podSpec("no-such-job")).isEmpty();
  }

  private static PodSet trainerPodSet(int count) {
    return PodSet.copyOf(podSet("node", "trainer", count)).withContainers(
        ContainerInfo.builder().name("node").build(), ContainerInfo.builder().name("sidecar").build());
  }

  private static PodSet podSet(String name, String ancestor, int count) {
    return PodSet.builder().name(name).ancestor(java.util.Optional.ofNullable(ancestor)).count(count).build();
  }

  private static RuntimeInfo info(MLPolicy policy, PodSet... podSets) {
    return new RuntimeInfo(null, Map.of(), Map.of(), policy, null, new JobSetSpec(), List.of(podSets));
  }

  private static TrainJob trainJob(Integer numNodes) {
    Trainer trainer = new Trainer();
    trainer.setNumNodes(numNodes);
    TrainJobSpec spec = new TrainJobSpec();
    spec.setTrainer(trainer);
    TrainJob trainJob = new TrainJob();
    trainJob.setSpec(spec);
    return trainJob;
  }
}
