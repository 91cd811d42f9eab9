package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Concurrent writers: no lost update on one object, unique and increasing resourceVersions across objects. */
class ConcurrencyTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  @Test
  void optimisticUpdatesOfOneObjectLoseNothing() throws Exception {
    API.client().configMaps().inNamespace("c").resource(new ConfigMapBuilder().withNewMetadata().withName("counter")
        .endMetadata().addToData("n", "0").build()).create();
    int threads = 8;
    int increments = 25;
    Set<String> versions = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < increments; i++) {
            while (true) {
              ConfigMap current = API.client().configMaps().inNamespace("c").withName("counter").get();
              int n = Integer.parseInt(current.getData().get("n"));
              current.getData().put("n", Integer.toString(n + 1));
              try {
                ConfigMap updated = API.client().configMaps().inNamespace("c").resource(current).update();
                assertThat(versions.add(updated.getMetadata().getResourceVersion())).isTrue();
                break;
              } catch (KubernetesClientException e) {
                assertThat(e.getCode()).isEqualTo(409);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(API.client().configMaps().inNamespace("c").withName("counter").get().getData().get("n"))
        .isEqualTo(Integer.toString(threads * increments));
    assertThat(versions).hasSize(threads * increments);
  }

  @Test
  void concurrentCreatesGetDistinctVersionsAndOnlyOneCreateOfANameWins() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> futures = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String name = "cm-" + (i % 100); // every name twice
        futures.add(pool.submit(() -> {
          try {
            return API.client().configMaps().inNamespace("cc").resource(new ConfigMapBuilder().withNewMetadata()
                .withName(name).endMetadata().build()).create().getMetadata().getResourceVersion();
          } catch (KubernetesClientException e) {
            assertThat(e.getCode()).isEqualTo(409);
            return null;
          }
        }));
      }
      Set<String> versions = ConcurrentHashMap.newKeySet();
      int created = 0;
      for (Future<String> f : futures) {
        String v = f.get(60, TimeUnit.SECONDS);
        if (v != null) {
          created++;
          versions.add(v);
        }
      }
      assertThat(created).isEqualTo(100);
      assertThat(versions).hasSize(100);
    } finally {
      pool.shutdownNow();
    }
  }
}
