package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What differs between the MPI implementations a runtime can name in {@code mlPolicy.mpi.mpiImplementation}: the
 * line format of the host file and the environment that points the launcher's {@code mpirun} at it.
 *
 * <p>Every implementation starts its remote processes over SSH with the keys of the {@link SshAuthSecret} and retries
 * the connection ({@code -o ConnectionAttempts=10}), because node pods may start their SSH daemon after the
 * launcher. The variables an implementation sets are reserved: a TrainJob may not set them in
 * {@code trainer.env}.
 */
enum MpiImplementation {

  /** Upstream's only implementation; hostfile lines {@code <host> slots=<n>}. */
  OPEN_MPI(TrainerConstants.MPI_IMPLEMENTATION_OPENMPI) {
    @Override
    String hostfileLine(String endpoint, int slots) {
      return endpoint + " slots=" + slots + "\n";
    }

    @Override
    List<EnvVar> launcherEnv(int slots) {
      return List.of(
          env("OMPI_MCA_orte_default_hostfile", Hostfile.PATH),
          env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
          env("OMPI_MCA_orte_set_default_slots", Integer.toString(slots)),
          env("OMPI_MCA_plm_rsh_args", SSH_CONNECTION_ATTEMPTS));
    }
  },

  /**
   * Intel MPI's Hydra process manager; hostfile lines {@code <host>:<n>}. {@code I_MPI_PERHOST} makes the slots the
   * default processes per host, as {@code OMPI_MCA_orte_set_default_slots} does for OpenMPI.
   */
  INTEL(TrainerConstants.MPI_IMPLEMENTATION_INTEL) {
    @Override
    String hostfileLine(String endpoint, int slots) {
      return endpoint + ":" + slots + "\n";
    }

    @Override
    List<EnvVar> launcherEnv(int slots) {
      return List.of(
          env("I_MPI_HYDRA_HOST_FILE", Hostfile.PATH),
          env("I_MPI_HYDRA_BOOTSTRAP", "ssh"),
          env("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", SSH_CONNECTION_ATTEMPTS),
          env("I_MPI_PERHOST", Integer.toString(slots)));
    }
  },

  /** MPICH's Hydra process manager; hostfile lines {@code <host>:<n>}, which also carry the slots. */
  MPICH(TrainerConstants.MPI_IMPLEMENTATION_MPICH) {
    @Override
    String hostfileLine(String endpoint, int slots) {
      return endpoint + ":" + slots + "\n";
    }

    @Override
    List<EnvVar> launcherEnv(int slots) {
      return List.of(
          env("HYDRA_HOST_FILE", Hostfile.PATH),
          env("HYDRA_LAUNCHER", "ssh"),
          env("HYDRA_LAUNCHER_EXTRA_ARGS", SSH_CONNECTION_ATTEMPTS));
    }
  };

  private static final String SSH_CONNECTION_ATTEMPTS = "-o ConnectionAttempts=10";

  private final String apiName;

  MpiImplementation(String apiName) {
    this.apiName = apiName;
  }

  /** The value of {@code mpiImplementation} that selects this implementation. */
  String apiName() {
    return apiName;
  }

  /** One line of the host file, newline included. */
  abstract String hostfileLine(String endpoint, int slots);

  /** The env of the launcher's {@code node} container, in the order it is upserted. */
  abstract List<EnvVar> launcherEnv(int slots);

  /** The names of {@link #launcherEnv}, which a TrainJob must not set. */
  Set<String> reservedEnvNames() {
    Set<String> names = new LinkedHashSet<>();
    launcherEnv(1).forEach(e -> names.add(e.getName()));
    return names;
  }

  /**
   * The implementation {@code mpiImplementation} names; unset or empty means OpenMPI (the CRD default, and the empty
   * value its enum admits). Empty for a name no implementation has.
   */
  static Optional<MpiImplementation> of(String apiName) {
    if (apiName == null || apiName.isEmpty()) {
      return Optional.of(OPEN_MPI);
    }
    return Arrays.stream(values()).filter(i -> i.apiName.equals(apiName)).findFirst();
  }

  private static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }
}
