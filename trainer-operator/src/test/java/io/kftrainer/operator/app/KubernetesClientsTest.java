package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kubeconfig}, {@code --kube-api-qps} and {@code --kube-api-burst} reach the fabric8 client. */
class KubernetesClientsTest {

  @Test
  void theBurstIsTheClientsLimitOfConcurrentRequests(@TempDir Path dir) {
    try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
      OperatorConfig config = OperatorConfig.defaults().withKubeApi(20, 7)
          .withKubeconfig(server.writeKubeconfig(dir.resolve("kubeconfig")));

      try (KubernetesClient client = KubernetesClients.create(config)) {
        Config used = client.getConfiguration();
        assertThat(used.getMasterUrl()).startsWith(server.url());
        assertThat(used.getMaxConcurrentRequests()).isEqualTo(7);
        assertThat(used.getMaxConcurrentRequestsPerHost()).isEqualTo(7);
      }
    }
  }

  @Test
  void requestsBeyondTheBurstWaitForTheRate() {
    try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
      OperatorConfig config = OperatorConfig.defaults().withKubeApi(5, 1);

      try (KubernetesClient client = KubernetesClients.create(server.config(), config)) {
        long start = System.nanoTime();
        for (int i = 0; i < 6; i++) {
          client.configMaps().inNamespace("default").list();
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        // one request at once, then one per 200 ms: at least 5 waits
        assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(950));
        assertThat(server.requests()).hasSize(6);
      }
    }
  }

  @Test
  void theConnectionIsNotChanged() {
    try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
      Config connection = server.config();
      Integer before = connection.getMaxConcurrentRequests();

      KubernetesClients.create(connection, OperatorConfig.defaults().withKubeApi(1, 3)).close();

      assertThat(connection.getMaxConcurrentRequests()).isEqualTo(before);
    }
  }
}
