package io.kftrainer.plugins.mpi;

import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.MPIMLPolicySource;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.Optional;

/**
 * The runtime's {@code mlPolicy.mpi} with the CRD defaults applied, so that a runtime read without defaulting (a
 * file, a test) behaves as the API server would have stored it.
 *
 * @param numProcPerNode processes per node; default 1
 * @param implementationName {@code mpiImplementation} as written; resolve it with {@link #implementation()}
 * @param sshAuthMountPath where the SSH keys are mounted; default {@code /root/.ssh}
 * @param runLauncherAsNode whether the launcher pod also runs training processes; default false
 */
record MpiSettings(int numProcPerNode, String implementationName, String sshAuthMountPath,
    boolean runLauncherAsNode) {

  static final String DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh";

  /** The MPI policy of the runtime, or empty when the runtime has none (the plugin then does nothing). */
  static Optional<MpiSettings> of(RuntimeInfo info) {
    return info.mlPolicy().map(MLPolicy::getMpi).map(MpiSettings::of);
  }

  static MpiSettings of(MPIMLPolicySource mpi) {
    return new MpiSettings(
        mpi.getNumProcPerNode() == null ? 1 : mpi.getNumProcPerNode(),
        mpi.getMpiImplementation(),
        mpi.getSshAuthMountPath() == null ? DEFAULT_SSH_AUTH_MOUNT_PATH : mpi.getSshAuthMountPath(),
        Boolean.TRUE.equals(mpi.getRunLauncherAsNode()));
  }

  /** The implementation named, or empty when this plugin has none of that name. */
  Optional<MpiImplementation> implementation() {
    return MpiImplementation.of(implementationName);
  }

  /**
   * The implementation named.
   *
   * @throws IllegalArgumentException with upstream's message when the name is unknown
   */
  MpiImplementation requireImplementation() {
    return implementation().orElseThrow(() -> new IllegalArgumentException(
        "MPI implementation for " + implementationName + " doesn't supported"));
  }
}
