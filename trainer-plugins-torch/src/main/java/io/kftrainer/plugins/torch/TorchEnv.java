package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.util.Set;

/**
 * The environment variables this plugin gives torchrun. torchrun reads every command-line flag from
 * {@code PET_<FLAG>} when the flag is not given ({@code --nnodes} from {@code PET_NNODES}, {@code --rdzv-endpoint}
 * from {@code PET_RDZV_ENDPOINT}; see {@code torch/distributed/argparse_util.py}), so these variables configure an
 * unchanged {@code torchrun train.py} command.
 */
final class TorchEnv {

  static final String NUM_NODES = "PET_NNODES";
  static final String NUM_PROC_PER_NODE = "PET_NPROC_PER_NODE";
  static final String NODE_RANK = "PET_NODE_RANK";
  static final String MASTER_ADDR = "PET_MASTER_ADDR";
  static final String MASTER_PORT = "PET_MASTER_PORT";
  static final String MAX_RESTARTS = "PET_MAX_RESTARTS";
  static final String RDZV_BACKEND = "PET_RDZV_BACKEND";
  static final String RDZV_ENDPOINT = "PET_RDZV_ENDPOINT";

  /** The variables a TrainJob may never set for a torch runtime (upstream's {@code TorchRunReservedEnvNames}). */
  static final Set<String> RESERVED = Set.of(NUM_NODES, NUM_PROC_PER_NODE, NODE_RANK, MASTER_ADDR, MASTER_PORT);

  /** The variables a TrainJob may not set either when the runtime has an elastic policy. */
  static final Set<String> RESERVED_ELASTIC = Set.of(MAX_RESTARTS, RDZV_BACKEND, RDZV_ENDPOINT);

  /** The port the master (and the c10d rendezvous store) listens on; upstream's {@code ContainerTrainerPort}. */
  static final int MASTER_PORT_NUMBER = 29500;

  private static final String COMPLETION_INDEX_FIELD_PATH =
      "metadata.annotations['" + TrainerConstants.ANNOTATION_JOB_COMPLETION_INDEX + "']";

  private TorchEnv() {
  }

  static EnvVar value(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  /** A variable holding the pod's index in its Indexed Job, which is the node's rank. */
  static EnvVar completionIndex(String name) {
    return new EnvVarBuilder().withName(name)
        .withNewValueFrom().withNewFieldRef().withFieldPath(COMPLETION_INDEX_FIELD_PATH).endFieldRef().endValueFrom()
        .build();
  }
}
