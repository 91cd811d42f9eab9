package io.kftrainer.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.framework.model.RuntimeSource;
import org.junit.jupiter.api.Test;

class FixturesTest {

  @Test
  void shippedRuntimesAreTheClusterTrainingRuntimesOfManifestsRuntimes() {
    RuntimeSource torch = Fixtures.shippedRuntime("torch-distributed");
    RuntimeSource deepspeed = Fixtures.shippedRuntime("deepspeed-distributed");

    assertThat(torch.name()).isEqualTo("torch-distributed");
    assertThat(torch.kind()).isEqualTo("ClusterTrainingRuntime");
    assertThat(deepspeed.spec().getMlPolicy().getMpi()).isNotNull();
  }

  @Test
  void anUnknownNameSaysSo() {
    assertThatThrownBy(() -> Fixtures.shippedRuntime("no-such-runtime"))
        .hasMessage("no shipped runtime no-such-runtime");
  }
}
