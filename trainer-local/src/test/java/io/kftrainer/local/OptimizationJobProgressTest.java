package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.Objective;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.OptimizationResult;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import io.kftrainer.api.v1alpha1.TrialObservation;
import io.kftrainer.api.v1alpha1.TrialResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Local mode's lines about an OptimizationJob: one per trial start and end, with values and the best so far. */
class OptimizationJobProgressTest {

  private final List<String> lines = new ArrayList<>();
  private final OptimizationJobProgress progress = new OptimizationJobProgress(lines::add);

  @Test
  void eachTrialStartAndEndIsOneLineWithItsValuesAndTheBestSoFar() {
    progress.onAdd(job(null, running("lr-trial-0", "0.01"), running("lr-trial-1", "0.1")));
    progress.onUpdate(null, job(best("lr-trial-1", "0.2"), running("lr-trial-0", "0.01"),
        succeeded("lr-trial-1", "0.1", "0.2"), running("lr-trial-2", "0.03")));
    progress.onUpdate(null, job(best("lr-trial-1", "0.2"), failed("lr-trial-0", "0.01"),
        succeeded("lr-trial-1", "0.1", "0.2"), running("lr-trial-2", "0.03")));
    progress.onUpdate(null, job(best("lr-trial-1", "0.2"), failed("lr-trial-0", "0.01"),
        succeeded("lr-trial-1", "0.1", "0.2"), running("lr-trial-2", "0.03")));

    assertThat(lines).containsExactly(
        "optimizationjob default/lr: trial lr-trial-0 started: lr=0.01",
        "optimizationjob default/lr: trial lr-trial-1 started: lr=0.1",
        "optimizationjob default/lr: trial lr-trial-1 Succeeded: loss=0.2 (best so far)",
        "optimizationjob default/lr: trial lr-trial-2 started: lr=0.03",
        "optimizationjob default/lr: trial lr-trial-0 Failed (TrainJobFailed); best so far loss=0.2 by lr-trial-1");
  }

  @Test
  void aTrialThatStartedAndEndedBetweenTwoUpdatesGetsBothLinesAndTheEndOfTheJobOneToo() {
    TrialResult stopped = running("lr-trial-0", "0.0001").withState("EarlyStopped").withReason("MedianStop")
        .withMetrics(List.of(new Metric().withName("loss").withValue("0.9")))
        .withEarlyStoppingObservation(new TrialObservation().withProgressPercentage(55)
            .withMetrics(List.of(new Metric().withName("loss").withValue("0.9"))));
    OptimizationJob job = job(null, stopped);
    Condition complete = new Condition();
    complete.setType("Failed");
    complete.setStatus("True");
    complete.setReason("AllTrialsFailed");
    complete.setMessage("no trial succeeded: 1 of 1 trials ended (1 EarlyStopped)");
    job.getStatus().setConditions(List.of(complete));

    progress.onAdd(job);
    progress.onUpdate(job, job);

    assertThat(lines).containsExactly(
        "optimizationjob default/lr: trial lr-trial-0 started: lr=0.0001",
        "optimizationjob default/lr: trial lr-trial-0 EarlyStopped (MedianStop): loss=0.9 at 55%",
        "optimizationjob default/lr: Failed (AllTrialsFailed): no trial succeeded: 1 of 1 trials ended "
            + "(1 EarlyStopped)");
  }

  private static OptimizationJob job(OptimizationResult best, TrialResult... trials) {
    OptimizationJob job = new OptimizationJob();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName("lr");
    metadata.setNamespace("default");
    metadata.setUid("uid-1");
    job.setMetadata(metadata);
    job.setSpec(new OptimizationJobSpec().withObjectives(List.of(new Objective().withMetric("loss"))));
    job.setStatus(new OptimizationJobStatus().withTrials(List.of(trials)).withResult(best));
    return job;
  }

  private static TrialResult running(String name, String lr) {
    return new TrialResult().withTrainJobName(name).withState("Running")
        .withParameters(List.of(new ParameterAssignment().withName("lr").withValue(lr)));
  }

  private static TrialResult succeeded(String name, String lr, String loss) {
    return running(name, lr).withState("Succeeded").withMetrics(List.of(new Metric().withName("loss").withValue(loss)));
  }

  private static TrialResult failed(String name, String lr) {
    return running(name, lr).withState("Failed").withReason("TrainJobFailed");
  }

  private static OptimizationResult best(String name, String loss) {
    return new OptimizationResult().withTrainJobName(name)
        .withMetrics(List.of(new Metric().withName("loss").withValue(loss)));
  }
}
