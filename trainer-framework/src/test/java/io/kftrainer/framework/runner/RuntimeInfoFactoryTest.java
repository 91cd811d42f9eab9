package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.Yamls;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuntimeInfoFactoryTest {

  private final ClusterTrainingRuntime runtime = Yamls.load("torch-runtime.yaml", ClusterTrainingRuntime.class);
  private final TrainJob trainJob = Yamls.load("trainjob-with-patches.yaml", TrainJob.class);
  private final RuntimeInfo info = new PhaseRunner(List.of()).newRuntimeInfo(RuntimeSource.of(runtime), trainJob);

  @Test
  void labelsComeFromTheTemplateThenFromEachRuntimePatch() {
    assertThat(info.labels()).containsExactly(
        java.util.Map.entry("runtime-label", "from-runtime"), java.util.Map.entry("patched-label", "from-patch"));
  }

  @Test
  void runtimePatchesMergeByReplicatedJobAndContainerNameKeepingTheTemplateOrder() {
    assertThat(info.template().getReplicatedJobs()).extracting(ReplicatedJob::getName)
        .containsExactly("dataset-initializer", "node");
    PodSpec node = pod(info, "node");
    assertThat(node.getNodeSelector()).containsEntry("accelerator", "a100");
    assertThat(node.getTolerations()).singleElement().satisfies(t -> assertThat(t.getKey()).isEqualTo("gpu"));
    assertThat(node.getContainers()).extracting(Container::getName).containsExactly("node", "sidecar");
    assertThat(node.getContainers().get(1).getImage()).isEqualTo("busybox");
    assertThat(node.getContainers().get(1).getEnv()).extracting(EnvVar::getName).containsExactly("SIDECAR_MODE");
    assertThat(info.template().getReplicatedJobs().get(1).getTemplate().getSpec().getTemplate().getMetadata()
        .getLabels()).containsEntry("pod-label", "from-patch");
  }

  @Test
  void resourcesPerNodeMergeIntoTheTrainerNodeContainerPerResource() {
    Container node = pod(info, "node").getContainers().get(0);

    assertThat(node.getResources().getRequests()).containsOnly(
        java.util.Map.entry("cpu", new Quantity("4")),
        java.util.Map.entry("memory", new Quantity("1Gi")),
        java.util.Map.entry("nvidia.com/gpu", new Quantity("2")));
    assertThat(pod(info, "dataset-initializer").getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", new Quantity("500m"));
  }

  @Test
  void theRuntimeItselfIsNotChanged() {
    ClusterTrainingRuntime fresh = Yamls.load("torch-runtime.yaml", ClusterTrainingRuntime.class);

    assertThat(Yamls.json(runtime)).isEqualTo(Yamls.json(fresh));
  }

  @Test
  void onePodSetPerReplicatedJobWithAncestorAndCount() {
    assertThat(info.podSets()).extracting(PodSet::name, ps -> ps.ancestor().orElse(null), PodSet::count)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("dataset-initializer", "dataset-initializer", 1),
            org.assertj.core.groups.Tuple.tuple("node", "trainer", 2));
    assertThat(info.podSetByAncestor("trainer").orElseThrow().containers()).extracting(ContainerInfo::name)
        .containsExactly("node", "sidecar");
    assertThat(info.podSet("node").orElseThrow().container("node").orElseThrow().env())
        .extracting(EnvVar::getName).containsExactly("FROM_RUNTIME");
  }

  @Test
  void singlePodRequestsSumContainerRequestsAndCountTheLargestInitContainer() {
    assertThat(info.podSet("node").orElseThrow().singlePodRequests()).containsOnly(
        java.util.Map.entry("cpu", new Quantity("4")),
        java.util.Map.entry("memory", new Quantity("1", "Gi")),
        java.util.Map.entry("nvidia.com/gpu", new Quantity("2")));
    assertThat(info.podSet("dataset-initializer").orElseThrow().singlePodRequests()).containsOnly(
        java.util.Map.entry("cpu", new Quantity("2")),
        java.util.Map.entry("memory", new Quantity("512", "Mi")));
  }

  private static PodSpec pod(RuntimeInfo info, String job) {
    return info.template().getReplicatedJobs().stream().filter(j -> j.getName().equals(job)).findFirst()
        .orElseThrow().getTemplate().getSpec().getTemplate().getSpec();
  }
}
