package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.apiserver.testing.FaultInjector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The test fixtures' fault injector, through the server's {@link RequestFilter} extension point. */
class FaultInjectorTest {

  @Test
  void theCommandLineFindsItAsTheFaultsProviderAndSwitchesItThroughDebugStats() throws Exception {
    RequestFilter.Provider provider = ServiceLoader.load(RequestFilter.Provider.class).stream()
        .map(ServiceLoader.Provider::get).filter(p -> p.name().equals("faults")).findFirst().orElseThrow();
    RequestFilter filter = provider.create("rate=1,kinds=500");
    filter.enable(false);
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestFilter(filter).start()) {
      HttpClient http = HttpClient.newBuilder().sslContext(server.trustingSslContext()).build();
      String bearer = "Bearer " + server.bearerToken();
      URI configMaps = URI.create(server.url() + "/api/v1/namespaces/f/configmaps");
      assertThat(http.send(HttpRequest.newBuilder(configMaps).header("Authorization", bearer).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).as("off").isEqualTo(200);

      http.send(HttpRequest.newBuilder(URI.create(server.url() + "/debug/stats?faults=on"))
          .header("Authorization", bearer).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(http.send(HttpRequest.newBuilder(configMaps).header("Authorization", bearer).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).as("on").isEqualTo(500);
      assertThat(http.send(HttpRequest.newBuilder(URI.create(server.url() + "/debug/stats"))
          .header("Authorization", bearer).build(),
          HttpResponse.BodyHandlers.ofString()).body()).contains("\"faultsArmed\":true,\"faults\":{\"500\":1,");
    }
  }

  @Test
  void parsesTheSpecificationAndNamesABadKey() {
    assertThat(FaultInjector.parse("rate=0.25,kinds=500,429,conflict,delay=250ms,seed=3").toString())
        .isEqualTo("rate=0.25,kinds=500,429,conflict,delay=250ms,watch-life=5000ms,retry-after=1,seed=3");
    assertThat(FaultInjector.parse("").toString()).startsWith("rate=0.1,kinds=500,429,conflict,timeout,delay,"
        + "watch-drop,");
    assertThatThrownBy(() -> FaultInjector.parse("rate=2")).hasMessageContaining("rate");
    assertThatThrownBy(() -> FaultInjector.parse("kinds=500,teapot")).hasMessageContaining("kinds")
        .hasMessageContaining("teapot");
    assertThatThrownBy(() -> FaultInjector.parse("delay=soon")).hasMessageContaining("delay");
    assertThatThrownBy(() -> FaultInjector.parse("colour=red")).hasMessageContaining("colour");
  }

  @Test
  void everyRequestFailsAtRateOneAndIsCounted() {
    FaultInjector faults = FaultInjector.parse("rate=1,kinds=500");
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestFilter(faults).start()) {
      KubernetesClient client = server.client();
      assertThatThrownBy(() -> client.configMaps().inNamespace("f").withName("c").get())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(500));
      assertThat(faults.injected()).containsEntry(FaultInjector.Kind.ERROR_500, 1L);
      assertThat(client.getKubernetesVersion()).as("discovery is never faulted").isNotNull();

      faults.armed(false);
      client.configMaps().inNamespace("f").resource(new ConfigMapBuilder().withNewMetadata().withName("c")
          .endMetadata().build()).create();
      assertThat(faults.injectedTotal()).as("disarmed").isEqualTo(1);
    }
  }

  @Test
  void tooManyRequestsCarriesRetryAfterAndConflictsOnlyHitUpdates() throws Exception {
    FaultInjector faults = FaultInjector.parse("rate=1,kinds=429,retry-after=7");
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestFilter(faults).start()) {
      HttpResponse<String> answer = HttpClient.newBuilder().sslContext(server.trustingSslContext()).build().send(HttpRequest.newBuilder(
          URI.create(server.url() + "/api/v1/namespaces/f/configmaps"))
          .header("Authorization", "Bearer " + server.bearerToken()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(429);
      assertThat(answer.headers().firstValue("Retry-After")).hasValue("7");
    }
    FaultInjector conflicts = FaultInjector.parse("rate=1,kinds=conflict");
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestFilter(conflicts).start()) {
      var configMaps = server.client().configMaps().inNamespace("f");
      configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build()).create();
      assertThatThrownBy(() -> configMaps.withName("c").edit(c -> {
        c.setData(java.util.Map.of("k", "v"));
        return c;
      })).isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
      assertThat(conflicts.injected()).containsEntry(FaultInjector.Kind.CONFLICT, 1L);
    }
  }

  @Test
  void aTimeoutAnswers504AfterTheWriteTookEffect() {
    FaultInjector faults = FaultInjector.parse("rate=1,kinds=timeout,delay=10ms");
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestFilter(faults).start()) {
      var configMaps = server.client().configMaps().inNamespace("f");
      assertThatThrownBy(() -> configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("c")
          .endMetadata().build()).create())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(504));
      faults.armed(false);
      assertThat(configMaps.withName("c").get()).isNotNull();
    }
  }

  @Test
  void watchesAreDroppedAndTheClientResumes() throws Exception {
    FaultInjector faults = FaultInjector.parse("rate=1,kinds=watch-drop,watch-life=100ms");
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestFilter(faults).start()) {
      HttpResponse<String> watch = HttpClient.newBuilder().sslContext(server.trustingSslContext()).build().send(HttpRequest.newBuilder(
          URI.create(server.url() + "/api/v1/namespaces/f/configmaps?watch=true")).timeout(Duration.ofSeconds(10))
          .header("Authorization", "Bearer " + server.bearerToken()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(watch.statusCode()).isEqualTo(200);
      assertThat(faults.injected()).containsEntry(FaultInjector.Kind.WATCH_DROP, 1L);
    }
  }
}
