package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The TrainJobStatus plugin's section, derived from the operator's configuration as upstream's plugin reads it. */
class TrainJobStatusFeatureTest {

  @Test
  void onAClusterTheGateIsOffAndTheUrlIsUpstreamsServiceUrl() {
    OperatorConfig defaults = OperatorConfig.defaults();

    assertThat(defaults.trainJobStatusEnabled()).isFalse();
    assertThat(defaults.statusServerPort()).isEqualTo(10443);
    assertThat(defaults.statusServerQps()).isEqualTo(5);
    assertThat(defaults.statusServerBurst()).isEqualTo(10);
    assertThat(TrainJobStatusFeature.pluginSections(defaults)).isEqualTo(Map.of("TrainJobStatus", Map.of(
        "enabled", false,
        "serverUrl", "https://kubeflow-trainer-controller-manager.kubeflow-system.svc:10443",
        "caSecretNamespace", "kubeflow-system",
        "caSecretName", "kubeflow-trainer-webhook-cert")));
  }

  @Test
  void boundToOneAddressTheServerIsReachedThere() {
    OperatorConfig local = OperatorConfig.defaults().withBindAddress("127.0.0.1").withTrainJobStatusEnabled(true)
        .withStatusServer(41234, 5, 10).withOperatorNamespace("trainer");

    assertThat(TrainJobStatusFeature.pluginSections(local).get("TrainJobStatus"))
        .containsEntry("enabled", true)
        .containsEntry("serverUrl", "https://127.0.0.1:41234")
        .containsEntry("caSecretNamespace", "trainer");
  }

  @Test
  void theWithersKeepTheStatusServerSettings() {
    OperatorConfig config = OperatorConfig.defaults().withTrainJobStatusEnabled(true).withStatusServer(1, 2, 3)
        .withKubeApi(1, 1).withPorts(0, 0);

    assertThat(config.trainJobStatusEnabled()).isTrue();
    assertThat(config.statusServerPort()).isEqualTo(1);
    assertThat(config.statusServerQps()).isEqualTo(2);
    assertThat(config.statusServerBurst()).isEqualTo(3);
  }

  @Test
  void aStatusServerThatCannotAdmitAnythingIsRefused() {
    assertThatThrownBy(() -> OperatorConfig.defaults().withStatusServer(10443, 0, 10))
        .hasMessageContaining("statusServer.qps must be positive");
    assertThatThrownBy(() -> OperatorConfig.defaults().withStatusServer(10443, 5, 0))
        .hasMessageContaining("statusServer.burst must be at least 1");
  }
}
