package io.kftrainer.plugins.mpi;

import static io.kftrainer.plugins.mpi.MpiFixtures.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.testkit.TestPipeline;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MpiEnforceMLPolicyTest {

  private static final String OPENMPI = "runtime/openmpi.yaml";
  private static final String DEEPSPEED = "runtime/deepspeed.yaml";
  private static final String TWO_NODES = "trainjob/two-nodes-eight-slots.yaml";
  private static final String TEN_NODES = "trainjob/ten-nodes-with-env.yaml";

  private final MPIPlugin plugin = new MPIPlugin();

  static Stream<Arguments> nodeCounts() {
    return Stream.of(
        Arguments.of("trainJob numNodes is respected rather than mlPolicy one", OPENMPI, 2, 2),
        Arguments.of("mlPolicy numNodes is used when the trainJob sets none", OPENMPI, null, 1),
        Arguments.of("runLauncherAsNode leaves one of 10 nodes to the launcher", DEEPSPEED, 10, 9),
        Arguments.of("runLauncherAsNode with 2 nodes runs 1 node pod", DEEPSPEED, 2, 1),
        Arguments.of("runLauncherAsNode with 1 node still runs 1 node pod", DEEPSPEED, 1, 1),
        Arguments.of("runLauncherAsNode applies to mlPolicy numNodes too", DEEPSPEED, null, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCounts")
  void setsTheNodeCount(String name, String runtimePath, Integer numNodes, int expectedCount) {
    TrainJob trainJob = MpiFixtures.trainJob(TWO_NODES);
    trainJob.getSpec().getTrainer().setNumNodes(numNodes);

    RuntimeInfo info = enforce(MpiFixtures.runtime(runtimePath), trainJob);

    assertThat(info.podSet(MPIPlugin.NODE).orElseThrow().count()).isEqualTo(expectedCount);
    assertThat(info.podSet(MPIPlugin.LAUNCHER).orElseThrow().count()).as("launcher count").isEqualTo(1);
  }

  @Test
  void theLauncherIsOnePodWhenTheRuntimesPolicySetsTheNodes() {
    // The launcher carries the trainer ancestor label, so the runtime's numNodes first counts launcher pods too
    // (upstream keeps that count: two launchers would each run mpirun).
    RuntimeSource runtime = MpiFixtures.runtime(DEEPSPEED);
    runtime.spec().getMlPolicy().setNumNodes(3);
    TrainJob trainJob = MpiFixtures.trainJob(TWO_NODES);
    trainJob.getSpec().getTrainer().setNumNodes(null);

    RuntimeInfo info = enforce(runtime, trainJob);

    assertThat(info.podSet(MPIPlugin.LAUNCHER).orElseThrow().count()).as("launcher count").isEqualTo(1);
    assertThat(info.podSet(MPIPlugin.NODE).orElseThrow().count()).as("node count").isEqualTo(2);
  }

  static Stream<Arguments> slots() {
    return Stream.of(
        Arguments.of("trainJob numProcPerNode is respected rather than mlPolicy one",
            change(tj -> trainer(tj).setNumProcPerNode(new IntOrString(2))), noChange(), "2"),
        Arguments.of("mlPolicy numProcPerNode is used when the trainJob sets none",
            noChange(), policyNumProcPerNode(3), "3"),
        Arguments.of("numProcPerNode is set to number of GPUs in TrainJob",
            change(tj -> resources(tj, requests("custom.com/gpu", "5"))), noChange(), "5"),
        Arguments.of("numProcPerNode is set to number of GPUs of the runtime's node container",
            noChange(), runtimeResources(limits("nvidia.com/gpu", "4")), "4"),
        Arguments.of("trainJob resourcesPerNode replace the runtime's, GPUs included",
            change(tj -> resources(tj, requests("cpu", "8"))), runtimeResources(limits("nvidia.com/gpu", "4")), "1"),
        Arguments.of("GPU requests come before GPU limits",
            change(tj -> resources(tj, new ResourceRequirementsBuilder()
                .withRequests(Map.of("nvidia.com/gpu", new Quantity("2")))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity("4"))).build())), noChange(), "2"),
        Arguments.of("a fractional GPU count rounds up",
            change(tj -> resources(tj, requests("example.com/GPU", "1500m"))), noChange(), "2"),
        Arguments.of("one GPU keeps one slot",
            change(tj -> resources(tj, requests("nvidia.com/gpu", "1"))), noChange(), "1"),
        Arguments.of("mlPolicy numProcPerNode other than 1 is not replaced by GPUs",
            change(tj -> resources(tj, requests("nvidia.com/gpu", "8"))), policyNumProcPerNode(2), "2"),
        Arguments.of("an explicit trainJob numProcPerNode of 1 is not replaced by GPUs",
            change(tj -> {
              trainer(tj).setNumProcPerNode(new IntOrString(1));
              resources(tj, requests("nvidia.com/gpu", "4"));
            }), noChange(), "1"),
        Arguments.of("a string trainJob numProcPerNode falls back to mlPolicy and GPUs",
            change(tj -> {
              trainer(tj).setNumProcPerNode(new IntOrString("auto"));
              resources(tj, requests("nvidia.com/gpu", "4"));
            }), noChange(), "4"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("slots")
  void setsTheSlots(String name, Consumer<TrainJob> trainJobChange, Consumer<RuntimeSource> runtimeChange,
      String expectedSlots) {
    TrainJob trainJob = MpiFixtures.trainJob(TWO_NODES);
    trainer(trainJob).setNumProcPerNode(null);
    trainJobChange.accept(trainJob);
    RuntimeSource runtime = MpiFixtures.runtime(OPENMPI);
    runtimeChange.accept(runtime);

    RuntimeInfo info = enforce(runtime, trainJob);

    assertThat(launcherNode(info).envVar("OMPI_MCA_orte_set_default_slots").orElseThrow().getValue())
        .isEqualTo(expectedSlots);
  }

  @Test
  void openMpiMountsKeysAndHostfileOnTheLauncherAndKeysOnTheNodes() {
    RuntimeInfo info = enforce(MpiFixtures.runtime(OPENMPI), MpiFixtures.trainJob(TWO_NODES));

    PodSet launcher = info.podSet(MPIPlugin.LAUNCHER).orElseThrow();
    assertThat(launcher.volumes()).containsExactly(sshAuthVolume("test-job"), hostfileVolume("test-job"));
    assertThat(launcherNode(info).volumeMounts())
        .containsExactly(mount("mpi-ssh-auth", "/root/.ssh"), mount("mpi-hostfile", "/etc/mpi"));
    assertThat(launcherNode(info).env()).containsExactly(
        env("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"),
        env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
        env("OMPI_MCA_orte_set_default_slots", "8"),
        env("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"));
    PodSet node = info.podSet(MPIPlugin.NODE).orElseThrow();
    assertThat(node.volumes()).containsExactly(sshAuthVolume("test-job"));
    assertThat(node.container("node").orElseThrow().volumeMounts())
        .containsExactly(mount("mpi-ssh-auth", "/root/.ssh"));
    assertThat(node.container("node").orElseThrow().env()).isEmpty();
  }

  static Stream<Arguments> implementations() {
    return Stream.of(
        Arguments.of("Intel MPI points Hydra at the hostfile over ssh with the slots per host",
            "runtime/intel.yaml", List.of(
                env("I_MPI_HYDRA_HOST_FILE", "/etc/mpi/hostfile"),
                env("I_MPI_HYDRA_BOOTSTRAP", "ssh"),
                env("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "-o ConnectionAttempts=10"),
                env("I_MPI_PERHOST", "8"))),
        Arguments.of("MPICH points Hydra at the hostfile over ssh",
            "runtime/mpich.yaml", List.of(
                env("HYDRA_HOST_FILE", "/etc/mpi/hostfile"),
                env("HYDRA_LAUNCHER", "ssh"),
                env("HYDRA_LAUNCHER_EXTRA_ARGS", "-o ConnectionAttempts=10"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("implementations")
  void setsTheLauncherEnvOfTheImplementation(String name, String runtimePath, List<EnvVar> expectedEnv) {
    RuntimeInfo info = enforce(MpiFixtures.runtime(runtimePath), MpiFixtures.trainJob(TWO_NODES));

    assertThat(launcherNode(info).env()).containsExactlyElementsOf(expectedEnv);
    assertThat(launcherNode(info).volumeMounts())
        .containsExactly(mount("mpi-ssh-auth", "/root/.ssh"), mount("mpi-hostfile", "/etc/mpi"));
  }

  @Test
  void trainerEnvComesAfterTheMpiEnvOnTheTrainerAndOnNodeWhenTheLauncherRunsAsNode() {
    RuntimeInfo info = enforce(MpiFixtures.runtime(DEEPSPEED), MpiFixtures.trainJob(TEN_NODES));

    assertThat(launcherNode(info).env()).extracting(EnvVar::getName).containsExactly(
        "OMPI_MCA_orte_default_hostfile", "OMPI_MCA_orte_keep_fqdn_hostnames", "OMPI_MCA_orte_set_default_slots",
        "OMPI_MCA_plm_rsh_args", "TRAIN_JOB");
    assertThat(info.podSet(MPIPlugin.NODE).orElseThrow().container("node").orElseThrow().env())
        .containsExactly(env("TRAIN_JOB", "value"));
    assertThat(launcherNode(info).volumeMounts()).containsExactly(
        mount("mpi-ssh-auth", "/home/mpiuser/.ssh"), mount("mpi-hostfile", "/etc/mpi"));
  }

  @Test
  void trainerEnvGoesToTheTrainerJobOnlyWhenTheLauncherDoesNotRunAsNode() {
    TrainJob trainJob = MpiFixtures.trainJob(TWO_NODES);
    trainer(trainJob).setEnv(List.of(env("TRAIN_JOB", "value")));

    RuntimeInfo info = enforce(MpiFixtures.runtime(OPENMPI), trainJob);

    assertThat(info.podSet(MPIPlugin.NODE).orElseThrow().container("node").orElseThrow().env())
        .containsExactly(env("TRAIN_JOB", "value"));
    assertThat(launcherNode(info).env()).extracting(EnvVar::getName).doesNotContain("TRAIN_JOB");
  }

  @Test
  void containersNotNamedNodeAreLeftAlone() {
    RuntimeSource runtime = MpiFixtures.runtime(OPENMPI);
    podContainers(runtime, MPIPlugin.LAUNCHER).add(new ContainerBuilder().withName("sidecar").build());

    RuntimeInfo info = enforce(runtime, MpiFixtures.trainJob(TWO_NODES));

    ContainerInfo sidecar = info.podSet(MPIPlugin.LAUNCHER).orElseThrow().container("sidecar").orElseThrow();
    assertThat(sidecar.env()).isEmpty();
    assertThat(sidecar.volumeMounts()).isEmpty();
  }

  @Test
  void podSetsOfARuntimeWithoutAnMpiPolicyAreLeftAlone() {
    RuntimeSource runtime = MpiFixtures.runtime("runtime/torch.yaml");
    TrainJob trainJob = MpiFixtures.trainJob(TEN_NODES);
    BuildContext context = TestPipeline.of(plugin).context(runtime, trainJob);
    List<PodSet> before = List.copyOf(context.info().podSets());

    plugin.enforceMLPolicy(context);

    assertThat(context.info().podSets()).isEqualTo(before);
    assertThat(plugin.build(context)).isEmpty();
  }

  @Test
  void anUnknownImplementationFailsWithUpstreamsMessage() {
    RuntimeSource runtime = MpiFixtures.runtime(OPENMPI);
    runtime.spec().getMlPolicy().getMpi().setMpiImplementation("MVAPICH");
    TrainJob trainJob = MpiFixtures.trainJob(TWO_NODES);

    assertThatThrownBy(() -> enforce(runtime, trainJob))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("MPI implementation for MVAPICH doesn't supported");
    assertThatThrownBy(() -> TestPipeline.of(plugin).build(runtime, trainJob))
        .isInstanceOf(PluginException.class)
        .hasMessage("plugin MPI failed in EnforceMLPolicy: MPI implementation for MVAPICH doesn't supported");
  }

  @Test
  void anEmptyImplementationMeansOpenMpi() {
    RuntimeSource runtime = MpiFixtures.runtime(OPENMPI);
    runtime.spec().getMlPolicy().getMpi().setMpiImplementation("");

    RuntimeInfo info = enforce(runtime, MpiFixtures.trainJob(TWO_NODES));

    assertThat(launcherNode(info).envVar("OMPI_MCA_orte_default_hostfile")).isPresent();
  }

  @Test
  void unsetPolicyFieldsTakeTheCrdDefaults() {
    RuntimeSource runtime = MpiFixtures.runtime(OPENMPI);
    runtime.spec().getMlPolicy().getMpi()
        .withNumProcPerNode(null).withMpiImplementation(null).withSshAuthMountPath(null).withRunLauncherAsNode(null);
    TrainJob trainJob = MpiFixtures.trainJob(TWO_NODES);
    trainer(trainJob).setNumProcPerNode(null);

    RuntimeInfo info = enforce(runtime, trainJob);

    assertThat(launcherNode(info).env()).contains(env("OMPI_MCA_orte_set_default_slots", "1"));
    assertThat(launcherNode(info).volumeMounts()).contains(mount("mpi-ssh-auth", "/root/.ssh"));
    assertThat(info.podSet(MPIPlugin.NODE).orElseThrow().count()).isEqualTo(2);
  }

  @Test
  void theTrainJobIsNotChanged() {
    TrainJob trainJob = MpiFixtures.trainJob(TEN_NODES);

    enforce(MpiFixtures.runtime(DEEPSPEED), trainJob);

    assertThat(trainJob).isEqualTo(MpiFixtures.trainJob(TEN_NODES));
  }

  private RuntimeInfo enforce(RuntimeSource runtime, TrainJob trainJob) {
    BuildContext context = TestPipeline.of(plugin).context(runtime, trainJob);
    plugin.enforceMLPolicy(context);
    return context.info();
  }

  private static ContainerInfo launcherNode(RuntimeInfo info) {
    return info.podSet(MPIPlugin.LAUNCHER).orElseThrow().container("node").orElseThrow();
  }

  static Volume sshAuthVolume(String trainJob) {
    return new VolumeBuilder().withName("mpi-ssh-auth")
        .withNewSecret().withSecretName(trainJob + "-mpi-ssh-auth").withDefaultMode(0400)
        .addNewItem().withKey("ssh-privatekey").withPath("id_rsa").withMode(0640).endItem()
        .addNewItem().withKey("ssh-publickey").withPath("id_rsa.pub").withMode(0644).endItem()
        .addNewItem().withKey("ssh-publickey").withPath("authorized_keys").withMode(0644).endItem()
        .endSecret().build();
  }

  static Volume hostfileVolume(String trainJob) {
    return new VolumeBuilder().withName("mpi-hostfile")
        .withNewConfigMap().withName(trainJob + "-mpi-hostfile")
        .addNewItem().withKey("hostfile").withPath("hostfile").withMode(0444).endItem()
        .endConfigMap().build();
  }

  private static VolumeMount mount(String name, String path) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).build();
  }

  private static Trainer trainer(TrainJob trainJob) {
    return trainJob.getSpec().getTrainer();
  }

  private static void resources(TrainJob trainJob, ResourceRequirements resources) {
    trainer(trainJob).setResourcesPerNode(resources);
  }

  private static ResourceRequirements requests(String name, String amount) {
    return new ResourceRequirementsBuilder().withRequests(Map.of(name, new Quantity(amount))).build();
  }

  private static ResourceRequirements limits(String name, String amount) {
    return new ResourceRequirementsBuilder().withLimits(Map.of(name, new Quantity(amount))).build();
  }

  private static Consumer<TrainJob> change(Consumer<TrainJob> change) {
    return change;
  }

  private static <T> Consumer<T> noChange() {
    return any -> { };
  }

  private static Consumer<RuntimeSource> policyNumProcPerNode(int value) {
    return runtime -> runtime.spec().getMlPolicy().getMpi().setNumProcPerNode(value);
  }

  private static Consumer<RuntimeSource> runtimeResources(ResourceRequirements resources) {
    return runtime -> podContainers(runtime, MPIPlugin.NODE).get(0).setResources(resources);
  }

  private static List<Container> podContainers(RuntimeSource runtime, String jobName) {
    return runtime.spec().getTemplate().getSpec().getReplicatedJobs().stream()
        .filter(job -> job.getName().equals(jobName))
        .findFirst().orElseThrow()
        .getTemplate().getSpec().getTemplate().getSpec().getContainers();
  }
}
