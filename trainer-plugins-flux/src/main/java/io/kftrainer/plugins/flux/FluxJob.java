package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.kftrainer.api.v1alpha1.FluxMLPolicySource;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.model.GpusPerNode;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.Optional;

/**
 * The Flux instance a TrainJob on a runtime with {@code mlPolicy.flux} runs: one broker per pod of pod set
 * {@code node}, what each node offers ({@code tasksPerNode} cores, {@code gpusPerNode} GPUs) and where the brokers
 * find each other.
 *
 * @param name the TrainJob's name, which is also the JobSet's and so the prefix of the pods' hostnames
 * @param namespace the TrainJob's namespace, part of the brokers' domain
 * @param subdomain the pods' DNS subdomain: the template's {@code network.subdomain}, else the TrainJob's name
 * @param nodes the number of brokers: {@link RuntimeInfo#numNodes}
 * @param tasksPerNode {@code trainer.numProcPerNode} when it is a number, else {@code flux.numProcPerNode}
 *     (default 1)
 * @param gpusPerNode {@link GpusPerNode}
 * @param settings the settings chosen through the environment
 */
record FluxJob(String name, String namespace, String subdomain, int nodes, int tasksPerNode, int gpusPerNode,
    BrokerSettings settings) {

  /** The runtime's Flux policy applied to the TrainJob; empty when the runtime has no {@code mlPolicy.flux}. */
  static Optional<FluxJob> of(RuntimeInfo info, TrainJob trainJob) {
    return info.mlPolicy().map(MLPolicy::getFlux).map(flux -> new FluxJob(
        trainJob.getMetadata().getName(),
        trainJob.getMetadata().getNamespace(),
        subdomain(info, trainJob),
        info.numNodes(trainJob),
        tasksPerNode(flux, trainJob),
        GpusPerNode.of(info, trainJob),
        BrokerSettings.of(info, trainJob)));
  }

  /** The hostname of the lead broker, pod 0: the one that runs the command ({@code <name>-node-0-0}). */
  String leadBroker() {
    return name + "-" + FluxPodSet.NODE + "-0-0";
  }

  private static String subdomain(RuntimeInfo info, TrainJob trainJob) {
    var template = info.template();
    return template != null && template.getNetwork() != null && template.getNetwork().getSubdomain() != null
        ? template.getNetwork().getSubdomain() : trainJob.getMetadata().getName();
  }

  private static int tasksPerNode(FluxMLPolicySource flux, TrainJob trainJob) {
    Trainer trainer = trainJob.getSpec() == null ? null : trainJob.getSpec().getTrainer();
    IntOrString fromTrainJob = trainer == null ? null : trainer.getNumProcPerNode();
    if (fromTrainJob != null && fromTrainJob.getIntVal() != null) {
      return fromTrainJob.getIntVal();
    }
    return flux.getNumProcPerNode() == null ? 1 : flux.getNumProcPerNode();
  }
}
