package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.operator.controller.TrainJobPhase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What happens to TrainJobs, counted once, by namespace and runtime kind. */
class TrainJobLifecycleMetricsTest {

  private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicBoolean leader = new AtomicBoolean(true);
  private final TrainJobLifecycleMetrics metrics = new TrainJobLifecycleMetrics(registry, leader::get);

  @Test
  void aFailureIsCountedWithItsReasonAndTimedFromCreation() {
    TrainJob job = trainJob();
    Condition failed = condition("Failed", "DeadlineExceeded", CREATED.plusSeconds(90));

    metrics.statusWritten(job, TrainJobPhase.PENDING, status(0, failed), List.of(failed), CREATED.plusSeconds(91));

    assertThat(registry.get("kubeflow.trainer.trainjobs.failed").tag("reason", "DeadlineExceeded")
        .tag("runtime", "ClusterTrainingRuntime").tag("namespace", "team-a").counter().count()).isEqualTo(1);
    assertThat(registry.get("kubeflow.trainer.trainjob.duration").tag("result", "Failed").timer()
        .totalTime(TimeUnit.SECONDS)).isEqualTo(90);
  }

  @Test
  void theStartIsTimedWhenAChildJobFirstTurnsReady() {
    TrainJob job = trainJob();

    metrics.statusWritten(job, TrainJobPhase.PENDING, status(1), List.of(), CREATED.plusSeconds(40));
    metrics.statusWritten(job, TrainJobPhase.RUNNING, status(1), List.of(), CREATED.plusSeconds(50));

    assertThat(registry.get("kubeflow.trainer.trainjob.start.duration").timer().count()).isEqualTo(1);
    assertThat(registry.get("kubeflow.trainer.trainjob.start.duration").timer().totalTime(TimeUnit.SECONDS))
        .isEqualTo(40);
  }

  @Test
  void deletesAreCountedByTheLeaderOnly() {
    TrainJob job = trainJob();
    ResourceEvent deleted = new ResourceEvent(ResourceAction.DELETED, ResourceID.fromResource(job), job);

    metrics.received(deleted);
    leader.set(false);
    metrics.received(deleted);
    metrics.received(new ResourceEvent(ResourceAction.UPDATED, ResourceID.fromResource(job), job));

    assertThat(registry.get("kubeflow.trainer.trainjobs.deleted").counter().count()).isEqualTo(1);
  }

  @Test
  void aFirstBuildIsACreation() {
    metrics.firstBuilt(trainJob());

    StringBuilder text = new StringBuilder();
    ReservedNameCounters.of(registry).write(text, false);
    assertThat(text.toString()).contains("kubeflow_trainer_trainjobs_created_total{namespace=\"team-a\","
        + "runtime=\"ClusterTrainingRuntime\"} 1.0");
  }

  private static TrainJob trainJob() {
    TrainJob job = new TrainJob();
    job.setMetadata(new ObjectMetaBuilder().withName("a").withNamespace("team-a").withUid("u")
        .withCreationTimestamp(CREATED.toString()).build());
    TrainJobSpec spec = new TrainJobSpec();
    RuntimeRef ref = new RuntimeRef();
    ref.setName("torch-distributed");
    ref.setKind("ClusterTrainingRuntime");
    spec.setRuntimeRef(ref);
    job.setSpec(spec);
    return job;
  }

  private static TrainJobStatus status(int ready, Condition... conditions) {
    TrainJobStatus status = new TrainJobStatus();
    status.setConditions(List.of(conditions));
    status.setJobsStatus(List.of(new JobStatus().withName("node").withReady(ready)));
    return status;
  }

  private static Condition condition(String type, String reason, Instant at) {
    return new ConditionBuilder().withType(type).withStatus("True").withReason(reason)
        .withLastTransitionTime(at.toString()).build();
  }
}
