package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kubeconfig}, {@code --kube-api-qps} and {@code --kube-api-burst} reach the fabric8 client. */
class KubernetesClientsTest {

  private static EmbeddedApiServer server;

  @BeforeAll
  static void startServer() {
    server = EmbeddedApiServer.start();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  void theKubeconfigNamesTheClusterAndTheBurstLimitsConcurrentRequests(@TempDir Path dir) {
    OperatorConfig config = OperatorConfig.defaults().withKubeApi(20, 7)
        .withKubeconfig(server.writeKubeconfig(dir.resolve("kubeconfig")));

    try (KubernetesClient client = KubernetesClients.create(config)) {
      Config used = client.getConfiguration();
      assertThat(used.getMasterUrl()).startsWith(server.url());
      assertThat(used.getMaxConcurrentRequests()).isEqualTo(7);
      assertThat(used.getMaxConcurrentRequestsPerHost()).isEqualTo(7);
      assertThat(client.configMaps().inNamespace("default").list().getItems()).isEmpty();
    }
  }

  @Test
  void requestsBeyondTheBurstWaitForTheRate() {
    OperatorConfig config = OperatorConfig.defaults().withKubeApi(5, 1);
    server.resetRequests();

    try (KubernetesClient client = KubernetesClients.create(server.config(), config)) {
      long start = System.nanoTime();
      for (int i = 0; i < 6; i++) {
        client.configMaps().inNamespace("default").list();
      }
      Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

      // one request at once, then one per 200 ms: five waits
      assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(950));
      assertThat(server.requests()).hasSize(6);
    }
  }

  @Test
  void theConnectionGivenIsNotChanged() {
    Config connection = server.config();
    Integer before = connection.getMaxConcurrentRequests();

    KubernetesClients.create(connection, OperatorConfig.defaults().withKubeApi(1, 3)).close();

    assertThat(connection.getMaxConcurrentRequests()).isEqualTo(before);
  }
}
