package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.operator.controller.chaos.BlockingPlugin;
import io.kftrainer.operator.controller.chaos.InvalidObjectPlugin;
import io.kftrainer.operator.controller.chaos.SlowPlugin;
import io.kftrainer.operator.controller.chaos.ThrowingPlugin;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four misbehaving third-party plugins, each from its own jar in {@code --plugins-dir}, each misbehaving for the
 * TrainJobs labelled for it: one throws, one blocks (cut off by {@code --plugin-call-timeout}), one returns invalid
 * objects (a null, a nameless ConfigMap, a PodGroup the API server rejects), one is slow. Each fails (or slows)
 * only its TrainJobs: their Warning Events name the plugin, they get no JobSet and no condition (upstream's
 * conditions), and the other TrainJobs get their JobSet with their usual latency, measured with and without the
 * bad ones (printed; the assertion is a loose bound, the figures are in the README).
 */
class BadPluginTest {

  private static final String NS = "chaos";
  private static final int UNAFFECTED = 20;
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
  private static final Map<String, String> EXPECTED_EVENTS = Map.of(
      "throw", "plugin Throwing failed in EnforcePodSpec: refusing bad-throw",
      "block", "plugin Blocking failed in EnforcePodSpec: did not return within 2000 ms",
      "null-object", "plugin InvalidObject failed in ComponentBuilder: returned null as object 0",
      "nameless", "plugin InvalidObject failed in ComponentBuilder: returned a ConfigMap without metadata.name",
      "rejected", "apply PodGroup chaos/bad-group (built by plugin InvalidObject): 422 Invalid: ");

  @Test
  void eachBadPluginFailsOnlyItsTrainJobsAndTheOthersKeepTheirLatency(@TempDir Path pluginsDir) throws Exception {
    for (Class<? extends Plugin> plugin : List.of(ThrowingPlugin.class, BlockingPlugin.class,
        InvalidObjectPlugin.class, SlowPlugin.class)) {
      PluginFailureTest.writePluginJar(pluginsDir.resolve(plugin.getSimpleName() + ".jar"), plugin);
    }
    try (TestCluster cluster = TestCluster.start()) {
      TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir)
          .withPluginCallTimeout(CALL_TIMEOUT));
      assertThat(operator.runner().plugins()).extracting(Plugin::name)
          .contains("Throwing", "Blocking", "InvalidObject", "Slow");
      cluster.createRuntimes(NS);
      Map<String, Long> jobSetSeen = new ConcurrentHashMap<>();
      try (Watch watch = watchJobSets(cluster, jobSetSeen)) {
        burst(cluster, "warm-up", List.of(), jobSetSeen); // JIT and caches, not measured
        Latencies baseline = burst(cluster, "base", List.of(), jobSetSeen);
        List<String> badLabels = new ArrayList<>(EXPECTED_EVENTS.keySet());
        badLabels.add("slow");
        Latencies withBadPlugins = burst(cluster, "with", badLabels, jobSetSeen);
        cluster.awaitJobSet(NS, "bad-slow");

        System.out.printf("bad plugins: JobSet latency of %d unaffected TrainJobs, p50 / p99 (ms): "
            + "alone %d / %d, with %d TrainJobs of bad plugins %d / %d%n", UNAFFECTED, baseline.p50(),
            baseline.p99(), badLabels.size(), withBadPlugins.p50(), withBadPlugins.p99());
        // loose: a blocked call holds one of the 5 reconcile threads for at most the call timeout
        assertThat(withBadPlugins.p99()).isLessThan(baseline.p99() + 3 * CALL_TIMEOUT.toMillis() + 2000);
      }

      for (var expected : EXPECTED_EVENTS.entrySet()) {
        String name = "bad-" + expected.getKey();
        await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> assertThat(failures(cluster, name))
            .isNotEmpty()
            .allSatisfy(message -> assertThat(message)
                .startsWith("TrainJob resources reconciliation failed: " + expected.getValue())));
        if (!"rejected".equals(expected.getKey())) { // its JobSet is applied before its PodGroup
          assertThat(cluster.jobSet(NS, name)).isEmpty();
        }
        TrainJob trainJob = cluster.trainJob(NS, name);
        // no condition (a failed build is retried); the status has the startTime of the deadline's clock
        assertThat(trainJob.getStatus() == null ? List.of() : trainJob.getStatus().getConditions()).isNullOrEmpty();
      }
      assertThat(failures(cluster, "bad-slow")).isEmpty();
      assertThat(operator.awaitTermination(0, TimeUnit.SECONDS)).isEmpty();
    }
  }

  /** Creates {@code UNAFFECTED} TrainJobs interleaved with one per bad label, and waits for the JobSets. */
  private static Latencies burst(TestCluster cluster, String prefix, List<String> badLabels,
      Map<String, Long> jobSetSeen) {
    Map<String, Long> created = new ConcurrentHashMap<>();
    for (int i = 0; i < UNAFFECTED; i++) {
      if (i < badLabels.size()) {
        String label = badLabels.get(i);
        cluster.createTrainJob(NS, "bad-" + label, tj -> tj.getMetadata().setLabels(Map.of("chaos", label)));
      }
      String name = prefix + "-" + i;
      created.put(name, System.nanoTime());
      cluster.createTrainJob(NS, name, tj -> tj.getMetadata().setLabels(Map.of("chaos", "none")));
    }
    await().atMost(TestCluster.TIMEOUT).until(() -> jobSetSeen.keySet().containsAll(created.keySet()));
    List<Long> millis = new ArrayList<>();
    created.forEach((name, start) -> millis.add(TimeUnit.NANOSECONDS.toMillis(jobSetSeen.get(name) - start)));
    return new Latencies(millis.stream().sorted().toList());
  }

  private static Watch watchJobSets(TestCluster cluster, Map<String, Long> seen) {
    return cluster.client().resources(JobSet.class).inNamespace(NS).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, JobSet jobSet) {
        seen.putIfAbsent(jobSet.getMetadata().getName(), System.nanoTime());
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
  }

  private static List<String> failures(TestCluster cluster, String name) {
    return cluster.events(NS, name).stream()
        .filter(event -> "TrainJobResourcesCreationFailed".equals(event.getReason()))
        .map(Event::getMessage)
        .toList();
  }

  private record Latencies(List<Long> sortedMillis) {

    long p50() {
      return percentile(50);
    }

    long p99() {
      return percentile(99);
    }

    private long percentile(int p) {
      int index = (int) Math.ceil(p / 100.0 * sortedMillis.size()) - 1;
      return sortedMillis.get(Math.max(index, 0));
    }
  }
}
