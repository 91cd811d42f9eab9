package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.operator.controller.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator's wiring and lifecycle: leader election, components, readiness, start-up checks, namespaces. One API
 * server for the class; each test has its own operators (stopped after it), namespace and Lease.
 */
class TrainerOperatorTest {

  private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX");

  private static TestCluster cluster;

  @TempDir
  Path pluginsDir;

  @BeforeAll
  static void startCluster() {
    cluster = TestCluster.start();
  }

  @AfterEach
  void stopOperators() {
    cluster.stopOperators();
    cluster.installCrds();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Test
  void onlyTheLeaderReconcilesAndAnotherInstanceTakesOverWhenItStops() throws Exception {
    String ns = "takeover";
    OperatorConfig config = withLeaderElection(TestCluster.config(pluginsDir), ns);
    TrainerOperator first = cluster.startOperator(config, builder -> builder.identity("first"));
    TrainerOperator second = cluster.startOperator(config, builder -> builder.identity("second"));
    await().atMost(TestCluster.TIMEOUT).until(() -> first.isLeader() || second.isLeader());
    TrainerOperator leader = first.isLeader() ? first : second;
    TrainerOperator follower = leader == first ? second : first;
    cluster.createRuntimes(ns);

    cluster.createTrainJob(ns, "before", tj -> {
    });
    cluster.awaitJobSet(ns, "before");

    assertThat(lease(ns).getSpec().getHolderIdentity()).isEqualTo(leader.identity());
    assertThat(follower.isLeader()).isFalse();
    assertThat(TestCluster.reconcilesStarted(leader.meterRegistry())).isPositive();
    assertThat(TestCluster.reconcilesStarted(follower.meterRegistry())).isZero();

    leader.stop();
    assertThat(leader.awaitTermination(10, TimeUnit.SECONDS)).hasValueSatisfying(t -> assertThat(t.fatal()).isFalse());
    // released on the way out (controller-runtime's LeaderElectionReleaseOnCancel): no wait for the Lease to expire
    assertThat(lease(ns).getSpec().getHolderIdentity()).isNotEqualTo(leader.identity());
    await().atMost(TestCluster.TIMEOUT).until(follower::isLeader);
    cluster.createTrainJob(ns, "after", tj -> {
    });

    cluster.awaitJobSet(ns, "after");
    assertThat(TestCluster.reconcilesStarted(follower.meterRegistry())).isPositive();
    assertThat(lease(ns).getSpec().getHolderIdentity()).isEqualTo(follower.identity());
  }

  /**
   * A standby takes a released Lease when it sees the release, not at its elector's next poll: with a 10 s retry
   * period that poll comes 10 to 22 s after the standby's first, yet it leads, and reconciles, within seconds.
   */
  @Test
  void aStandbyTakesAReleasedLeaseAtOnceInsteadOfAtItsNextPoll() throws Exception {
    String ns = "released";
    OperatorConfig.Timings slowPolls = new OperatorConfig.Timings(Duration.ofSeconds(60), Duration.ofSeconds(30),
        Duration.ofSeconds(10), Duration.ofHours(10), Duration.ofMillis(200), Duration.ofSeconds(2));
    OperatorConfig config = withLeaderElection(TestCluster.config(pluginsDir), ns).withTimings(slowPolls);
    TrainerOperator first = cluster.startOperator(config, builder -> builder.identity("first"));
    await().atMost(TestCluster.TIMEOUT).until(first::isLeader);
    TrainerOperator second = cluster.startOperator(config, builder -> builder.identity("second"));
    cluster.createRuntimes(ns);
    assertThat(second.isLeader()).isFalse();

    long stopped = System.nanoTime();
    first.stop();
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(second::isLeader);
    System.out.printf("Standby leading %d ms after the leader's stop began%n", (System.nanoTime() - stopped) / 1_000_000);
    assertThat(lease(ns).getSpec().getHolderIdentity()).isEqualTo("second");
    cluster.createTrainJob(ns, "after", tj -> {
    });
    await("the new leader reconciles before its elector's next poll").atMost(Duration.ofSeconds(5))
        .until(() -> cluster.jobSet(ns, "after").isPresent());
  }

  @Test
  void theCachesTheWebhooksReadAreSyncedOnTheLeaderAndOnAFollowerToo() {
    // the webhook server starts beside the controller's informers and answers 503 until isSynced (WebhookServerTest)
    String ns = "synced";
    OperatorConfig config = withLeaderElection(TestCluster.config(pluginsDir), ns);
    TrainerOperator first = cluster.startOperator(config, builder -> builder.identity("first"));
    TrainerOperator second = cluster.startOperator(config, builder -> builder.identity("second"));

    await().atMost(TestCluster.TIMEOUT).until(() -> first.cache().isSynced() && second.cache().isSynced());
    assertThat(first.isLeader() && second.isLeader()).isFalse();
  }

  @Test
  void aComponentThatCannotStartStopsTheOperatorAndSaysWhich() {
    OperatorComponent.Factory broken = context -> new OperatorComponent() {
      @Override
      public String name() {
        return "broken";
      }

      @Override
      public void start() {
        throw new IllegalStateException("port taken");
      }

      @Override
      public void stop() {
      }
    };

    assertThatThrownBy(() -> cluster.startOperator(TestCluster.config(pluginsDir),
        builder -> builder.identity("broken").component(broken)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot start broken: port taken");
  }

  @Test
  void aLeaderThatLosesItsLeaseStopsInsteadOfExiting() throws Exception {
    String ns = "usurped";
    TrainerOperator operator = cluster.startOperator(withLeaderElection(TestCluster.config(pluginsDir), ns),
        builder -> builder.identity("doomed"));
    await().atMost(TestCluster.TIMEOUT).until(operator::isLeader);

    // no resourceVersion: the takeover must not lose a race with the leader's renewals
    cluster.client().leases().inNamespace(TestCluster.OPERATOR_NAMESPACE).withName(ns)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"holderIdentity\": \"usurper\", "
            + "\"leaseDurationSeconds\": 3600, \"renewTime\": \""
            + MICRO_TIME.format(Instant.now().atOffset(ZoneOffset.UTC)) + "\"}}");

    TrainerOperator.Termination termination = operator.awaitTermination(30, TimeUnit.SECONDS).orElseThrow();
    assertThat(termination.fatal()).isTrue();
    assertThat(termination.reason()).isEqualTo("lost the leadership of Lease kubeflow-system/" + ns);
    assertThat(operator.isLeader()).isFalse();
  }

  @Test
  void componentsStartInOrderBesideTheControllerAndStopAfterItInReverseOrder() throws Exception {
    List<String> calls = new CopyOnWriteArrayList<>();
    TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir), builder -> builder
        .component(context -> new RecordingComponent("webhooks", calls, context))
        .component(context -> new RecordingComponent("ops", calls, context)));

    await().atMost(TestCluster.TIMEOUT).until(() -> operator.readiness().isReady());
    assertThat(calls).containsExactly("start webhooks (runner ready, leader)", "start ops (runner ready, leader)");

    operator.stop();
    operator.stop();

    assertThat(calls).containsExactly("start webhooks (runner ready, leader)", "start ops (runner ready, leader)",
        "stop ops", "stop webhooks");
    assertThat(operator.readiness().isReady()).isFalse();
    assertThat(operator.awaitTermination(1, TimeUnit.SECONDS))
        .hasValue(new TrainerOperator.Termination(false, "stopped"));
  }

