package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class RequestAccountingTest {

  @Test
  void recordsRequestsAndTellsWritesApart(EmbeddedApiServer server) throws Exception {
    var configMaps = server.client().configMaps().inNamespace("acct");
    var cm = new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().addToData("k", "v").build();
    configMaps.resource(cm).create();
    server.resetRequests();
    assertThat(server.requests()).isEmpty();

    configMaps.withName("c").get();
    configMaps.list();
    assertThat(server.writes()).as("reads are not writes").isEmpty();
    assertThat(server.requests()).extracting(ApiRequest::method, ApiRequest::path).containsExactly(
        tuple("GET", "/api/v1/namespaces/acct/configmaps/c"), tuple("GET", "/api/v1/namespaces/acct/configmaps"));

    configMaps.resource(cm).fieldManager("test").forceConflicts().serverSideApply(); // a no-op, still a write
    configMaps.withName("c").delete();
    assertThat(server.writes()).extracting(ApiRequest::method, ApiRequest::path).containsExactly(
        tuple("PATCH", "/api/v1/namespaces/acct/configmaps/c"), tuple("DELETE", "/api/v1/namespaces/acct/configmaps/c"));
    assertThat(server.writes().get(0).contentType()).startsWith("application/apply-patch+yaml");
    assertThat(server.writes().get(0).query()).contains("fieldManager=test");

    server.resetRequests();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void isThreadSafe(EmbeddedApiServer server) throws Exception {
    server.resetRequests();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      IntStream.range(0, 40).forEach(i -> pool.submit(() -> server.client().configMaps().inNamespace("acct")
          .withName("missing-" + i).get()));
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(server.requests()).hasSize(40).allMatch(r -> r.method().equals("GET"));
  }

  @Test
  void theLogIsBounded() {
    try (EmbeddedApiServer server = EmbeddedApiServer.builder().requestLogCapacity(2).start()) {
      for (int i = 0; i < 5; i++) {
        server.client().configMaps().inNamespace("acct").withName("c" + i).get();
      }
      assertThat(server.requests()).extracting(ApiRequest::path).containsExactly(
          "/api/v1/namespaces/acct/configmaps/c3", "/api/v1/namespaces/acct/configmaps/c4");
    }
  }

  @org.junit.jupiter.api.extension.RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();
}
