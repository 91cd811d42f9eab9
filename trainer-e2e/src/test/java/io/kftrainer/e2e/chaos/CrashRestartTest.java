package io.kftrainer.e2e.chaos;

import io.kftrainer.e2e.support.TrainerProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * 12.2: the operator process SIGKILLed in the middle of a burst of 300 TrainJobs, then started again. Asserted:
 * every TrainJob reaches its terminal condition, with exactly one JobSet and one ConfigMap, and the Events stay at
 * what the lifecycles need (no storm of duplicates from the restart: at most 2 Events per TrainJob and reason).
 * Printed: how far the burst was when killed, the time to converge after the restart, the Events by reason.
 *
 * <p>Leader election is off here: with it, the restarted process waits for the dead one's Lease to expire (15 s,
 * see {@link FailoverTest}) before it reconciles, which is the failover case, not the restart's own cost. While the
 * operator is down its admission webhooks are too ({@code failurePolicy: Fail}): creates fail and the test retries
 * them, as a client of a cluster would.
 */
class CrashRestartTest {

  private static final int TRAINJOBS = Integer.getInteger("chaos.restart.trainjobs", 300);

  @Test
  void everyTrainJobConvergesAfterTheOperatorIsKilledMidBurst() throws Exception {
    try (StandaloneCluster cluster = StandaloneCluster.start("restart", 1, null);
        Lifecycles lifecycles = new Lifecycles(cluster.client(), "restart", TRAINJOBS)) {
      TrainerProcess operator = cluster.startOperator(0, List.of("--leader-elect=false"));
      cluster.awaitReady(0, Duration.ofSeconds(120));

      long started = System.nanoTime();
      CompletableFuture<Void> burst = CompletableFuture.runAsync(() -> {
        try {
          lifecycles.submit();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      await("a third of the JobSets").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> jobSets(cluster) >= TRAINJOBS / 3);
      operator.kill();
      long killedAt = System.nanoTime();
      long jobSetsAtKill = jobSets(cluster);
      long terminatedAtKill = lifecycles.terminated();

      cluster.startOperator(0, List.of("--leader-elect=false"));
      long restarted = System.nanoTime();
      burst.get();
      try {
        await("every TrainJob terminated after the restart").atMost(Duration.ofMinutes(5))
            .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
            .until(() -> lifecycles.terminated() == TRAINJOBS);
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError(e.getMessage() + ": " + lifecycles.terminated() + "\n" + cluster.logs(), e);
      }
      long converged = System.nanoTime();
      String summary = lifecycles.verify();

      List<Event> events = cluster.client().v1().events().inNamespace("restart").list().getItems();
      Map<String, Long> perTrainJobAndReason = events.stream().collect(Collectors.groupingBy(
          e -> e.getInvolvedObject().getName() + " " + e.getReason(), Collectors.summingLong(e -> count(e))));
      Map<String, Long> byReason = new TreeMap<>(events.stream().collect(Collectors.groupingBy(Event::getReason,
          Collectors.summingLong(e -> count(e)))));
      assertThat(perTrainJobAndReason.values()).as("Events per TrainJob and reason").allMatch(n -> n <= 2);
      assertThat(byReason.values().stream().mapToLong(Long::longValue).sum()).as("Events in all")
          .isLessThanOrEqualTo(2L * TRAINJOBS);
      System.out.printf("12.2 crash and restart, %d TrainJobs: killed (SIGKILL) %d ms into the burst with %d JobSets "
              + "created and %d TrainJobs terminated; the new process converged %d ms after its start (%d ms after "
              + "the kill, start-up included); %s; Events by reason %s%n",
          TRAINJOBS, (killedAt - started) / 1_000_000, jobSetsAtKill, terminatedAtKill,
          (converged - restarted) / 1_000_000, (converged - killedAt) / 1_000_000, summary, byReason);
    }
  }

  private static long count(Event event) {
    return event.getCount() == null ? 1 : event.getCount();
  }

  private static long jobSets(StandaloneCluster cluster) {
    return cluster.client().resources(JobSet.class).inNamespace("restart").list().getItems().size();
  }
}
