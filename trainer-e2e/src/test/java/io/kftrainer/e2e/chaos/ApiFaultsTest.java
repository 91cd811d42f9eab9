package io.kftrainer.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * 12.1: full TrainJob lifecycles with 10 % of the API server's answers faulty converge as without faults. The
 * operator runs as {@code trainer.jar run} against {@code trainer.jar apiserver --inject-faults ...}; the same
 * lifecycles run first without faults (the baseline), then with them, in namespaces of their own. Asserted for
 * both: every TrainJob reaches the right terminal condition within the deadline (none lost, none stuck), with
 * exactly one JobSet and one ConfigMap (no duplicated child). Printed: time to converge, faults injected by kind
 * (each one retried by someone: fabric8 for 500, 429 and 504, the reconcile loop for 409, the informers for a dropped
 * watch), and requests per TrainJob.
 *
 * <p>{@code -Dchaos.trainjobs=N} (default 200 in CI; 500 with the Maven profile {@code chaos-large}) and
 * {@code -Dchaos.faults=SPEC} change the run.
 */
class ApiFaultsTest {

  private static final int TRAINJOBS = Integer.getInteger("chaos.trainjobs", 200);
  private static final String FAULTS = System.getProperty("chaos.faults",
      "rate=0.1,kinds=500,429,conflict,timeout,watch-drop,delay=200ms,watch-life=2s,seed=12");
  private static final Duration DEADLINE = Duration.ofSeconds(120 + TRAINJOBS / 2);

  private record Run(long millis, long requests, Map<String, Long> faults, long testRetries, String summary) {
  }

  @Test
  void lifecyclesConvergeWithTenPercentFaultyAnswers() throws Exception {
    try (StandaloneCluster cluster = StandaloneCluster.start("faults", 1, FAULTS)) {
      cluster.startOperator(0, List.of("--leader-elect=false"));
      cluster.awaitReady(0, Duration.ofSeconds(120));

      Run calm = run(cluster, "calm", false);
      Run faulty = run(cluster, "faulty", true);

      long injected = faulty.faults().values().stream().mapToLong(Long::longValue).sum();
      assertThat(injected).as("faults injected").isGreaterThan(0);
      if (FAULTS.contains("watch-drop")) {
        assertThat(faulty.faults()).as("watches dropped").containsKey("watch-drop");
      }
      System.out.printf("%s%n  without faults: %s, converged in %d ms, %.1f requests per TrainJob%n"
              + "  with faults (%s): %s, converged in %d ms (%.2fx), %.1f requests per TrainJob;%n"
              + "  %d faults injected %s, and %d retries of the test's own requests beyond fabric8's%n",
          "12.1 API faults, " + TRAINJOBS + " TrainJob lifecycles:", calm.summary(), calm.millis(),
          (double) calm.requests() / TRAINJOBS, FAULTS, faulty.summary(), faulty.millis(),
          (double) faulty.millis() / Math.max(1, calm.millis()), (double) faulty.requests() / TRAINJOBS, injected,
          faulty.faults(), faulty.testRetries());
    }
  }

  private static Run run(StandaloneCluster cluster, String namespace, boolean faults) throws Exception {
    try (Lifecycles lifecycles = new Lifecycles(cluster.client(), namespace, TRAINJOBS)) {
      Map<String, Long> before = injected(cluster.stats());
      long requestsBefore = requests(cluster.stats());
      cluster.faults(faults);
      long started = System.nanoTime();
      lifecycles.submit();
      try {
        await(namespace + ": every TrainJob terminated").atMost(DEADLINE).pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(() -> lifecycles.terminated() == TRAINJOBS);
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError(e.getMessage() + ": " + lifecycles.terminated() + " of " + TRAINJOBS + "\n"
            + cluster.logs(), e);
      }
      long millis = (System.nanoTime() - started) / 1_000_000;
      cluster.faults(false);
      JsonNode stats = cluster.stats();
      Map<String, Long> faultsInjected = new TreeMap<>();
      injected(stats).forEach((kind, count) -> {
        long added = count - before.getOrDefault(kind, 0L);
        if (added > 0) {
          faultsInjected.put(kind, added);
        }
      });
      return new Run(millis, requests(stats) - requestsBefore, faultsInjected, lifecycles.testRetries(),
          lifecycles.verify());
    }
  }

  private static Map<String, Long> injected(JsonNode stats) {
    Map<String, Long> counts = new TreeMap<>();
    stats.path("faults").properties().forEach(e -> counts.put(e.getKey(), e.getValue().asLong()));
    return counts;
  }

  private static long requests(JsonNode stats) {
    long total = 0;
    for (JsonNode count : stats.path("requests")) {
      total += count.asLong();
    }
    return total;
  }
}
