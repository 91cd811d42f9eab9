package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.operator.controller.TestCluster;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The operator's wiring and lifecycle: leader election, components, readiness, start-up checks. */
class TrainerOperatorTest {

  private static final String NS = "team";
  private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX");

  @Test
  void onlyTheLeaderReconcilesAndAnotherInstanceTakesOverWhenItStops(@TempDir Path pluginsDir) throws Exception {
    try (TestCluster cluster = TestCluster.start()) {
      OperatorConfig config = withLeaderElection(TestCluster.config(pluginsDir));
      TrainerOperator first = cluster.startOperator(config, builder -> builder.identity("first"));
      TrainerOperator second = cluster.startOperator(config, builder -> builder.identity("second"));
      await().atMost(TestCluster.TIMEOUT).until(() -> first.isLeader() || second.isLeader());
      TrainerOperator leader = first.isLeader() ? first : second;
      TrainerOperator follower = leader == first ? second : first;
      cluster.createRuntimes(NS);

      cluster.createTrainJob(NS, "before", tj -> {
      });
      cluster.awaitCondition(NS, "before", "Created", "True");

      assertThat(lease(cluster).getSpec().getHolderIdentity()).isEqualTo(leader.identity());
      assertThat(follower.isLeader()).isFalse();
      assertThat(TestCluster.reconcilesStarted(leader.meterRegistry())).isPositive();
      assertThat(TestCluster.reconcilesStarted(follower.meterRegistry())).isZero();

      leader.stop();
      assertThat(leader.awaitTermination(10, TimeUnit.SECONDS)).hasValueSatisfying(t -> assertThat(t.fatal()).isFalse());
      await().atMost(TestCluster.TIMEOUT).until(follower::isLeader);
      cluster.createTrainJob(NS, "after", tj -> {
      });

      cluster.awaitCondition(NS, "after", "Created", "True");
      assertThat(TestCluster.reconcilesStarted(follower.meterRegistry())).isPositive();
      assertThat(lease(cluster).getSpec().getHolderIdentity()).isEqualTo(follower.identity());
    }
  }

  @Test
  void aLeaderThatLosesItsLeaseStopsInsteadOfExiting(@TempDir Path pluginsDir) throws Exception {
    try (TestCluster cluster = TestCluster.start()) {
      TrainerOperator operator = cluster.startOperator(withLeaderElection(TestCluster.config(pluginsDir)),
          builder -> builder.identity("doomed"));
      await().atMost(TestCluster.TIMEOUT).until(operator::isLeader);

      // no resourceVersion: the takeover must not lose a race with the leader's renewals
      cluster.client().leases().inNamespace(TestCluster.OPERATOR_NAMESPACE).withName(OperatorConfig.DEFAULT_LEASE_NAME)
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"holderIdentity\": \"usurper\", "
              + "\"leaseDurationSeconds\": 3600, \"renewTime\": \""
              + MICRO_TIME.format(Instant.now().atOffset(ZoneOffset.UTC)) + "\"}}");

      TrainerOperator.Termination termination = operator.awaitTermination(30, TimeUnit.SECONDS).orElseThrow();
      assertThat(termination.fatal()).isTrue();
      assertThat(termination.reason()).isEqualTo("lost the leadership of Lease kubeflow-system/trainer.kubeflow.org");
      assertThat(operator.isLeader()).isFalse();
    }
  }

  @Test
  void componentsStartBeforeTheControllerAndStopAfterItInReverseOrder(@TempDir Path pluginsDir) throws Exception {
    List<String> calls = new CopyOnWriteArrayList<>();
    try (TestCluster cluster = TestCluster.start()) {
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
      assertThat(operator.awaitTermination(1, TimeUnit.SECONDS)).hasValue(new TrainerOperator.Termination(false,
          "stopped"));
    }
  }

  @ParameterizedTest(name = "the operator does not start without the CRD {0}")
  @ValueSource(strings = {"jobsets.jobset.x-k8s.io", "trainjobs.trainer.kubeflow.org",
      "clustertrainingruntimes.trainer.kubeflow.org"})
  void theOperatorDoesNotStartWithoutARequiredCrd(String crd, @TempDir Path pluginsDir) {
    try (TestCluster cluster = TestCluster.start()) {
      cluster.client().resources(CustomResourceDefinition.class).withName(crd).delete();

      assertThatThrownBy(() -> cluster.startOperator(TestCluster.config(pluginsDir)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("the API server does not serve [" + crd + "]: install their CustomResourceDefinitions before "
              + "starting the operator");
    }
  }

  @Test
  void optionalCrdsThatAreMissingAreNotWatched(@TempDir Path pluginsDir) {
    try (TestCluster cluster = TestCluster.start()) {
      cluster.client().resources(CustomResourceDefinition.class).withName("podgroups.scheduling.x-k8s.io").delete();

      TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir));
      cluster.createRuntimes(NS);
      cluster.createTrainJob(NS, "alpha", tj -> {
      });

      cluster.awaitCondition(NS, "alpha", "Created", "True");
      assertThat(operator.cache().isCached(io.kftrainer.api.jobset.v1alpha2.JobSet.class)).isTrue();
      assertThat(cluster.server().requests()).noneMatch(r -> r.path().startsWith("/apis/scheduling.x-k8s.io/v1alpha1/"));
    }
  }

  private static OperatorConfig withLeaderElection(OperatorConfig config) {
    return config.withLeaderElection(new OperatorConfig.LeaderElection(true, OperatorConfig.DEFAULT_LEASE_NAME));
  }

  private static Lease lease(TestCluster cluster) {
    return cluster.client().leases().inNamespace(TestCluster.OPERATOR_NAMESPACE)
        .withName(OperatorConfig.DEFAULT_LEASE_NAME).get();
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
