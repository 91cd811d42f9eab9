package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code PET_*} variables of one TrainJob, in upstream's order, split in two groups because torchtune's
 * container takes the second one on its command line instead.
 *
 * @param process the node count, processes per node, node rank (the pod's completion index) and, for elastic
 *     jobs, the restart budget
 * @param rendezvous where the nodes meet: the master address and port and, for elastic jobs, the c10d rendezvous
 *     backend and endpoint
 */
record TorchrunEnv(List<EnvVar> process, List<EnvVar> rendezvous) {

  static TorchrunEnv of(int numNodes, ProcsPerNode procs, MasterEndpoint master, Optional<ElasticNodes> elastic) {
    List<EnvVar> process = new ArrayList<>();
    process.add(TorchEnv.value(TorchEnv.NUM_NODES,
        elastic.map(ElasticNodes::nnodes).orElse(Integer.toString(numNodes))));
    process.add(TorchEnv.value(TorchEnv.NUM_PROC_PER_NODE, procs.asEnvValue()));
    process.add(TorchEnv.completionIndex(TorchEnv.NODE_RANK));
    elastic.ifPresent(e -> process.addAll(e.restartEnv()));

    List<EnvVar> rendezvous = new ArrayList<>();
    rendezvous.add(TorchEnv.value(TorchEnv.MASTER_ADDR, master.host()));
    rendezvous.add(TorchEnv.value(TorchEnv.MASTER_PORT, Integer.toString(TorchEnv.MASTER_PORT_NUMBER)));
    elastic.ifPresent(e -> rendezvous.addAll(e.rendezvousEnv(master)));
    return new TorchrunEnv(List.copyOf(process), List.copyOf(rendezvous));
  }

  List<EnvVar> all() {
    List<EnvVar> all = new ArrayList<>(process);
    all.addAll(rendezvous);
    return all;
  }
}
