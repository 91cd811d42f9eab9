package io.kftrainer.e2e.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.TrainJobs;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A TrainJob created through the API gets its children from the operator: the JobSet (torch env, node count),
 * the MPI SSH Secret and hostfile ConfigMap, the coscheduling PodGroup, each controlled by the TrainJob and
 * labelled with its name; and the TrainJob gets no condition and no Event, as upstream.
 */
@ExtendWith(SharedLocalOperator.class)
class TrainJobChildrenTest {

  private static LocalOperator operator;
  private static KubernetesClient client;
  private TrainJobs trainJobs;

  @BeforeAll
  static void connect(LocalOperator local) {
    operator = local;
    client = local.client();
  }

  @BeforeEach
  void namespace() {
    trainJobs = new TrainJobs(client, operator.createNamespace("children"));
  }

  @Test
  void torchTrainJobGetsItsJobSetAndNoCondition() {
    trainJobs.create(Manifests.resource("manifests/torch-trainjob.yaml", "llama"));

    TrainJob trainJob = trainJobs.awaitJobSet("llama");

    assertThat(trainJob.getStatus() == null ? null : trainJob.getStatus().getConditions()).isNullOrEmpty();
    JobSet jobSet = trainJobs.jobSet("llama");
    assertControlledBy(jobSet, trainJob);
    assertThat(jobSet.getSpec().getSuspend()).isFalse();
    assertThat(jobSet.getSpec().getReplicatedJobs()).extracting(ReplicatedJob::getName).containsExactly("node");
    ReplicatedJob node = jobSet.getSpec().getReplicatedJobs().get(0);
    assertThat(node.getReplicas()).isEqualTo(1);
    assertThat(node.getTemplate().getSpec().getParallelism()).isEqualTo(2);
    assertThat(node.getTemplate().getSpec().getCompletions()).isEqualTo(2);
    Container container = node.getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getCommand()).containsExactly("torchrun", "train.py");
    assertThat(container.getEnv()).extracting(EnvVar::getName, EnvVar::getValue).containsExactly(
        tuple("EPOCHS", "3"),
        tuple("PET_NNODES", "2"),
        tuple("PET_NPROC_PER_NODE", "2"),
        tuple("PET_NODE_RANK", null),
        tuple("PET_MASTER_ADDR", "llama-node-0-0.llama"),
        tuple("PET_MASTER_PORT", "29500"));
    assertThat(container.getEnv().get(3).getValueFrom().getFieldRef().getFieldPath())
        .isEqualTo("metadata.annotations['batch.kubernetes.io/job-completion-index']");
    assertThat(trainJobs.events("llama")).isEmpty();
  }

  @Test
  void mpiTrainJobGetsItsSshSecretAndHostfile() {
    trainJobs.create(Manifests.resource("manifests/mpi-trainjob.yaml", "deepspeed"));

    TrainJob trainJob = trainJobs.awaitJobSet("deepspeed");

    Secret ssh = trainJobs.awaitChild("Secret deepspeed-mpi-ssh-auth",
        () -> client.secrets().inNamespace(trainJobs.namespace()).withName("deepspeed-mpi-ssh-auth").get());
    assertControlledBy(ssh, trainJob);
    assertThat(ssh.getType()).isEqualTo("kubernetes.io/ssh-auth");
    assertThat(ssh.getImmutable()).isTrue();
    assertThat(ssh.getData()).containsOnlyKeys("ssh-privatekey", "ssh-publickey");
    assertThat(decoded(ssh, "ssh-privatekey")).startsWith("-----BEGIN EC PRIVATE KEY-----");
    assertThat(decoded(ssh, "ssh-publickey")).startsWith("ecdsa-sha2-nistp521 ");
    ConfigMap hostfile = trainJobs.awaitChild("ConfigMap deepspeed-mpi-hostfile",
        () -> client.configMaps().inNamespace(trainJobs.namespace()).withName("deepspeed-mpi-hostfile").get());
    assertControlledBy(hostfile, trainJob);
    assertThat(hostfile.getData()).containsExactly(Map.entry("hostfile", """
        deepspeed-node-0-0.deepspeed slots=2
        deepspeed-node-0-1.deepspeed slots=2
        deepspeed-launcher-0-0.deepspeed slots=2
        """));
    JobSet jobSet = trainJobs.jobSet("deepspeed");
    assertControlledBy(jobSet, trainJob);
    assertThat(jobSet.getSpec().getReplicatedJobs())
        .extracting(ReplicatedJob::getName, job -> job.getTemplate().getSpec().getParallelism())
        .containsExactly(tuple("node", 2), tuple("launcher", 1));
    Container launcher = jobSet.getSpec().getReplicatedJobs().get(1).getTemplate().getSpec().getTemplate().getSpec()
        .getContainers().get(0);
    assertThat(launcher.getEnv()).extracting(EnvVar::getName, EnvVar::getValue).contains(
        tuple("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"),
        tuple("OMPI_MCA_orte_set_default_slots", "2"));
  }

  @Test
  void coschedulingRuntimeGivesOnePodGroupForAllPods() {
    trainJobs.create(List.of(Manifests.resource("manifests/coscheduling-runtime.yaml", "torch-gang"),
        Manifests.resource("manifests/coscheduling-trainjob.yaml", "gang")));

    TrainJob trainJob = trainJobs.awaitJobSet("gang");

    List<GenericKubernetesResource> podGroups = trainJobs.awaitChild("PodGroup gang", () -> {
      List<GenericKubernetesResource> found = trainJobs.children("scheduling.x-k8s.io/v1alpha1", "PodGroup", "gang");
      return found.isEmpty() ? null : found;
    });
    assertThat(podGroups).hasSize(1);
    GenericKubernetesResource podGroup = podGroups.get(0);
    assertThat(podGroup.getMetadata().getName()).isEqualTo("gang");
    assertControlledBy(podGroup, trainJob);
    assertThat(podGroup.<Integer>get("spec", "minMember")).isEqualTo(3);
    assertThat(podGroup.<Map<String, Object>>get("spec", "minResources"))
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "1500m", "memory", "3Gi"));
    assertThat(podGroup.<Integer>get("spec", "scheduleTimeoutSeconds")).isEqualTo(90);
    JobSet jobSet = trainJobs.jobSet("gang");
    assertThat(jobSet.getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getMetadata()
        .getLabels()).containsEntry("scheduling.x-k8s.io/pod-group", "gang");
  }

  private static void assertControlledBy(HasMetadata child, TrainJob trainJob) {
    assertThat(child).as("child of %s", trainJob.getMetadata().getName()).isNotNull();
    assertThat(child.getMetadata().getLabels())
        .containsEntry(TrainJobs.TRAINJOB_NAME_LABEL, trainJob.getMetadata().getName());
    assertThat(child.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getApiVersion()).isEqualTo("trainer.kubeflow.org/v1alpha1");
      assertThat(owner.getKind()).isEqualTo("TrainJob");
      assertThat(owner.getName()).isEqualTo(trainJob.getMetadata().getName());
      assertThat(owner.getUid()).isEqualTo(trainJob.getMetadata().getUid());
      assertThat(owner.getController()).isTrue();
      assertThat(owner.getBlockOwnerDeletion()).isTrue();
    });
  }

  private static String decoded(Secret secret, String key) {
    return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }
}
