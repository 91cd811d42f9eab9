package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.operator.controller.JobSetRestarts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The progress lines of local mode: one per condition transition, one with what a reconcile created. */
class TrainJobProgressTest {

  private final List<String> lines = new ArrayList<>();
  private final TrainJobProgress progress = new TrainJobProgress(lines::add);

  @Test
  void aTrainJobWithoutConditionsPrintsNothing() {
    progress.onAdd(trainJob());

    assertThat(lines).isEmpty();
  }

  @Test
  void whatAReconcileCreatedMakesOneLineCustomResourcesFirstConfigMapsLast() {
    progress.onAdd(trainJob());
    progress.created(trainJob(), List.of(configMap("mnist-runtime-snapshot"), configMap("mnist-acme-booking"),
        jobSet("mnist"), new SecretBuilder().withNewMetadata().withName("mnist-ssh").endMetadata().build()));

    assertThat(lines).containsExactly("trainjob default/mnist: created JobSet mnist, Secret mnist-ssh, "
        + "ConfigMap mnist-runtime-snapshot, ConfigMap mnist-acme-booking");
  }

  @Test
  void aRestartIsALineWithItsNumberTheFailedPodItsNodeAndWhy() {
    progress.restarted(trainJob(), 1, 3, Optional.of(new JobSetRestarts.PodFailure("default",
        "mnist-node-0-1-7nd7v", "node-1", "exit code 137")));
    progress.restarted(trainJob(), 2, 0, Optional.empty());

    assertThat(lines).containsExactly(
        "trainjob default/mnist: restart 1/3 after mnist-node-0-1-7nd7v on node-1 failed: exit code 137",
        "trainjob default/mnist: restart 2 after a failure (its pod was not seen)");
  }

  @Test
  void aReconcileThatCreatedNothingMakesNoLine() {
    progress.created(trainJob(), List.of());

    assertThat(lines).isEmpty();
  }

  @Test
  void anUnchangedConditionIsNotPrintedAgain() {
    Condition created = condition("Created", "True", "JobsCreated", "created");
    progress.onAdd(trainJob(created));
    progress.onUpdate(trainJob(created), trainJob(created));

    progress.onUpdate(trainJob(created), trainJob(created,
        condition("Complete", "True", "JobsCompleted", "jobset completed successfully")));

    assertThat(lines).containsExactly("trainjob default/mnist: Created (JobsCreated)",
        "trainjob default/mnist: Complete (JobsCompleted)");
  }

  @Test
  void aFalseConditionAndAFailureCarryTheirMessage() {
    progress.onAdd(trainJob(condition("Created", "False", "TrainingRuntimeNotSupported", "runtime missing"),
        condition("Failed", "True", "DeadlineExceeded", "the deadline passed")));

    assertThat(lines).containsExactly(
        "trainjob default/mnist: Created=False (TrainingRuntimeNotSupported): runtime missing",
        "trainjob default/mnist: Failed (DeadlineExceeded): the deadline passed");
  }

  @Test
  void aDeletionIsALine() {
    progress.onDelete(trainJob(), false);

    assertThat(lines).containsExactly("trainjob default/mnist: deleted");
  }

  @Test
  void eachNewReportOfTheTrainingCodeMakesALine() {
    TrainerStatus first = new TrainerStatus().withProgressPercentage(40).withEstimatedRemainingSeconds(12)
        .withMetrics(List.of(new Metric().withName("loss").withValue("0.031"))).withLastUpdatedTime("t1");
    TrainerStatus later = new TrainerStatus().withProgressPercentage(90).withEstimatedRemainingSeconds(600)
        .withMetrics(List.of(new Metric().withName("loss").withValue("0.02"),
            new Metric().withName("epoch").withValue("3"))).withLastUpdatedTime("t2");

    progress.onUpdate(trainJob(), withProgress(trainJob(), first));
    progress.onUpdate(trainJob(), withProgress(trainJob(), first));
    progress.onUpdate(trainJob(), withProgress(trainJob(), later));
    progress.onUpdate(trainJob(), withProgress(trainJob(), new TrainerStatus().withLastUpdatedTime("t3")));

    assertThat(lines).containsExactly(
        "trainjob default/mnist: 40% (about 12 s left) loss=0.031",
        "trainjob default/mnist: 90% (about 10 min left) loss=0.02 epoch=3");
  }

  @Test
  void anEstimateOfNoWholeSecondReadsUnderOneSecondUntilTheTrainingIsDone() {
    assertThat(TrainerStatusLine.of(new TrainerStatus().withProgressPercentage(3).withEstimatedRemainingSeconds(0)))
        .contains("3% (under 1 s left)");
    assertThat(TrainerStatusLine.of(new TrainerStatus().withProgressPercentage(100).withEstimatedRemainingSeconds(0)))
        .contains("100%");
  }

  private static TrainJob withProgress(TrainJob trainJob, TrainerStatus status) {
    trainJob.getStatus().setTrainerStatus(status);
    return trainJob;
  }

  private static TrainJob trainJob(Condition... conditions) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("local/trainjob.yaml"));
    trainJob.getMetadata().setName("mnist");
    trainJob.getMetadata().setNamespace("default");
    trainJob.getMetadata().setUid("uid-1");
    TrainJobStatus status = new TrainJobStatus();
    status.setConditions(new ArrayList<>(List.of(conditions)));
    trainJob.setStatus(status);
    return trainJob;
  }

  private static Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastTransitionTime("2026-01-01T00:00:00Z").build();
  }

  private static JobSet jobSet(String name) {
    JobSet jobSet = new JobSet();
    jobSet.getMetadata().setName(name);
    return jobSet;
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
  }
}
