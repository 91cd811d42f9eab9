package io.kftrainer.operator.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.operator.app.TrainerOperator;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measuring harness, not a test of the build: the API writes the operator makes over the lives of N TrainJobs
 * (created, built, a build that fails and is retried, completed, past a deadline), per kind of request and per
 * reconcile. The test's own writes (TrainJobs, runtimes, JobSet status) are left out. Runs only when asked:
 * {@code ./mvnw -pl trainer-operator test -Dtest=WritesPerReconcileHarness -Dtrainer.writesHarness=20}.
 */
class WritesPerReconcileHarness {

  private static final String NS = "writes";

  @Test
  void writesOfTrainJobLifecycles(@TempDir Path pluginsDir) throws Exception {
    int count = Integer.getInteger("trainer.writesHarness", 0);
    assumeTrue(count > 0, "measuring harness: run with -Dtrainer.writesHarness=N");
    PluginFailureTest.writePluginJar(pluginsDir.resolve("exploding.jar"), ExplodingPlugin.class);
    try (TestCluster cluster = TestCluster.start()) {
      TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir).withCreatedCondition(true));
      cluster.createRuntimes(NS);
      cluster.server().resetRequests();
      double reconcilesBefore = TestCluster.reconcilesStarted(operator.meterRegistry());

      for (int i = 0; i < count; i++) {
        cluster.createTrainJob(NS, "job-" + i, tj -> {
        });
      }
      cluster.createTrainJob(NS, "late", tj -> tj.getSpec().setActiveDeadlineSeconds(2L));
      cluster.createTrainJob(NS, ExplodingPlugin.VICTIM, tj -> {
      });
      for (int i = 0; i < count; i++) {
        cluster.awaitCondition(NS, "job-" + i, "Created", "True");
        cluster.setJobSetStatus(NS, "job-" + i, "Completed", "AllJobsCompleted", "jobset completed",
            Map.of("name", "node", "ready", 0, "succeeded", 2, "failed", 0, "active", 0, "suspended", 0));
      }
      for (int i = 0; i < count; i++) {
        cluster.awaitCondition(NS, "job-" + i, "Complete", "True");
      }
      cluster.awaitCondition(NS, "late", "Failed", "True");
      cluster.awaitCondition(NS, ExplodingPlugin.VICTIM, "Created", "False");
      await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(NS, "late").isEmpty());

      double reconciles = TestCluster.reconcilesStarted(operator.meterRegistry()) - reconcilesBefore;
      Map<String, Long> writes = cluster.writesIn(NS).stream()
          .filter(request -> !isTestWrite(request))
          .collect(Collectors.groupingBy(WritesPerReconcileHarness::kind, TreeMap::new, Collectors.counting()));
      long total = writes.values().stream().mapToLong(Long::longValue).sum();
      System.out.printf("WRITES %d TrainJobs (+1 past its deadline, +1 whose build fails): %d operator writes in "
          + "%.0f reconciles, %.2f per reconcile%n", count, total, reconciles, total / reconciles);
      writes.forEach((kind, n) -> System.out.printf("  %-40s %d%n", kind, n));
    }
  }

  /** The harness's own writes: TrainJobs created and the stand-in JobSet controller's status. */
  private static boolean isTestWrite(ApiRequest request) {
    return ("POST".equals(request.method()) && request.path().endsWith("/trainjobs"))
        || ("PUT".equals(request.method()) && request.path().contains("/jobsets/")
            && request.path().endsWith("/status"));
  }

  /** The method and resource of a request: {@code PATCH trainjobs/status}. */
  private static String kind(ApiRequest request) {
    String[] segments = request.path().split("/");
    int namespaces = Arrays.asList(segments).indexOf("namespaces");
    String resource = segments.length > namespaces + 2 ? segments[namespaces + 2] : "?";
    String sub = segments.length > namespaces + 4 ? "/" + segments[namespaces + 4] : "";
    return request.method() + " " + resource + sub;
  }
}
