package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Runtimes resolved from the cache come back as copies of the version cached now. */
class CachedRuntimeResolverTest {

  private final KubernetesSerialization serialization = Fixtures.serialization();
  private ClusterTrainingRuntime cached = runtime("1", 2);
  private final CachedRuntimeResolver resolver = new CachedRuntimeResolver(new ObjectLookup() {
    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
      return type == ClusterTrainingRuntime.class && "torch-distributed".equals(name)
          ? Optional.of(type.cast(cached)) : Optional.empty();
    }

    @Override
    public <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
      return get(type, null, "torch-distributed").map(List::of).orElse(List.of());
    }
  }, serialization);

  private ClusterTrainingRuntime runtime(String resourceVersion, int numNodes) {
    RuntimeSource shipped = Fixtures.shippedRuntime("torch-distributed");
    ClusterTrainingRuntime runtime = new ClusterTrainingRuntime();
    runtime.setMetadata(serialization.clone(shipped.metadata()));
    runtime.getMetadata().setUid("uid-1");
    runtime.getMetadata().setResourceVersion(resourceVersion);
    runtime.setSpec(serialization.clone(shipped.spec()));
    runtime.getSpec().getMlPolicy().setNumNodes(numNodes);
    return runtime;
  }

  private RuntimeSource resolve() {
    return resolver.resolve(Fixtures.trainJob("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
        + "metadata: {name: job, namespace: default}\nspec: {runtimeRef: {name: torch-distributed}}\n")).orElseThrow();
  }

  @Test
  void eachResolveIsACopyTheCachedObjectStaysAsItIs() {
    RuntimeSource first = resolve();
    RuntimeSource second = resolve();

    assertThat(first.spec()).isEqualTo(cached.getSpec()).isNotSameAs(cached.getSpec());
    assertThat(second.spec()).isEqualTo(first.spec()).isNotSameAs(first.spec());
    first.spec().getMlPolicy().setNumNodes(9);
    assertThat(resolve().spec().getMlPolicy().getNumNodes()).isEqualTo(2);
  }

  @Test
  void aNewVersionInTheCacheIsResolvedAsItIs() {
    assertThat(resolve().spec().getMlPolicy().getNumNodes()).isEqualTo(2);

    cached = runtime("2", 4);

    assertThat(resolve().spec().getMlPolicy().getNumNodes()).isEqualTo(4);
  }
}