  @ParameterizedTest(name = "the operator does not start without the CRD {0}")
  @ValueSource(strings = {"jobsets.jobset.x-k8s.io", "trainjobs.trainer.kubeflow.org",
      "clustertrainingruntimes.trainer.kubeflow.org"})
  void theOperatorDoesNotStartWithoutARequiredCrd(String crd) {
    cluster.client().resources(CustomResourceDefinition.class).withName(crd).delete();

    assertThatThrownBy(() -> cluster.startOperator(TestCluster.config(pluginsDir)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the API server does not serve [" + crd + "]: install their CustomResourceDefinitions before "
            + "starting the operator");
  }

  @Test
  void optionalCrdsThatAreMissingAreNotWatched() {
    String ns = "no-podgroups";
    cluster.client().resources(CustomResourceDefinition.class).withName("podgroups.scheduling.x-k8s.io").delete();
    cluster.server().resetRequests();

    TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir));
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> {
    });

    cluster.awaitJobSet(ns, "alpha");
    assertThat(operator.cache().isCached(JobSet.class)).isTrue();
    assertThat(cluster.server().requests())
        .noneMatch(request -> request.path().startsWith("/apis/scheduling.x-k8s.io/v1alpha1/"));
  }

  @Test
  void onlyTheTrainJobsOfTheWatchedNamespacesAreReconciled() {
    String ns = "watched";
    TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir).withNamespaces(Set.of(ns)));
    cluster.createRuntimes(ns);
    cluster.createRuntimes("unwatched");
    cluster.createTrainJob("unwatched", "ignored", tj -> {
    });
    cluster.createTrainJob(ns, "alpha", tj -> {
    });

    cluster.awaitJobSet(ns, "alpha");

    assertThat(cluster.trainJob("unwatched", "ignored").getStatus()).isNull();
    assertThat(cluster.jobSet("unwatched", "ignored")).isEmpty();
    assertThat(operator.cache().list(TrainingRuntime.class, null))
        .extracting(runtime -> runtime.getMetadata().getNamespace()).containsOnly(ns);
  }

  /** Leader election on a Lease of its own for each test, named like its namespace. */
  private static OperatorConfig withLeaderElection(OperatorConfig config, String leaseName) {
    return config.withLeaderElection(new OperatorConfig.LeaderElection(true, leaseName));
  }

  private static Lease lease(String name) {
    return cluster.client().leases().inNamespace(TestCluster.OPERATOR_NAMESPACE).withName(name).get();
  }

  /** Records its start (with what it saw of the operator) and stop. */
  private record RecordingComponent(String name, List<String> calls, OperatorContext context)
      implements OperatorComponent {

    @Override
    public void start() {
      calls.add("start " + name + " (" + (context.runner() != null ? "runner ready" : "no runner") + ", "
          + (context.leader().getAsBoolean() ? "leader" : "follower") + ")");
    }

    @Override
    public void stop() {
      calls.add("stop " + name);
    }
  }
}
