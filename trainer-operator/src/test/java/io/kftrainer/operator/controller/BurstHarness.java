package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.operator.app.OperatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load harness, not a test of the build: N TrainJobs created at once (64 client threads) against the embedded API
 * server with an in-process operator whose client is not rate-limited, so that the figure is the server's and the
 * operator's, not client-go's default rate limit. Prints how long until every TrainJob is Created with one JobSet.
 * Runs only when asked: {@code ./mvnw -pl trainer-operator test -Dtest=BurstHarness -Dtrainer.burst=1000}.
 */
class BurstHarness {

  @Test
  void burstOfTrainJobsReachesCreated(@TempDir Path pluginsDir) throws Exception {
    int count = Integer.getInteger("trainer.burst", 0);
    assumeTrue(count > 0, "load harness: run with -Dtrainer.burst=N");
    String ns = "burst";
    try (TestCluster cluster = TestCluster.start()) {
      OperatorConfig config = TestCluster.config(pluginsDir).withKubeApi(0, 1);
      cluster.startOperator(config);
      cluster.createRuntimes(ns);
      ExecutorService threads = Executors.newFixedThreadPool(64);
      long started = System.nanoTime();
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> creates = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          String name = String.format("burst-%04d", i);
          creates.add(threads.submit(() -> {
            go.await();
            return cluster.createTrainJob(ns, name, tj -> {
            });
          }));
        }
        go.countDown();
        for (Future<?> create : creates) {
          create.get();
        }
      } finally {
        threads.shutdownNow();
      }
      long submitted = System.nanoTime();
      await().atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofMillis(250)).until(() -> created(cluster, ns)
          == count);
      long done = System.nanoTime();
      assertThat(cluster.client().resources(JobSet.class).inNamespace(ns).list().getItems()).hasSize(count);
      System.out.printf("BURST %d TrainJobs: submitted in %d ms, all Created (one JobSet each) after %d ms%n", count,
          (submitted - started) / 1_000_000, (done - started) / 1_000_000);
    }
  }

  private static long created(TestCluster cluster, String ns) {
    return cluster.client().resources(TrainJob.class).inNamespace(ns).list().getItems().stream()
        .filter(tj -> tj.getStatus() != null && tj.getStatus().getConditions() != null
            && tj.getStatus().getConditions().stream()
            .anyMatch(c -> "Created".equals(c.getType()) && "True".equals(c.getStatus())))
        .count();
  }
}
