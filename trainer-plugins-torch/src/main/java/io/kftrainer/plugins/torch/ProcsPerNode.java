package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.List;
import java.util.Optional;

/**
 * The value of torchrun's {@code --nproc-per-node} ({@code PET_NPROC_PER_NODE}) for one TrainJob.
 *
 * <p>The request is the TrainJob's {@code trainer.numProcPerNode}, else the torch policy's (a v2.1 field), else
 * {@code auto}. An int is used as is. {@code auto} stays {@code auto} when a node has a GPU, so that torchrun
 * starts one process per visible GPU; without a GPU torchrun's {@code auto} would also mean one process per CPU
 * core of the host, not of the pod, so it resolves to the node's CPUs ({@code max(1, cpus)}) instead. {@code cpu}
 * always resolves that way. {@code gpu} resolves to the node's GPU count, or 1 without GPUs: torchrun's own
 * {@code gpu} fails on a node without CUDA.
 *
 * @param value the resolved value: an int, or the string {@code auto}
 */
record ProcsPerNode(IntOrString value) {

  static final String AUTO = "auto";
  static final String CPU = "cpu";
  static final String GPU = "gpu";
  static final List<String> KEYWORDS = List.of(AUTO, CPU, GPU);

  static ProcsPerNode resolve(TorchMLPolicySource policy, Trainer trainer, NodeResources resources) {
    return resolve(requested(policy, trainer), resources);
  }

  static ProcsPerNode resolve(IntOrString requested, NodeResources resources) {
    if (requested.getIntVal() != null) {
      return new ProcsPerNode(requested);
    }
    String keyword = requested.getStrVal();
    int gpus = resources.gpus();
    if (GPU.equals(keyword)) {
      return ofInt(Math.max(1, gpus));
    }
    if (AUTO.equals(keyword) && gpus > 0) {
      return new ProcsPerNode(requested);
    }
    return ofInt(Math.max(1, resources.cpus()));
  }

  static IntOrString requested(TorchMLPolicySource policy, Trainer trainer) {
    if (trainer != null && trainer.getNumProcPerNode() != null) {
      return trainer.getNumProcPerNode();
    }
    if (policy.getNumProcPerNode() != null) {
      return policy.getNumProcPerNode();
    }
    return new IntOrString(AUTO);
  }

  /**
   * The v2.1 check of a TrainJob's {@code numProcPerNode}: a string must be one of the keywords. (Ints below 1 are
   * rejected by the CRD's CEL rule.)
   */
  static Optional<FieldError> validate(IntOrString requested) {
    if (requested == null || requested.getIntVal() != null || KEYWORDS.contains(requested.getStrVal())) {
      return Optional.empty();
    }
    return Optional.of(FieldError.invalid(FieldPath.of("spec", "trainer", "numProcPerNode"), requested.getStrVal(),
        "must have an int value or [" + String.join(" ", KEYWORDS.stream().sorted().toList()) + "]"));
  }

  private static ProcsPerNode ofInt(int value) {
    return new ProcsPerNode(new IntOrString(value));
  }

  boolean isInt() {
    return value.getIntVal() != null;
  }

  /** The value as torchrun reads it. */
  String asEnvValue() {
    return isInt() ? value.getIntVal().toString() : value.getStrVal();
  }
}
