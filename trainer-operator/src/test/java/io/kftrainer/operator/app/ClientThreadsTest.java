package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client of {@link ClientThreads} does its work on its own bounded, named pools: no request starts a thread of
 * the JDK's ({@code Thread-N}, which {@code CompletableFuture} starts per task on machines of 2 CPUs or fewer) nor
 * of fabric8's unbounded pools ({@code pool-N-thread-M}).
 */
class ClientThreadsTest {

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
  void responsesCompleteOnTheClientsOwnThreadsAtMostItsPoolsOfThem() throws Exception {
    try (KubernetesClient client = ClientThreads.builder("test").withConfig(server.config()).build()) {
      HttpClient http = client.getHttpClient();
      List<CompletableFuture<String>> completedOn = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        HttpRequest request = http.newHttpRequestBuilder().uri(server.url() + "/api/v1/namespaces/default/configmaps")
            .build();
        // a dependent stage registered before completion runs on the thread that completes the response: a request
        // thread at the headers, or an HTTP thread once the body is read
        completedOn.add(http.sendAsync(request, String.class).thenApply(response -> {
          assertThat(response.code()).isEqualTo(200);
          return Thread.currentThread().getName();
        }));
      }
      Set<String> threads = new HashSet<>();
      for (CompletableFuture<String> thread : completedOn) {
        threads.add(thread.get(30, TimeUnit.SECONDS));
      }

      assertThat(threads).allMatch(name -> name.matches("test-(request|http)-\\d+"))
          .hasSizeLessThanOrEqualTo(ClientThreads.SENDERS + ClientThreads.THREADS);
    }
  }

  @Test
  void watchEventsReachTheHandlerOnTheClientsTaskThreadsAndHoldNoRequestThread() throws Exception {
    try (KubernetesClient client = ClientThreads.builder("watcher").withConfig(server.config()).build()) {
      int watches = ClientThreads.SENDERS + 4;
      Set<String> handlerThreads = ConcurrentHashMap.newKeySet();
      CountDownLatch seen = new CountDownLatch(watches);
      List<Watch> open = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        open.add(client.configMaps().inNamespace("watched").withName("cm-" + i).watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, ConfigMap configMap) {
            handlerThreads.add(Thread.currentThread().getName());
            seen.countDown();
          }

          @Override
          public void onClose(WatcherException cause) {
          }
        }));
      }
      // more watches than request threads are open: each released its thread at the response's headers
      for (int i = 0; i < watches; i++) {
        client.configMaps().inNamespace("watched").resource(new ConfigMapBuilder().withNewMetadata()
            .withName("cm-" + i).endMetadata().addToData("k", "v").build()).create();
      }

      assertThat(seen.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(handlerThreads).allMatch(name -> name.matches("watcher-tasks-\\d+"));
      open.forEach(Watch::close);
    }
  }

  @Test
  void aFailedRequestFailsItsFuture() {
    EmbeddedApiServer stopped = EmbeddedApiServer.start();
    String url = stopped.url();
    stopped.close();
    try (KubernetesClient client = ClientThreads.builder("failing").withConfig(
        new io.fabric8.kubernetes.client.ConfigBuilder(server.config()).withMasterUrl(url).build()).build()) {

      assertThatThrownBy(() -> client.configMaps().inNamespace("default").list())
          .isInstanceOf(KubernetesClientException.class);
    }
  }
}
