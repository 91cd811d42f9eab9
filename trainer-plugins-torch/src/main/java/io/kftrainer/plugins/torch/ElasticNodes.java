package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.jobset.v1alpha2.FailurePolicy;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.v1alpha1.TorchElasticPolicy;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Elastic training from the torch policy's {@code elasticPolicy} (a v2.1 API field that upstream never
 * implemented): torchrun runs with {@code --nnodes=<min>:<max>}, the c10d rendezvous backend on the master pod and
 * {@code --max-restarts}, all through {@code PET_*} variables.
 *
 * <p>A missing bound takes the other one, and both missing take the node count, as the v1 training operator
 * defaulted {@code PyTorchJob.spec.elasticPolicy}. The pod count itself stays {@code numNodes}: JobSet cannot
 * scale a job, so the job starts with {@code numNodes} pods and torchrun tolerates losing them down to
 * {@code minNodes}. {@code metrics} (an autoscaler's input upstream's API described) is accepted and ignored.
 *
 * @param maxRestarts torchrun's {@code --max-restarts}, if set
 */
record ElasticNodes(int minNodes, int maxNodes, Optional<Integer> maxRestarts) {

  static final String RDZV_BACKEND_C10D = "c10d";

  static Optional<ElasticNodes> of(TorchMLPolicySource policy, int numNodes) {
    TorchElasticPolicy elastic = policy.getElasticPolicy();
    if (elastic == null) {
      return Optional.empty();
    }
    Integer min = elastic.getMinNodes();
    Integer max = elastic.getMaxNodes();
    int resolvedMin = min != null ? min : max != null ? max : numNodes;
    int resolvedMax = max != null ? max : min != null ? min : numNodes;
    return Optional.of(new ElasticNodes(resolvedMin, resolvedMax, Optional.ofNullable(elastic.getMaxRestarts())));
  }

  /** torchrun's {@code --nnodes} for an elastic job: {@code <min>:<max>}. */
  String nnodes() {
    return minNodes + ":" + maxNodes;
  }

  /** {@code PET_MAX_RESTARTS}, if set: restarts of the worker group, independent of the rendezvous. */
  List<EnvVar> restartEnv() {
    return maxRestarts.map(n -> List.of(TorchEnv.value(TorchEnv.MAX_RESTARTS, n.toString()))).orElse(List.of());
  }

  /** The c10d rendezvous, hosted by the master pod on the master port. */
  List<EnvVar> rendezvousEnv(MasterEndpoint master) {
    return List.of(
        TorchEnv.value(TorchEnv.RDZV_BACKEND, RDZV_BACKEND_C10D),
        TorchEnv.value(TorchEnv.RDZV_ENDPOINT, master.hostAndPort()));
  }

  /**
   * Sets the JobSet's {@code failurePolicy.maxRestarts} to {@code maxRestarts}, as the v2.1 API documents, so that
   * losing a pod restarts the JobSet instead of failing it; a value in the runtime template wins.
   */
  void applyJobSetRestarts(JobSetSpec template) {
    if (maxRestarts.isEmpty() || template == null) {
      return;
    }
    if (template.getFailurePolicy() == null) {
      template.setFailurePolicy(new FailurePolicy());
    }
    if (template.getFailurePolicy().getMaxRestarts() == null) {
      template.getFailurePolicy().setMaxRestarts(maxRestarts.get());
    }
  }

  /**
   * The bounds' own errors, then whether {@code numNodes} lies within them.
   *
   * @param numNodesPath where {@code numNodes} came from: {@code spec.trainer.numNodes}, or {@code spec.runtimeRef}
   *     for the runtime's node count
   */
  List<FieldError> validate(TorchElasticPolicy policy, int numNodes, FieldPath numNodesPath) {
    FieldPath runtimePath = FieldPath.of("spec", "runtimeRef");
    List<FieldError> errors = new ArrayList<>();
    if (minNodes < 1) {
      errors.add(FieldError.invalid(runtimePath, policy,
          "elasticPolicy minNodes must be greater than or equal to 1, got " + minNodes));
    }
    if (minNodes > maxNodes) {
      errors.add(FieldError.invalid(runtimePath, policy,
          "elasticPolicy minNodes (" + minNodes + ") must be less than or equal to maxNodes (" + maxNodes + ")"));
    }
    if (errors.isEmpty() && (numNodes < minNodes || numNodes > maxNodes)) {
      errors.add(FieldError.invalid(numNodesPath, numNodes,
          "numNodes must be between elasticPolicy minNodes (" + minNodes + ") and maxNodes (" + maxNodes + ")"));
    }
    return errors;
  }
}
