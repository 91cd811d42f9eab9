package io.kftrainer.e2e.chaos;

import io.kftrainer.e2e.support.TrainerProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.e2e.support.Manifests;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * 12.3: two operator processes with leader election (default timings: Lease 15 s, renew deadline 10 s, retry 2 s)
 * against one API server; the leader is SIGKILLed. Asserted: the other process takes the Lease within 20 s and
 * TrainJobs created after the kill converge; admission keeps answering through the switch.
 * Printed: the takeover time (kill to the Lease held by the survivor; kill to the first JobSet of a TrainJob created
 * after the kill) and admission calls (dry-run creates without client retries) before, during and after the switch.
 *
 * <p>What bounds the takeover: a killed leader does not release its Lease, so the survivor waits until
 * {@code renewTime + leaseDuration} has passed, checking every {@code retryPeriod}: between
 * {@code 15 s - (time since the last renewal, at most 2 s)} and {@code 15 s + 2 s} after the kill; then the new
 * leader starts its controller's informers before it reconciles.
 *
 * <p>When admission does not answer: every replica serves the webhooks, leader or not, and the API server sends each
 * call to the first replica that accepts connections, so from the kill on the follower answers. A replica's webhook
 * server listens before its controller's informers have started, and its validating webhook reads runtimes from
 * them: calls in that window fail (500 from the webhook, so the create fails under {@code failurePolicy: Fail}).
 * The test waits until the follower has started (it has seen the leader) before the kill.
 */
class FailoverTest {

  private static final String LEASE_NAMESPACE = "kubeflow-system";
  private static final String LEASE = "trainer.kubeflow.org";
  private static final int AFTER = 20;

  @Test
  void theFollowerTakesOverWhenTheLeaderIsKilled() throws Exception {
    try (StandaloneCluster cluster = StandaloneCluster.start("failover", 2, null);
        Lifecycles before = new Lifecycles(cluster.client(), "before", 10);
        Lifecycles after = new Lifecycles(cluster.client(), "after", AFTER)) {
      TrainerProcess first = cluster.startOperator(0, List.of());
      await("the first operator leads").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> holder(cluster).orElse("").startsWith(cluster.identityPrefix(0) + "_"));
      TrainerProcess second = cluster.startOperator(1, List.of());
      before.submit();
      await("TrainJobs before the kill").atMost(Duration.ofMinutes(2)).ignoreExceptions()
          .until(() -> before.terminated() == 10);
      before.verify();

      AtomicBoolean probing = new AtomicBoolean(true);
      List<long[]> probes = new java.util.concurrent.CopyOnWriteArrayList<>();
      AtomicReference<String> firstRefusal = new AtomicReference<>();
      ExecutorService prober = Executors.newSingleThreadExecutor();
      prober.submit(() -> {
        int i = 0;
        while (probing.get()) {
          GenericKubernetesResource probe = Manifests.resource("manifests/torch-trainjob.yaml", "probe-" + i++);
          long at = System.nanoTime();
          try {
            cluster.clientWithoutRetries().resource(probe).inNamespace("before").dryRun().create();
            probes.add(new long[] {at, 1});
          } catch (KubernetesClientException e) {
            probes.add(new long[] {at, 0});
            firstRefusal.compareAndSet(null, e.getCode() + " " + e.getMessage());
          }
          TimeUnit.MILLISECONDS.sleep(100);
        }
        return null;
      });
      // the follower's elector runs (it has seen the leader): what remains of the takeover is the Lease's expiry
      await("the second operator follows").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
          .until(() -> second.logged("The leader is " + cluster.identityPrefix(0)));
      TimeUnit.SECONDS.sleep(1);

      first.kill();
      long killed = System.nanoTime();
      after.submit();
      long submitted = System.nanoTime();
      await("the second operator leads").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> holder(cluster).orElse("").startsWith(cluster.identityPrefix(1) + "_"));
      long takenOver = System.nanoTime();
      await("a JobSet of a TrainJob created after the kill").atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
          .until(() -> !cluster.client().resources(io.kftrainer.api.jobset.v1alpha2.JobSet.class)
              .inNamespace("after").list().getItems().isEmpty());
      long firstJobSet = System.nanoTime();
      await("TrainJobs after the kill").atMost(Duration.ofMinutes(2)).ignoreExceptions()
          .until(() -> after.terminated() == AFTER);
      long converged = System.nanoTime();
      probing.set(false);
      prober.shutdown();
      prober.awaitTermination(30, TimeUnit.SECONDS);
      String summary = after.verify();

      long takeoverMillis = (takenOver - killed) / 1_000_000;
      long failedBefore = probes.stream().filter(p -> p[1] == 0 && p[0] < killed).count();
      long failedDuring = probes.stream().filter(p -> p[1] == 0 && p[0] >= killed && p[0] < takenOver).count();
      long answeredDuring = probes.stream().filter(p -> p[1] == 1 && p[0] >= killed && p[0] < takenOver).count();
      long failedAfter = probes.stream().filter(p -> p[1] == 0 && p[0] >= takenOver + 2_000_000_000L).count();
      long answeredAfter = probes.stream().filter(p -> p[1] == 1 && p[0] >= takenOver).count();
      System.out.printf("12.3 failover: the leader SIGKILLed; the Lease held by the follower after %d ms, the first "
              + "JobSet of a TrainJob created after the kill after %d ms, all %d converged after %d ms (%s; their "
              + "creates answered %d ms after the kill). Admission (dry-run creates every 100 ms, no client retry): "
              + "before the kill %d failed; from the kill to the takeover %d answered, %d failed%s; after it %d "
              + "answered, %d failed%n",
          takeoverMillis, (firstJobSet - killed) / 1_000_000, AFTER, (converged - killed) / 1_000_000, summary,
          (submitted - killed) / 1_000_000, failedBefore, answeredDuring, failedDuring,
          firstRefusal.get() == null ? "" : " (" + firstRefusal.get().lines().findFirst().orElse("") + ")",
          answeredAfter, failedAfter);
      // the Lease's duration (15 s) and one retry period (2 s) after the last renewal, with slack for two busy cores
      assertThat(takeoverMillis).as("takeover time (ms)").isLessThanOrEqualTo(20_000);
      // a replica down would fail every call (10 a second); a rare reset of a pooled connection is not the switch
      assertThat(failedDuring + failedAfter).as("admission calls that failed from the kill on").isLessThanOrEqualTo(2);
      assertThat(answeredDuring).as("admission calls answered between the kill and the takeover").isPositive();
      assertThat(answeredAfter).as("admission calls answered once the follower leads").isPositive();
    }
  }

  private static Optional<String> holder(StandaloneCluster cluster) {
    Lease lease = cluster.client().leases().inNamespace(LEASE_NAMESPACE).withName(LEASE).get();
    return Optional.ofNullable(lease).map(l -> l.getSpec().getHolderIdentity());
  }
}
