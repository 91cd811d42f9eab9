package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kftrainer.api.v1alpha1.FluxMLPolicySource;
import io.kftrainer.api.v1alpha1.JAXMLPolicySource;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.MPIMLPolicySource;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.api.v1alpha1.XGBoostMLPolicySource;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.MLPolicyOwner;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.Plugin;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MLPolicyPluginsTest {

  private static final String FLUX_MISSING = "needs plugin \"Flux\", which is not loaded in this operator";

  static Stream<Arguments> owners() {
    return Stream.of(
        Arguments.of("no mlPolicy is plain ML", null, null),
        Arguments.of("numNodes only is plain ML", new MLPolicy().withNumNodes(2), null),
        Arguments.of("torch", new MLPolicy().withTorch(new TorchMLPolicySource()),
            new MLPolicyOwner("torch", "Torch")),
        Arguments.of("mpi", new MLPolicy().withMpi(new MPIMLPolicySource()), new MLPolicyOwner("mpi", "MPI")),
        Arguments.of("jax", new MLPolicy().withJax(new JAXMLPolicySource()), new MLPolicyOwner("jax", "JAX")),
        Arguments.of("xgboost", new MLPolicy().withXgboost(new XGBoostMLPolicySource()),
            new MLPolicyOwner("xgboost", "XGBoost")),
        Arguments.of("flux", new MLPolicy().withFlux(new FluxMLPolicySource()), new MLPolicyOwner("flux", "Flux")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("owners")
  void eachSourceHasItsPlugin(String name, MLPolicy policy, MLPolicyOwner expected) {
    assertThat(MLPolicyOwner.of(policy)).isEqualTo(Optional.ofNullable(expected));
  }

  @Test
  void aRuntimeWhosePolicyPluginIsMissingIsRejectedAtItsPolicy() {
    MLPolicyPlugins plugins = new MLPolicyPlugins(List.of(plugin("Torch"), plugin("PlainML")));

    assertThat(plugins.validateRuntime(spec(new MLPolicy().withFlux(new FluxMLPolicySource()))))
        .containsExactly(FieldError.forbidden(FieldPath.of("spec", "mlPolicy", "flux"), FLUX_MISSING));
  }

  @Test
  void aTrainJobOnSuchARuntimeIsRejectedAtItsRuntimeRef() {
    MLPolicyPlugins plugins = new MLPolicyPlugins(List.of(plugin("Torch")));
    RuntimeSource runtime = new RuntimeSource(RuntimeSource.CLUSTER_TRAINING_RUNTIME,
        new ObjectMetaBuilder().withName("flux-distributed").build(),
        spec(new MLPolicy().withFlux(new FluxMLPolicySource())));

    assertThat(plugins.validateTrainJob(runtime)).containsExactly(FieldError.invalid(
        FieldPath.of("spec", "runtimeRef"), "flux-distributed",
        "ClusterTrainingRuntime \"flux-distributed\" sets spec.mlPolicy.flux, which " + FLUX_MISSING));
  }

  @Test
  void loadedOwnersAndPlainMLPass() {
    MLPolicyPlugins plugins = new MLPolicyPlugins(List.of(plugin("Flux")));

    assertThat(plugins.validateRuntime(spec(new MLPolicy().withFlux(new FluxMLPolicySource())))).isEmpty();
    assertThat(plugins.validateRuntime(spec(new MLPolicy().withNumNodes(3)))).isEmpty();
    assertThat(plugins.validateRuntime(spec(null))).isEmpty();
    assertThat(plugins.validateRuntime(null)).isEmpty();
  }

  private static TrainingRuntimeSpec spec(MLPolicy policy) {
    TrainingRuntimeSpec spec = new TrainingRuntimeSpec();
    spec.setMlPolicy(policy);
    return spec;
  }

  private static Plugin plugin(String name) {
    return () -> name;
  }
}
