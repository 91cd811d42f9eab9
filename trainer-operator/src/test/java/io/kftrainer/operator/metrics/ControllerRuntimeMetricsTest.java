package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * JOSDK's callbacks, in the order its event processor makes them, recorded as controller-runtime's metrics; and
 * every callback still reaches JOSDK's own metrics.
 */
class ControllerRuntimeMetricsTest {

  private static final Map<String, Object> METADATA = Map.of(Constants.RESOURCE_GVK_KEY,
      new GroupVersionKind("trainer.kubeflow.org", "v1alpha1", "TrainJob"));

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicLong nanos = new AtomicLong();
  private final List<String> delegated = new ArrayList<>();
  private final ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(registry, recording(),
      controller -> "trainjob_controller".equals(controller) ? 5 : 1, nanos::get);

  @Test
  void anEventIsAnAddAndTheReconcileTakesItOffTheQueueObservingItsWait() {
    TrainJob job = trainJob("a");

    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);
    assertThat(depth()).isEqualTo(1);
    nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(30));
    metrics.reconciliationExecutionStarted(job, METADATA);

    assertThat(depth()).isZero();
    assertThat(adds()).isEqualTo(1);
    assertThat(registry.get("workqueue.queue.duration").timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(30);
    assertThat(activeWorkers()).isEqualTo(1);
    metrics.reconciliationExecutionFinished(job, METADATA);
    assertThat(activeWorkers()).isZero();
  }

  @Test
  void eventsForAQueuedResourceCountOnceAsClientGosQueue() {
    TrainJob job = trainJob("a");

    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);
    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);
    metrics.receivedEvent(new Event(ResourceID.fromResource(trainJob("b"))), METADATA);

    assertThat(adds()).isEqualTo(2);
    assertThat(depth()).isEqualTo(2);
  }

  @Test
  void anEventDuringTheReconcileQueuesTheResourceAgain() {
    TrainJob job = trainJob("a");
    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);
    metrics.reconciliationExecutionStarted(job, METADATA);

    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);

    assertThat(adds()).isEqualTo(2);
    assertThat(depth()).isEqualTo(1);
  }

  @Test
  void aDeletedResourceLeavesTheQueue() {
    TrainJob job = trainJob("a");
    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);

    metrics.cleanupDoneFor(ResourceID.fromResource(job), METADATA);

    assertThat(depth()).isZero();
  }

  @Test
  void reconcileResultsAreSuccessRequeueAfterOrError() throws Exception {
    metrics.timeControllerExecution(execution(() -> UpdateControl.noUpdate()));
    metrics.timeControllerExecution(execution(() -> UpdateControl.<TrainJob>noUpdate().rescheduleAfter(1000)));
    assertThatThrownBy(() -> metrics.timeControllerExecution(execution(() -> {
      throw new IllegalStateException("boom");
    }))).hasMessage("boom");

    assertThat(result("success")).isEqualTo(1);
    assertThat(result("requeue_after")).isEqualTo(1);
    assertThat(result("error")).isEqualTo(1);
    assertThat(registry.get("controller.runtime.reconcile.errors").tag("controller", "trainjob_controller").counter().count())
        .isEqualTo(1);
    assertThat(registry.get("controller.runtime.reconcile.time").tag("controller", "trainjob_controller").timer().count())
        .isEqualTo(3);
    assertThat(registry.get("controller.runtime.max.concurrent.reconciles").tag("controller", "trainjob_controller").gauge()
        .value()).as("the controller's own limit").isEqualTo(5);
    assertThat(delegated).containsExactly("time", "time", "time");
  }

  @Test
  void aRunningReconcileIsUnfinishedWorkUntilItEndsAsWorkDuration() {
    TrainJob job = trainJob("a");
    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);
    metrics.reconciliationExecutionStarted(job, METADATA);
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(3));

    assertThat(queueGauge("workqueue.unfinished.work")).isEqualTo(3.0);
    assertThat(queueGauge("workqueue.longest.running.processor")).isEqualTo(3.0);
    metrics.reconciliationExecutionFinished(job, METADATA);

    assertThat(queueGauge("workqueue.unfinished.work")).isZero();
    assertThat(registry.get("workqueue.work.duration").tag("name", "trainjob_controller").timer()
        .totalTime(TimeUnit.SECONDS)).isEqualTo(3.0);
  }

  @Test
  void aRetryIsAReconcileScheduledAfterADelayABackOffOrARequeueAfter() throws Exception {
    metrics.timeControllerExecution(execution(() -> UpdateControl.noUpdate()));
    metrics.timeControllerExecution(execution(() -> UpdateControl.<TrainJob>noUpdate().rescheduleAfter(1000)));
    metrics.failedReconciliation(trainJob("a"), new IllegalStateException("boom"), METADATA);

    assertThat(registry.get("workqueue.retries").tag("name", "trainjob_controller").counter().count())
        .isEqualTo(2);
  }

  @Test
  void anErrorThrownByTheReconcileIsAPanicAndAnError() {
    assertThatThrownBy(() -> metrics.timeControllerExecution(execution(() -> {
      throw new StackOverflowError();
    }))).isInstanceOf(StackOverflowError.class);

    assertThat(registry.get("controller.runtime.reconcile.panics").tag("controller", "trainjob_controller")
        .counter().count()).isEqualTo(1);
    assertThat(result("error")).isEqualTo(1);
    assertThat(result("requeue")).as("initialised, as controller-runtime does").isZero();
    assertThat(registry.get("controller.runtime.terminal.reconcile.errors").counter().count()).isZero();
    assertThat(registry.get("controller.runtime.reconcile.timeouts").counter().count()).isZero();
  }

  @Test
  void everyCallbackReachesJosdksOwnMetrics() {
    TrainJob job = trainJob("a");
    metrics.receivedEvent(new Event(ResourceID.fromResource(job)), METADATA);
    metrics.reconcileCustomResource(job, null, METADATA);
    metrics.reconciliationExecutionStarted(job, METADATA);
    metrics.finishedReconciliation(job, METADATA);
    metrics.failedReconciliation(job, new RuntimeException(), METADATA);
    metrics.reconciliationExecutionFinished(job, METADATA);
    metrics.cleanupDoneFor(ResourceID.fromResource(job), METADATA);

    assertThat(delegated).containsExactly("received", "reconcile", "started", "finished", "failed", "executed",
        "cleanup");
  }

  private double depth() {
    return registry.get("workqueue.depth").tag("name", "trainjob_controller").tag("controller", "trainjob_controller").gauge().value();
  }

  private double queueGauge(String name) {
    return registry.get(name).tag("name", "trainjob_controller").gauge().value();
  }

  private double adds() {
    return registry.get("workqueue.adds").tag("name", "trainjob_controller").counter().count();
  }

  private double activeWorkers() {
    return registry.get("controller.runtime.active.workers").tag("controller", "trainjob_controller").gauge().value();
  }

  private double result(String result) {
    return registry.get("controller.runtime.reconcile").tag("controller", "trainjob_controller").tag("result", result)
        .counter().count();
  }

  private static TrainJob trainJob(String name) {
    TrainJob job = new TrainJob();
    job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("team-a").build());
    return job;
  }

  @FunctionalInterface
  private interface Body {
    UpdateControl<TrainJob> run() throws Exception;
  }

  private static Metrics.ControllerExecution<UpdateControl<TrainJob>> execution(Body body) {
    return new Metrics.ControllerExecution<>() {
      @Override
      public String name() {
        return "reconcile";
      }

      @Override
      public String controllerName() {
        return "trainjobreconciler";
      }

      @Override
      public String successTypeName(UpdateControl<TrainJob> result) {
        return "resource";
      }

      @Override
      public ResourceID resourceID() {
        return new ResourceID("a", "team-a");
      }

      @Override
      public Map<String, Object> metadata() {
        return METADATA;
      }

      @Override
      public UpdateControl<TrainJob> execute() throws Exception {
        return body.run();
      }
    };
  }

  /** JOSDK's metrics as a fake that notes each call. */
  private Metrics recording() {
    return new Metrics() {
      @Override
      public void receivedEvent(Event event, Map<String, Object> metadata) {
        delegated.add("received");
      }

      @Override
      public void reconcileCustomResource(HasMetadata resource,
          RetryInfo retryInfo, Map<String, Object> metadata) {
        delegated.add("reconcile");
      }

      @Override
      public void reconciliationExecutionStarted(HasMetadata resource,
          Map<String, Object> metadata) {
        delegated.add("started");
      }

      @Override
      public void finishedReconciliation(HasMetadata resource,
          Map<String, Object> metadata) {
        delegated.add("finished");
      }

      @Override
      public void failedReconciliation(HasMetadata resource, Exception exception,
          Map<String, Object> metadata) {
        delegated.add("failed");
      }

      @Override
      public void reconciliationExecutionFinished(HasMetadata resource,
          Map<String, Object> metadata) {
        delegated.add("executed");
      }

      @Override
      public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        delegated.add("cleanup");
      }

      @Override
      public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
        delegated.add("time");
        return execution.execute();
      }
    };
  }
}
