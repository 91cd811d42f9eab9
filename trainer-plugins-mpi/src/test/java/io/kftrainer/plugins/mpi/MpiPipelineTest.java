package io.kftrainer.plugins.mpi;

import static io.kftrainer.plugins.mpi.MpiFixtures.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole build with the JobSet plugin, which computes the endpoints the host file lists and merges the pod sets
 * into the JobSet. Golden files show the Secret's data as {@value MpiFixtures#REDACTED}; the generated keys are
 * checked on their own.
 */
class MpiPipelineTest {

  private static final String TWO_NODES = "trainjob/two-nodes-eight-slots.yaml";

  private final TestPipeline pipeline = TestPipeline.of(new MPIPlugin(), new JobSetPlugin());

  static Stream<Arguments> goldenCases() {
    String tenNodes = IntStream.range(0, 9).mapToObj(i -> "test-job-node-0-" + i + ".test-job slots=1\n")
        .collect(Collectors.joining()) + "test-job-launcher-0-0.test-job slots=1\n";
    return Stream.of(
        Arguments.of("succeeded to build JobSet with OpenMPI values from the TrainJob",
            "runtime/openmpi.yaml", TWO_NODES, "golden/openmpi-two-nodes-eight-slots.yaml",
            "test-job-node-0-0.test-job slots=8\ntest-job-node-0-1.test-job slots=8\n"),
        Arguments.of("runLauncherAsNode with 10 nodes lists 9 node pods, then the launcher",
            "runtime/deepspeed.yaml", "trainjob/ten-nodes-with-env.yaml", "golden/deepspeed-ten-nodes.yaml",
            tenNodes),
        Arguments.of("5 custom.com/gpu per node make 5 slots",
            "runtime/openmpi.yaml", "trainjob/five-gpus.yaml", "golden/openmpi-five-gpus.yaml",
            "test-job-node-0-0.test-job slots=5\n"),
        Arguments.of("Intel MPI lists host:slots and sets I_MPI_* on the launcher",
            "runtime/intel.yaml", TWO_NODES, "golden/intel-two-nodes-eight-slots.yaml",
            "test-job-node-0-0.test-job:8\ntest-job-node-0-1.test-job:8\n"),
        Arguments.of("MPICH lists host:slots and sets HYDRA_* on the launcher",
            "runtime/mpich.yaml", TWO_NODES, "golden/mpich-two-nodes-eight-slots.yaml",
            "test-job-node-0-0.test-job:8\ntest-job-node-0-1.test-job:8\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenCases")
  void buildsSecretHostfileAndJobSet(String name, String runtimePath, String trainJobPath, String goldenPath,
      String expectedHostfile) {
    TrainJob trainJob = MpiFixtures.trainJob(trainJobPath);

    List<HasMetadata> objects = pipeline.objects(MpiFixtures.runtime(runtimePath), trainJob);

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("Secret", "ConfigMap", "JobSet");
    Golden.assertMatches(MpiFixtures.withKeysRedacted(objects), goldenPath);
    assertThat(MpiFixtures.configMap(objects).getData()).containsOnlyKeys("hostfile");
    assertThat(MpiFixtures.configMap(objects).getData().get("hostfile")).isEqualTo(expectedHostfile);
    assertThat(trainJob).isEqualTo(MpiFixtures.trainJob(trainJobPath));
  }

  @Test
  void launcherContainerNodeGetsTheSlotsAndMountsKeysAndHostfile() {
    List<HasMetadata> objects = pipeline.objects(MpiFixtures.runtime("runtime/openmpi.yaml"),
        MpiFixtures.trainJob(TWO_NODES));

    Container launcher = nodeContainer(MpiFixtures.jobSet(objects), "launcher");
    assertThat(launcher.getEnv()).contains(env("OMPI_MCA_orte_set_default_slots", "8"));
    assertThat(launcher.getVolumeMounts()).extracting(VolumeMount::getMountPath)
        .containsExactly("/root/.ssh", "/etc/mpi");
    assertThat(nodeContainer(MpiFixtures.jobSet(objects), "node").getVolumeMounts())
        .extracting(VolumeMount::getMountPath).containsExactly("/root/.ssh");
  }

  @Test
  void theSecretIsAnImmutableSshAuthSecretWithAFreshP521KeyPair() {
    List<HasMetadata> objects = pipeline.objects(MpiFixtures.runtime("runtime/openmpi.yaml"),
        MpiFixtures.trainJob(TWO_NODES));

    Secret secret = MpiFixtures.secret(objects);
    assertThat(secret.getMetadata().getName()).isEqualTo("test-job-mpi-ssh-auth");
    assertThat(secret.getType()).isEqualTo("kubernetes.io/ssh-auth");
    assertThat(secret.getImmutable()).isTrue();
    assertThat(secret.getData()).containsOnlyKeys("ssh-privatekey", "ssh-publickey");
    String privateKey = decode(secret, "ssh-privatekey");
    String publicKey = decode(secret, "ssh-publickey");
    assertThat(privateKey).startsWith(SshKeyAssertions.PEM_HEADER).endsWith(SshKeyAssertions.PEM_FOOTER);
    assertThat(publicKey).startsWith("ecdsa-sha2-nistp521 AAAA");
    SshKeyAssertions.assertMatchingPair(privateKey, publicKey);
  }

  @Test
  void everyTrainJobGetsItsOwnKeyPair() {
    RuntimeSource runtime = MpiFixtures.runtime("runtime/openmpi.yaml");

    Secret first = MpiFixtures.secret(pipeline.objects(runtime, MpiFixtures.trainJob(TWO_NODES)));
    Secret second = MpiFixtures.secret(pipeline.objects(runtime, MpiFixtures.trainJob(TWO_NODES)));

    assertThat(decode(second, "ssh-privatekey")).isNotEqualTo(decode(first, "ssh-privatekey"));
  }

  @Test
  void anExistingSecretIsNotRebuilt() {
    Secret existing = new SecretBuilder()
        .withNewMetadata().withName("test-job-mpi-ssh-auth").withNamespace("default").endMetadata()
        .withType("kubernetes.io/ssh-auth").withImmutable(true)
        .build();

    List<HasMetadata> objects = pipeline.withCluster(existing)
        .objects(MpiFixtures.runtime("runtime/openmpi.yaml"), MpiFixtures.trainJob(TWO_NODES));

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("ConfigMap", "JobSet");
  }

  @Test
  void aSecretOfTheSameNameInAnotherNamespaceDoesNotCount() {
    Secret elsewhere = new SecretBuilder()
        .withNewMetadata().withName("test-job-mpi-ssh-auth").withNamespace("other").endMetadata()
        .build();

    List<HasMetadata> objects = pipeline.withCluster(elsewhere)
        .objects(MpiFixtures.runtime("runtime/openmpi.yaml"), MpiFixtures.trainJob(TWO_NODES));

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("Secret", "ConfigMap", "JobSet");
  }

  @Test
  void theHostfileFollowsReplicatedJobOrderAndIncludesTheLauncherWhenItRunsAsNode() {
    RuntimeSource runtime = MpiFixtures.runtime("runtime/openmpi.yaml");
    runtime.spec().getMlPolicy().getMpi().setRunLauncherAsNode(true);
    MPIPlugin plugin = new MPIPlugin();
    BuildContext context = TestPipeline.of(plugin).context(runtime, MpiFixtures.trainJob(TWO_NODES));
    plugin.enforceMLPolicy(context);
    context.info().updatePodSet("launcher", ps -> ps.withEndpoints("trainJob-launcher-0-0.trainJob"));
    context.info().updatePodSet("node", ps -> ps.withEndpoints("trainJob-node-1-0.trainJob"));

    ConfigMap hostfile = MpiFixtures.configMap(plugin.build(context));

    assertThat(hostfile.getMetadata().getName()).isEqualTo("test-job-mpi-hostfile");
    assertThat(hostfile.getData().get("hostfile"))
        .isEqualTo("trainJob-launcher-0-0.trainJob slots=8\ntrainJob-node-1-0.trainJob slots=8\n");
  }

  private static Container nodeContainer(JobSet jobSet, String jobName) {
    ReplicatedJob job = jobSet.getSpec().getReplicatedJobs().stream()
        .filter(j -> j.getName().equals(jobName)).findFirst().orElseThrow();
    return job.getTemplate().getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals("node")).findFirst().orElseThrow();
  }

  private static String decode(Secret secret, String key) {
    return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.US_ASCII);
  }
}
