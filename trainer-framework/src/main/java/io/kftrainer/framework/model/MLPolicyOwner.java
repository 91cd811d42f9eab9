package io.kftrainer.framework.model;

import io.kftrainer.api.v1alpha1.MLPolicy;
import java.util.Optional;

/**
 * The plugin that applies a source of {@code mlPolicy} ({@code torch}, {@code mpi}, ...), by upstream's plugin
 * names. A runtime with such a source means nothing without its plugin: the PlainML plugin leaves it alone, and
 * admission rejects it when the plugin is not loaded ({@link io.kftrainer.framework.runner.MLPolicyPlugins}), instead
 * of running it as plain ML with none of what the policy asks for.
 *
 * @param source the field of {@code mlPolicy}, e.g. {@code flux}
 * @param plugin the name of the plugin that applies it, e.g. {@code Flux}
 */
public record MLPolicyOwner(String source, String plugin) {

  /**
   * The owner of the policy's source. Empty when the policy sets none (plain ML, or {@code numNodes} only); the CRD
   * allows one source at most.
   */
  public static Optional<MLPolicyOwner> of(MLPolicy policy) {
    if (policy == null) {
      return Optional.empty();
    }
    if (policy.getTorch() != null) {
      return Optional.of(new MLPolicyOwner("torch", "Torch"));
    }
    if (policy.getMpi() != null) {
      return Optional.of(new MLPolicyOwner("mpi", "MPI"));
    }
    if (policy.getJax() != null) {
      return Optional.of(new MLPolicyOwner("jax", "JAX"));
    }
    if (policy.getXgboost() != null) {
      return Optional.of(new MLPolicyOwner("xgboost", "XGBoost"));
    }
    if (policy.getFlux() != null) {
      return Optional.of(new MLPolicyOwner("flux", "Flux"));
    }
    return Optional.empty();
  }
}
