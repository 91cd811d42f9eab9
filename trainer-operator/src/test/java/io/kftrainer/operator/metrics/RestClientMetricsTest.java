package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@code rest_client_requests_total{code,method,host}} of the operator's client, against the embedded API server. */
class RestClientMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void everyResponseIsCountedByCodeMethodAndHost() {
    try (EmbeddedApiServer server = EmbeddedApiServer.start();
        KubernetesClient client = KubernetesClients.create(server.config(), OperatorConfig.defaults(), registry)) {
      String host = server.config().getMasterUrl().replaceAll("^https?://", "").replaceAll("/$", "");

      client.resource(new ConfigMapBuilder().withNewMetadata().withName("a").withNamespace("default").endMetadata()
          .build()).create();
      ConfigMap read = client.configMaps().inNamespace("default").withName("a").get();
      ConfigMap missing = client.configMaps().inNamespace("default").withName("none").get();

      assertThat(read).isNotNull();
      assertThat(missing).isNull();
      assertThat(count("201", "POST", host)).isEqualTo(1);
      assertThat(count("200", "GET", host)).isEqualTo(1);
      assertThat(count("404", "GET", host)).isEqualTo(1);
    }
  }

  /** fabric8 reports a connection failure to interceptors when it retries the request: the last attempt is not. */
  @Test
  void aRetriedAttemptWithoutResponseCountsAsAnError() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Config unreachable = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closedPort)
        .withRequestRetryBackoffLimit(1).withRequestRetryBackoffInterval(10).build();
    try (KubernetesClient client = KubernetesClients.create(unreachable, OperatorConfig.defaults(), registry)) {
      assertThatThrownBy(() -> client.configMaps().inNamespace("default").withName("a").get())
          .isInstanceOf(KubernetesClientException.class);
    }

    assertThat(count("<error>", "GET", "127.0.0.1:" + closedPort)).isEqualTo(1);
  }

  private double count(String code, String method, String host) {
    return registry.get("rest.client.requests").tag("code", code).tag("method", method).tag("host", host)
        .counter().count();
  }
}
