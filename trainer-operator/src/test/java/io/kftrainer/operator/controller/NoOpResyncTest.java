package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reconcile that changes nothing writes nothing: once TrainJobs have their objects and status, the periodic
 * resync reconciles them again and again without a single POST, PUT, PATCH or DELETE (the embedded server records
 * every request). Covers each kind of child: JobSet, runtime snapshot, MPI Secret and ConfigMap, PodGroup.
 */
class NoOpResyncTest {

  private static final String NS = "noop";
  private static final List<String> TRAINJOBS = List.of("torch", "mpi", "gang");

  @Test
  void settledTrainJobsAreResyncedWithoutAnyWrite(@TempDir Path pluginsDir) {
    try (TestCluster cluster = TestCluster.start()) {
      OperatorConfig.Timings timings = TestCluster.config(pluginsDir).timings();
      TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir).withTimings(
          new OperatorConfig.Timings(timings.leaseDuration(), timings.renewDeadline(), timings.retryPeriod(),
              Duration.ofMillis(500), timings.retryInitialInterval(), timings.retryMaxInterval())));
      cluster.createRuntimes(NS);

      Instant start = Instant.now();
      cluster.createTrainJob(NS, "torch", tj -> {
      });
      cluster.awaitJobSet(NS, "torch");
      Duration timeToCreated = Duration.between(start, Instant.now());
      cluster.createTrainJob(NS, "mpi", tj -> tj.getSpec().getRuntimeRef().setName("mpi"));
      cluster.createTrainJob(NS, "gang", tj -> tj.getSpec().getRuntimeRef().setName("gang"));
      TRAINJOBS.forEach(name -> cluster.awaitJobSet(NS, name));
      awaitReconciles(operator, 2 * TRAINJOBS.size());

      cluster.server().resetRequests();
      double reconciles = awaitReconciles(operator, 3 * TRAINJOBS.size());

      List<ApiRequest> writes = cluster.server().writes();
      System.out.printf("no-op resync: %d writes in %.0f reconciles of %d TrainJobs; first TrainJob Created "
          + "after %d ms%n", writes.size(), reconciles, TRAINJOBS.size(), timeToCreated.toMillis());
      assertThat(writes).isEmpty();
    }
  }

  /** Waits for {@code count} more reconciles to finish successfully; returns how many there were. */
  private static double awaitReconciles(TrainerOperator operator, int count) {
    double before = TestCluster.reconcilesSucceeded(operator.meterRegistry());
    double after = await().atMost(TestCluster.TIMEOUT)
        .until(() -> TestCluster.reconcilesSucceeded(operator.meterRegistry()), n -> n >= before + count);
    return after - before;
  }
}
