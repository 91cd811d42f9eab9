package io.kftrainer.plugins.mpi;

import static io.kftrainer.plugins.mpi.MpiFixtures.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MpiValidationTest {

  private static final FieldPath NUM_NODES = FieldPath.of("spec", "trainer", "numNodes");
  private static final FieldPath ENV = FieldPath.of("spec", "trainer", "env");
  private static final String RESERVED = "must not have reserved envs, invalid envs configured: ";

  static Stream<Arguments> cases() {
    List<EnvVar> hostfile = List.of(env("OMPI_MCA_orte_default_hostfile", "/custom/hostfile"));
    List<EnvVar> hostfileAndRshArgs = List.of(
        env("OMPI_MCA_plm_rsh_args", "custom-args"), env("OMPI_MCA_orte_default_hostfile", "/custom/hostfile"));
    List<EnvVar> intelAndOpenMpi = List.of(env("I_MPI_PERHOST", "2"), env("OMPI_MCA_plm_rsh_args", "custom-args"));
    List<EnvVar> mpich = List.of(env("HYDRA_LAUNCHER", "rsh"), env("HYDRA_HOST_FILE", "/tmp/hosts"),
        env("I_MPI_PERHOST", "2"));
    return Stream.of(
        Arguments.of("a runtime without an MPI policy is not checked", "runtime/torch.yaml", 2, hostfile,
            List.of()),
        Arguments.of("trainer has non-reserved env is valid", "runtime/openmpi.yaml", 2,
            List.of(env("TRAIN_JOB", "value"), env("OMPI_MCA_btl", "tcp")), List.of()),
        Arguments.of("trainer has reserved MPI env OMPI_MCA_orte_default_hostfile", "runtime/openmpi.yaml", 2,
            hostfile, List.of(FieldError.invalid(ENV, hostfile, RESERVED + "[OMPI_MCA_orte_default_hostfile]"))),
        Arguments.of("trainer has multiple reserved MPI envs, listed sorted", "runtime/openmpi.yaml", 2,
            hostfileAndRshArgs, List.of(FieldError.invalid(ENV, hostfileAndRshArgs,
                RESERVED + "[OMPI_MCA_orte_default_hostfile OMPI_MCA_plm_rsh_args]"))),
        Arguments.of("Intel MPI reserves its own I_MPI_* envs, not OpenMPI's", "runtime/intel.yaml", 2,
            intelAndOpenMpi, List.of(FieldError.invalid(ENV, intelAndOpenMpi, RESERVED + "[I_MPI_PERHOST]"))),
        Arguments.of("MPICH reserves its own HYDRA_* envs, not Intel's", "runtime/mpich.yaml", 2, mpich,
            List.of(FieldError.invalid(ENV, mpich, RESERVED + "[HYDRA_HOST_FILE HYDRA_LAUNCHER]"))),
        Arguments.of("runtime does not have Launcher even though MPI with runLauncherAsNode has 2 numNodes",
            "runtime/launcher-as-node-without-launcher.yaml", 2, List.of(),
            List.of(FieldError.invalid(NUM_NODES, 2, MpiValidation.LAUNCHER_AND_NODE_REQUIRED))),
        Arguments.of("runtime does not have Node even though MPI with runLauncherAsNode has 2 numNodes",
            "runtime/launcher-as-node-without-node.yaml", 2, List.of(),
            List.of(FieldError.invalid(NUM_NODES, 2, MpiValidation.LAUNCHER_AND_NODE_REQUIRED))),
        Arguments.of("runtime does not have Launcher but TrainJob has only 1 numNodes",
            "runtime/launcher-as-node-without-launcher.yaml", 1, List.of(), List.of()),
        Arguments.of("runtime does not have Launcher and TrainJob sets no numNodes",
            "runtime/launcher-as-node-without-launcher.yaml", null, List.of(), List.of()),
        Arguments.of("runLauncherAsNode runtime with launcher and node accepts 10 numNodes",
            "runtime/deepspeed.yaml", 10, List.of(), List.of()),
        Arguments.of("both problems are reported, numNodes first",
            "runtime/launcher-as-node-without-node.yaml", 3, hostfile, List.of(
                FieldError.invalid(NUM_NODES, 3, MpiValidation.LAUNCHER_AND_NODE_REQUIRED),
                FieldError.invalid(ENV, hostfile, RESERVED + "[OMPI_MCA_orte_default_hostfile]"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validates(String name, String runtimePath, Integer numNodes, List<EnvVar> env, List<FieldError> expected) {
    TrainJob trainJob = MpiFixtures.trainJob("trainjob/two-nodes-eight-slots.yaml");
    trainJob.getSpec().getTrainer().setNumNodes(numNodes);
    trainJob.getSpec().getTrainer().setEnv(env);
    TrainJob before = Fixtures.serialization().clone(trainJob);

    ValidationResult result = TestPipeline.of(new MPIPlugin()).validate(MpiFixtures.runtime(runtimePath), trainJob);

    assertThat(result.errors()).containsExactlyElementsOf(expected);
    assertThat(result.warnings()).isEmpty();
    assertThat(trainJob).isEqualTo(before);
  }
}
