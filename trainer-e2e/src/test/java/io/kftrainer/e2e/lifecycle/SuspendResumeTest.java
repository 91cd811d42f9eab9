package io.kftrainer.e2e.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.TrainJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code spec.suspend} on a TrainJob reaches its JobSet: a TrainJob created suspended gets a suspended JobSet and
 * {@code Suspended=True}; resuming it (a merge patch, as {@code kubectl patch} sends) unsuspends the JobSet and
 * turns the condition to {@code Suspended=False} reason {@code Resumed}, with an Event for each transition; so does
 * suspending a running one.
 */
@ExtendWith(SharedLocalOperator.class)
class SuspendResumeTest {

  private static LocalOperator operator;
  private static KubernetesClient client;
  private TrainJobs trainJobs;

  @BeforeAll
  static void connect(LocalOperator local) {
    operator = local;
    client = local.client();
  }

  @BeforeEach
  void namespace() {
    trainJobs = new TrainJobs(client, operator.createNamespace("suspend"));
  }

  @Test
  void trainJobCreatedSuspendedRunsOnceResumed() {
    trainJobs.create(
        Manifests.withSpec(Manifests.resource("manifests/torch-trainjob.yaml", "paused"), "suspend", true));

    TrainJob suspended = trainJobs.awaitCondition("paused", "Suspended", "True");
    assertThat(TrainJobs.condition(suspended, "Suspended")).hasValueSatisfying(condition -> {
      assertThat(condition.getReason()).isEqualTo("Suspended");
      assertThat(condition.getMessage()).isEqualTo("TrainJob is suspended");
    });
    assertThat(trainJobs.jobSet("paused").getSpec().getSuspend()).isTrue();

    setSuspend("paused", false);

    TrainJob resumed = trainJobs.awaitCondition("paused", "Suspended", "False");
    assertThat(TrainJobs.condition(resumed, "Suspended")).hasValueSatisfying(condition -> {
      assertThat(condition.getReason()).isEqualTo("Resumed");
      assertThat(condition.getMessage()).isEqualTo("TrainJob is resumed");
    });
    await().atMost(TrainJobs.REACTION)
        .untilAsserted(() -> assertThat(trainJobs.jobSet("paused").getSpec().getSuspend()).isFalse());
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(trainJobs.events("paused"))
        .extracting(Event::getType, Event::getReason)
        .containsExactly(tuple("Normal", "Suspended"), tuple("Normal", "Resumed")));
  }

  @Test
  void runningTrainJobIsSuspendedThenResumed() {
    trainJobs.create(Manifests.resource("manifests/torch-trainjob.yaml", "running"));
    trainJobs.awaitJobSet("running");
    assertThat(trainJobs.jobSet("running").getSpec().getSuspend()).isFalse();

    setSuspend("running", true);

    trainJobs.awaitCondition("running", "Suspended", "True");
    await().atMost(TrainJobs.REACTION)
        .untilAsserted(() -> assertThat(trainJobs.jobSet("running").getSpec().getSuspend()).isTrue());

    setSuspend("running", false);

    trainJobs.awaitCondition("running", "Suspended", "False");
    await().atMost(TrainJobs.REACTION)
        .untilAsserted(() -> assertThat(trainJobs.jobSet("running").getSpec().getSuspend()).isFalse());
  }

  private void setSuspend(String name, boolean suspend) {
    client.resources(TrainJob.class).inNamespace(trainJobs.namespace()).withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":" + suspend + "}}");
  }
}
