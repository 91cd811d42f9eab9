package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.OperatorException;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PluginException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the reconciler does with the exception JOSDK hands to {@code updateErrorStatus}: the reconcile's own, wrapped
 * in an {@link OperatorException} by JOSDK's Micrometer metrics (as the operator runs). A plugin that failed while
 * the status was computed leaves no status to write: a Warning Event names it, and JOSDK retries.
 */
class ReconcileErrorTest {

  private static final String NS = "errors";

  private EmbeddedApiServer server;
  private KubernetesClient client;
  private TrainJobReconciler reconciler;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    client = server.client();
    reconciler = new TrainJobReconciler(new PhaseRunner(List.of()), null, new CacheObjectLookup(),
        trainJob -> Optional.empty(), client, new TrainJobEvents(client, "test", Clock.systemUTC()),
        Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aPluginFailureWhileTheStatusIsComputedIsAWarningEventNamingThePluginAndIsRetried() {
    TrainJob trainJob = new TrainJob();
    trainJob.setMetadata(new ObjectMetaBuilder().withNamespace(NS).withName("alpha").withUid("uid-alpha").build());
    PluginException failure = new PluginException("Observer", "TerminalCondition",
        new IllegalStateException("cannot read the JobSet"));

    ErrorStatusUpdateControl<TrainJob> control =
        reconciler.updateErrorStatus(trainJob, null, new OperatorException(failure));

    assertThat(control.isDefaultErrorProcessing()).isTrue();
    assertThat(client.v1().events().inNamespace(NS).list().getItems()).singleElement().satisfies(event -> {
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getReason()).isEqualTo(TrainJobReconciler.REASON_PLUGIN_FAILED);
      assertThat(event.getMessage())
          .isEqualTo("plugin Observer failed in TerminalCondition: cannot read the JobSet");
      assertThat(event.getInvolvedObject().getUid()).isEqualTo("uid-alpha");
    });
  }

  @Test
  void anyOtherFailureIsOnlyRetried() {
    TrainJob trainJob = new TrainJob();
    trainJob.setMetadata(new ObjectMetaBuilder().withNamespace(NS).withName("beta").withUid("uid-beta").build());

    ErrorStatusUpdateControl<TrainJob> control = reconciler.updateErrorStatus(trainJob, null,
        new OperatorException(new IllegalStateException("the API server is gone")));

    assertThat(control.isDefaultErrorProcessing()).isTrue();
    assertThat(client.v1().events().inNamespace(NS).list().getItems()).extracting(Event::getReason).isEmpty();
  }
}
