package io.kftrainer.optimization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.Copies;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrialResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The trial state machine: each case gives the planner an OptimizationJob, its trial TrainJobs and what the
 * operator process knows, and checks the status, the actions and the events it decides.
 */
class TrialPlannerTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
  private static final String EARLY_STOPPING = "kftrainer.io/early-stopping";

  /** A cluster of one OptimizationJob, played by the test: it stores statuses and TrainJobs as the API server would. */
  private static final class Cluster {
    OptimizationJob job;
    final Map<String, TrainJob> trainJobs = new LinkedHashMap<>();
    final Set<String> created = new HashSet<>();
    final List<TrialEvent> events = new ArrayList<>();
    TrialPlan last;

    Cluster(OptimizationJobSpec spec) {
      job = Specs.job("tune", spec);
    }

    /** Plans, stores the status (conditions from the phase), creates and deletes: the operator's order. */
    TrialPlan reconcile(Set<String> pending, Map<String, CreationFailure> failures) {
      last = TrialPlanner.plan(new TrialPlanner.Input(job, trainJobs, pending, failures, NOW));
      storeStatus(last);
      for (TrainJob trainJob : last.creations()) {
        assertThat(created.add(trainJob.getMetadata().getName()) || pending.contains(trainJob.getMetadata().getName()))
            .as("%s created once", trainJob.getMetadata().getName()).isTrue();
        trainJobs.put(trainJob.getMetadata().getName(), trainJob);
      }
      last.deletions().forEach(trainJobs::remove);
      events.addAll(last.events());
      return last;
    }

    TrialPlan reconcile() {
      return reconcile(Set.of(), Map.of());
    }

    /** The status write only: what a crash right after it leaves. */
    TrialPlan reconcileAndCrashBeforeCreating() {
      last = TrialPlanner.plan(new TrialPlanner.Input(job, trainJobs, Set.of(), Map.of(), NOW));
      storeStatus(last);
      return last;
    }

    private void storeStatus(TrialPlan plan) {
      OptimizationJobStatus status = Copies.deepCopy(plan.status());
      List<Condition> conditions = status.getConditions() == null ? new ArrayList<>()
          : new ArrayList<>(status.getConditions());
      conditions.removeIf(c -> c.getType().equals(plan.phase().type()));
      Condition condition = new Condition();
      condition.setType(plan.phase().type());
      condition.setStatus("True");
      condition.setReason(plan.phase().reason());
      condition.setMessage(plan.phase().message());
      conditions.add(condition);
      status.setConditions(conditions);
      job.setStatus(status);
    }

    TrialResult trial(int index) {
      return job.getStatus().getTrials().get(index);
    }

    void complete(String name, String loss) {
      trainJobs.put(name, Specs.ended(trainJobs.get(name), "Complete", "2026-11-24T09:59:00Z", loss));
    }

    void fail(String name) {
      trainJobs.put(name, Specs.ended(trainJobs.get(name), "Failed", "2026-11-24T09:58:00Z", null));
    }

    void report(String name, int progress, String loss) {
      trainJobs.put(name, Specs.running(trainJobs.get(name), progress, loss));
    }

    long running() {
      return job.getStatus().getTrials().stream().filter(t -> t.getState().equals("Running")).count();
    }
  }

  private static OptimizationJobSpec sixTrialsTwoAtOnce() {
    return Specs.random(1L, 6, 2, Specs.logUniform("lr", "0.001", "0.1"), Specs.categorical("batch", "16", "32"));
  }

  @Test
  void theFirstReconcileRecordsParallelTrialsThenCreatesTheirTrainJobs() {
    Cluster cluster = new Cluster(sixTrialsTwoAtOnce());

    TrialPlan plan = cluster.reconcile();

    assertThat(plan.status().getTrials()).extracting(TrialResult::getTrainJobName, TrialResult::getState,
            TrialResult::getCreationTime)
        .containsExactly(tuple("tune-trial-0", "Running", "2026-11-24T10:00:00Z"),
            tuple("tune-trial-1", "Running", "2026-11-24T10:00:00Z"));
    assertThat(plan.status().getNextTrialIndex()).isEqualTo(2);
    assertThat(plan.status().getProgress()).isEqualTo("0/6");
    assertThat(plan.phase()).isEqualTo(new OptimizationPhase("Running", "TrialsRunning", "2 trials running, 0 of 6 ended"));
    assertThat(plan.creations()).extracting(t -> t.getMetadata().getName()).containsExactly("tune-trial-0", "tune-trial-1");
    assertThat(plan.events()).extracting(TrialEvent::reason).containsExactly("TrialStarted", "TrialStarted");

    TrainJob trial = plan.creations().get(0);
    TrialResult record = plan.status().getTrials().get(0);
    String lr = record.getParameters().get(0).getValue();
    String batch = record.getParameters().get(1).getValue();
    assertThat(trial.getMetadata().getNamespace()).isEqualTo(Specs.NAMESPACE);
    assertThat(trial.getMetadata().getLabels()).containsEntry("trainer.kubeflow.org/optimization-job", "tune");
    assertThat(trial.getMetadata().getAnnotations()).containsEntry("trainer.kubeflow.org/optimization-parameters",
        "[{\"name\":\"lr\",\"value\":\"" + lr + "\"},{\"name\":\"batch\",\"value\":\"" + batch + "\"}]");
    assertThat(trial.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getKind()).isEqualTo("OptimizationJob");
      assertThat(owner.getUid()).isEqualTo(Specs.UID);
      assertThat(owner.getController()).isTrue();
      assertThat(owner.getBlockOwnerDeletion()).isTrue();
    });
    assertThat(trial.getSpec().getTrainer().getEnv()).containsExactly(
        new EnvVar("KUBEFLOW_TRAINER_OPT_LR", lr, null), new EnvVar("KUBEFLOW_TRAINER_OPT_BATCH", batch, null));
    assertThat(plan.events().get(0).message()).isEqualTo("trial tune-trial-0 started: lr=" + lr + ", batch=" + batch);
  }

  @Test
  void aTemplateVariableOfTheSameNameIsReplacedAndSuspendIsKept() {
    OptimizationJobSpec spec = Specs.random(1L, 1, 1, Specs.uniform("lr", "0.1", "0.2"));
    spec.getTrainJobTemplate().getSpec().setSuspend(true);
    spec.getTrainJobTemplate().getSpec().getTrainer().setEnv(List.of(new EnvVar("KUBEFLOW_TRAINER_OPT_LR", "9", null),
        new EnvVar("EPOCHS", "3", null)));

    TrainJob trial = new Cluster(spec).reconcile().creations().get(0);

    assertThat(trial.getSpec().getSuspend()).isTrue();
    assertThat(trial.getSpec().getTrainer().getEnv()).extracting(EnvVar::getName)
        .containsExactly("EPOCHS", "KUBEFLOW_TRAINER_OPT_LR");
    assertThat(spec.getTrainJobTemplate().getSpec().getTrainer().getEnv()).as("the template is unchanged").hasSize(2);
  }

  @Test
  void nothingChangesWhenNothingHappened() {
    Cluster cluster = new Cluster(sixTrialsTwoAtOnce());
    cluster.reconcile();
    OptimizationJobStatus stored = Copies.deepCopy(cluster.job.getStatus());

    TrialPlan again = TrialPlanner.plan(new TrialPlanner.Input(cluster.job, cluster.trainJobs, Set.of(), Map.of(), NOW
        .plusSeconds(60)));

    assertThat(again.status()).isEqualTo(stored);
    assertThat(again.creations()).isEmpty();
    assertThat(again.events()).isEmpty();
  }

  @Test
  void aCrashBetweenTheHistoryWriteAndTheCreateClosesTheRecordAndNeverCreatesThatTrial() {
    Cluster cluster = new Cluster(Specs.random(1L, 3, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcileAndCrashBeforeCreating();
    assertThat(cluster.trainJobs).isEmpty();

    TrialPlan afterRestart = cluster.reconcile();

    assertThat(cluster.trial(0).getState()).isEqualTo("Failed");
    assertThat(cluster.trial(0).getReason()).isEqualTo("TrainJobDeleted");
    assertThat(cluster.trial(0).getCompletionTime()).isEqualTo("2026-11-24T10:00:00Z");
    assertThat(afterRestart.creations()).extracting(t -> t.getMetadata().getName()).containsExactly("tune-trial-1");
    assertThat(cluster.trainJobs).doesNotContainKey("tune-trial-0");
    cluster.complete("tune-trial-1", "0.5");
    cluster.reconcile();
    cluster.complete("tune-trial-2", "0.4");
    cluster.reconcile();
    assertThat(cluster.created).containsExactlyInAnyOrder("tune-trial-1", "tune-trial-2");
    assertThat(cluster.job.getStatus().getTrials()).hasSize(3);
    assertThat(cluster.last.phase().type()).isEqualTo("Complete");
  }

  @Test
  void aCreateThatFailedTransientlyIsSentAgainWhileThisProcessStillExpectsIt() {
    Cluster cluster = new Cluster(Specs.random(1L, 2, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcileAndCrashBeforeCreating();

    TrialPlan retry = cluster.reconcile(Set.of("tune-trial-0"), Map.of());

    assertThat(retry.creations()).extracting(t -> t.getMetadata().getName()).containsExactly("tune-trial-0");
    assertThat(cluster.trial(0).getState()).isEqualTo("Running");
    assertThat(retry.creations().get(0).getSpec().getTrainer().getEnv()).extracting(EnvVar::getValue)
        .containsExactly(cluster.trial(0).getParameters().get(0).getValue());
  }

  @Test
  void aTrialTrainJobTheApiServerRefusesFailsTheTrialAndAnInvalidOneTheOptimizationJob() {
    Cluster cluster = new Cluster(Specs.random(1L, 3, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcileAndCrashBeforeCreating();

    TrialPlan plan = cluster.reconcile(Set.of(), Map.of("tune-trial-0", new CreationFailure(
        "TrainJob.trainer.kubeflow.org \"tune-trial-0\" is invalid: spec.trainer.numNodes: Invalid value: -1", true)));

    assertThat(cluster.trial(0).getReason()).isEqualTo("TrainJobCreationFailed");
    assertThat(plan.phase().type()).isEqualTo("Failed");
    assertThat(plan.phase().reason()).isEqualTo("TrainJobsCreationFailed");
    assertThat(plan.phase().message()).isEqualTo("cannot create trial TrainJob tune-trial-0: TrainJob.trainer.kubeflow.org "
        + "\"tune-trial-0\" is invalid: spec.trainer.numNodes: Invalid value: -1");
    assertThat(plan.creations()).as("no trial after a Failed condition").isEmpty();
  }

  @Test
  void aTrainJobDeletedWhileRunningFailsItsTrialAndTheNextOneStarts() {
    Cluster cluster = new Cluster(Specs.random(1L, 3, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.trainJobs.remove("tune-trial-0");

    TrialPlan plan = cluster.reconcile();

    assertThat(cluster.trial(0)).extracting(TrialResult::getState, TrialResult::getReason)
        .containsExactly("Failed", "TrainJobDeleted");
    assertThat(plan.creations()).extracting(t -> t.getMetadata().getName()).containsExactly("tune-trial-1");
    assertThat(plan.events()).extracting(TrialEvent::reason).containsExactly("TrialFailed", "TrialStarted");
    assertThat(plan.events().get(0).warning()).isTrue();
  }

  @Test
  void aTrainJobBeingDeletedCountsAsDeleted() {
    Cluster cluster = new Cluster(Specs.random(1L, 1, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.trainJobs.get("tune-trial-0").getMetadata().setDeletionTimestamp("2026-11-24T09:59:59Z");

    cluster.reconcile();

    assertThat(cluster.trial(0).getReason()).isEqualTo("TrainJobDeleted");
    assertThat(cluster.last.phase()).extracting(OptimizationPhase::type, OptimizationPhase::reason)
        .containsExactly("Failed", "AllTrialsFailed");
  }

  @Test
  void deletingAFinishedTrialsTrainJobChangesNothing() {
    Cluster cluster = new Cluster(Specs.random(1L, 2, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.complete("tune-trial-0", "0.25");
    cluster.reconcile();
    OptimizationJobStatus before = Copies.deepCopy(cluster.job.getStatus());

    cluster.trainJobs.remove("tune-trial-0");
    TrialPlan plan = TrialPlanner.plan(new TrialPlanner.Input(cluster.job, cluster.trainJobs, Set.of(), Map.of(), NOW));

    assertThat(plan.status()).isEqualTo(before);
    assertThat(plan.creations()).isEmpty();
  }

  @Test
  void aFailedTrainJobFailsItsTrialAtTheConditionsTime() {
    Cluster cluster = new Cluster(Specs.random(1L, 2, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.fail("tune-trial-0");

    TrialPlan plan = cluster.reconcile();

    assertThat(cluster.trial(0)).extracting(TrialResult::getState, TrialResult::getReason,
        TrialResult::getCompletionTime).containsExactly("Failed", "TrainJobFailed", "2026-11-24T09:58:00Z");
    assertThat(plan.events().get(0)).isEqualTo(new TrialEvent(true, "TrialFailed",
        "trial tune-trial-0 failed (TrainJobFailed): its TrainJob failed: jobset failed due to one or more job failures"));
  }

  @Test
  void aTrainJobThatCompletesWithoutTheObjectiveMetricIsFailedMetricsUnavailable() {
    Cluster cluster = new Cluster(Specs.random(1L, 1, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.trainJobs.put("tune-trial-0", Specs.ended(cluster.trainJobs.get("tune-trial-0"), "Complete",
        "2026-11-24T09:59:00Z", null));

    TrialPlan plan = cluster.reconcile();

    assertThat(cluster.trial(0)).extracting(TrialResult::getState, TrialResult::getReason)
        .containsExactly("Failed", "MetricsUnavailable");
    assertThat(plan.phase()).isEqualTo(new OptimizationPhase("Failed", "AllTrialsFailed",
        "no trial succeeded: 1 of 1 trials ended (1 Failed/MetricsUnavailable); trials must report loss in their "
            + "TrainJob's status.trainerStatus.metrics"));
    assertThat(plan.status().getResult()).isNull();
  }

  @Test
  void theResultIsTheSucceededTrialWithTheBestValueInTheObjectivesDirection() {
    OptimizationJobSpec spec = Specs.random(1L, 4, 4, Specs.uniform("lr", "0.1", "0.2"));
    Cluster minimize = new Cluster(spec);
    minimize.reconcile();
    minimize.complete("tune-trial-0", "0.5");
    minimize.complete("tune-trial-1", "0.2");
    minimize.complete("tune-trial-2", "0.2");
    minimize.complete("tune-trial-3", "nan");

    TrialPlan plan = minimize.reconcile();

    assertThat(plan.status().getResult().getTrainJobName()).as("the earliest of equal ones").isEqualTo("tune-trial-1");
    assertThat(plan.status().getResult().getParameters()).isEqualTo(minimize.trial(1).getParameters());
    assertThat(plan.status().getResult().getMetrics()).extracting(m -> m.getValue()).containsExactly("0.2");
    assertThat(plan.phase()).isEqualTo(new OptimizationPhase("Complete", "MaxTrialsReached",
        "4 of 4 trials ended (4 Succeeded); best loss 0.2 by trial tune-trial-1"));
    assertThat(plan.status().getProgress()).isEqualTo("4/4");
    assertThat(plan.events()).extracting(TrialEvent::message).contains(
        "trial tune-trial-1 succeeded: loss 0.2 (the best so far)",
        "trial tune-trial-0 succeeded: loss 0.5; best so far 0.2 by trial tune-trial-1");

    spec.getObjectives().get(0).setDirection("Maximize");
    Cluster maximize = new Cluster(spec);
    maximize.reconcile();
    maximize.complete("tune-trial-0", "0.5");
    maximize.complete("tune-trial-1", "0.7");
    maximize.fail("tune-trial-2");
    maximize.complete("tune-trial-3", "0.6");
    assertThat(maximize.reconcile().status().getResult().getTrainJobName()).isEqualTo("tune-trial-1");
  }

  @Test
  void parallelTrialsAreNeverExceededAndNumTrialsAreRunInAll() {
    Random random = new Random(7);
    for (int run = 0; run < 50; run++) {
      int numTrials = 1 + random.nextInt(12);
      int parallel = 1 + random.nextInt(numTrials);
      Cluster cluster = new Cluster(Specs.random((long) run, numTrials, parallel, Specs.uniform("lr", "0.1", "0.2")));
      for (int step = 0; step < 500 && (step == 0 || !cluster.last.phase().isTerminal()); step++) {
        cluster.reconcile();
        assertThat(cluster.running()).as("run %d step %d", run, step).isLessThanOrEqualTo(parallel);
        assertThat(cluster.job.getStatus().getTrials()).hasSizeLessThanOrEqualTo(numTrials);
        for (String name : new ArrayList<>(cluster.trainJobs.keySet())) {
          TrainJob trainJob = cluster.trainJobs.get(name);
          if (trainJob.getStatus() != null && trainJob.getStatus().getConditions() != null) {
            continue;
          }
          switch (random.nextInt(6)) {
            case 0 -> cluster.complete(name, Double.toString(random.nextDouble()));
            case 1 -> cluster.fail(name);
            case 2 -> cluster.trainJobs.remove(name);
            default -> { }
          }
        }
      }
      assertThat(cluster.last.phase().isTerminal()).as("run %d ends", run).isTrue();
      assertThat(cluster.job.getStatus().getTrials()).as("run %d", run).hasSize(numTrials)
          .allSatisfy(t -> assertThat(t.getState()).isNotEqualTo("Running"));
    }
  }

  private static final OptimizationJobSpec RESTARTED = Specs.random(11L, 8, 3, Specs.logUniform("lr", "0.001", "0.1"));

  @Test
  void aRestartedOperatorGivesEachTrialTheValuesItWouldHaveGot() {
    Cluster straight = new Cluster(RESTARTED);
    Cluster restarted = new Cluster(RESTARTED);
    for (int step = 0; step < 8; step++) {
      straight.reconcile();
      // a new process: its own copy of the stored object, nothing in memory
      restarted.job = Copies.deepCopy(restarted.job);
      restarted.reconcile();
      finishOldestRunning(straight);
      finishOldestRunning(restarted);
    }
    straight.reconcile();
    restarted.reconcile();

    assertThat(restarted.job.getStatus().getTrials()).extracting(TrialResult::getParameters)
        .isEqualTo(straight.job.getStatus().getTrials().stream().map(TrialResult::getParameters).toList());
    assertThat(restarted.job.getStatus().getResult()).isEqualTo(straight.job.getStatus().getResult());
  }

  private static void finishOldestRunning(Cluster cluster) {
    cluster.job.getStatus().getTrials().stream().filter(t -> t.getState().equals("Running")).findFirst()
        .ifPresent(t -> cluster.complete(t.getTrainJobName(), t.getParameters().get(0).getValue()));
  }

  @Test
  void aGridUsedUpBeforeNumTrialsCompletesWithSearchSpaceExhausted() {
    Cluster cluster = new Cluster(Specs.grid(5, 5, Specs.categorical("optimizer", "sgd", "adam")));
    TrialPlan first = cluster.reconcile();
    assertThat(first.creations()).hasSize(2);
    cluster.complete("tune-trial-0", "0.3");
    cluster.complete("tune-trial-1", "0.2");

    TrialPlan plan = cluster.reconcile();

    assertThat(plan.phase()).isEqualTo(new OptimizationPhase("Complete", "SearchSpaceExhausted",
        "every one of the 2 grid combinations was tried (2 Succeeded); best loss 0.2 by trial tune-trial-1"));
    assertThat(plan.status().getProgress()).isEqualTo("2/5");
  }

  @Test
  void anInvalidEarlyStoppingAnnotationFailsTheOptimizationJobBeforeAnyTrial() {
    Cluster cluster = new Cluster(sixTrialsTwoAtOnce());
    cluster.job.getMetadata().setAnnotations(Map.of(EARLY_STOPPING, "{\"medianStop\": {\"startProgress\": 0}}"));

    TrialPlan plan = cluster.reconcile();

    assertThat(plan.creations()).isEmpty();
    assertThat(plan.status().getTrials()).isEmpty();
    assertThat(plan.phase().reason()).isEqualTo("InvalidEarlyStopping");
    assertThat(plan.phase().message()).startsWith("metadata.annotations[kftrainer.io/early-stopping]: Invalid value");
  }

  @Test
  void aNameTooLongForItsTrialsFailsTheOptimizationJobBeforeAnyTrial() {
    OptimizationJob job = Specs.job("a".repeat(60), sixTrialsTwoAtOnce());

    TrialPlan plan = TrialPlanner.plan(new TrialPlanner.Input(job, Map.of(), Set.of(), Map.of(), NOW));

    assertThat(plan.creations()).isEmpty();
    assertThat(plan.phase().reason()).isEqualTo("TrainJobsCreationFailed");
    assertThat(plan.phase().message()).contains("must be no more than 63 characters");
  }

  @Test
  void terminalIsFinalButLateTrialsAreStillRecorded() {
    Cluster cluster = new Cluster(Specs.random(1L, 4, 2, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcileAndCrashBeforeCreating();
    cluster.reconcile(Set.of("tune-trial-0"), Map.of("tune-trial-1", new CreationFailure("invalid", true)));
    assertThat(cluster.last.phase().type()).isEqualTo("Failed");
    assertThat(cluster.trainJobs).containsOnlyKeys("tune-trial-0");

    cluster.complete("tune-trial-0", "0.1");
    TrialPlan plan = cluster.reconcile();

    assertThat(plan.creations()).isEmpty();
    assertThat(plan.phase().reason()).isEqualTo("TrainJobsCreationFailed");
    assertThat(cluster.trial(0).getState()).isEqualTo("Succeeded");
    assertThat(plan.status().getResult().getTrainJobName()).isEqualTo("tune-trial-0");
  }

  @Test
  void earlyStoppingStopsARunningTrialWorseThanTheMedianOfSucceededTrialsAtTheSameProgress() {
    Cluster cluster = new Cluster(Specs.grid(5, 1, Specs.categorical("lr", "0.1", "0.2", "0.3", "0.0001", "0.4")));
    cluster.job.getMetadata().setAnnotations(Map.of(EARLY_STOPPING,
        "{\"medianStop\": {\"minTrialsRequired\": 3, \"startProgress\": 50}}"));
    String[] halfwayLoss = {"0.30", "0.20", "0.40"};
    for (int i = 0; i < 3; i++) {
      cluster.reconcile();
      String name = "tune-trial-" + i;
      cluster.report(name, 40, "0.9");
      cluster.reconcile();
      assertThat(cluster.trial(i).getEarlyStoppingObservation()).as("not yet at 50%").isNull();
      cluster.report(name, 55, halfwayLoss[i]);
      cluster.reconcile();
      assertThat(cluster.trial(i).getEarlyStoppingObservation().getProgressPercentage()).isEqualTo(55);
      cluster.complete(name, "0.1");
    }
    cluster.reconcile();
    cluster.report("tune-trial-3", 60, "0.31");

    TrialPlan stop = cluster.reconcile();

    assertThat(cluster.trial(3)).extracting(TrialResult::getState, TrialResult::getReason, TrialResult::getCompletionTime)
        .containsExactly("EarlyStopped", "MedianStop", "2026-11-24T10:00:00Z");
    assertThat(cluster.trial(3).getMetrics()).extracting(m -> m.getValue()).containsExactly("0.31");
    assertThat(stop.deletions()).containsExactly("tune-trial-3");
    assertThat(cluster.trainJobs).doesNotContainKey("tune-trial-3");
    assertThat(stop.events()).extracting(TrialEvent::message).contains("trial tune-trial-3 stopped at 60%: loss 0.31 is "
        + "worse than the median 0.3 of 3 succeeded trials at 50% or more");
    assertThat(stop.creations()).extracting(t -> t.getMetadata().getName()).containsExactly("tune-trial-4");

    cluster.report("tune-trial-4", 50, "0.25");
    cluster.reconcile();
    assertThat(cluster.trial(4).getState()).as("better than the median").isEqualTo("Running");
    assertThat(cluster.trial(4).getEarlyStoppingObservation().getMetrics()).extracting(m -> m.getValue())
        .containsExactly("0.25");
    cluster.report("tune-trial-4", 90, "0.9");
    cluster.reconcile();
    assertThat(cluster.trial(4).getState()).as("checked once, at its first report past 50%").isEqualTo("Running");
  }

  @Test
  void withoutTheAnnotationNoTrialIsObservedOrStopped() {
    Cluster cluster = new Cluster(Specs.random(1L, 1, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.report("tune-trial-0", 80, "100");

    TrialPlan plan = cluster.reconcile();

    assertThat(plan.deletions()).isEmpty();
    assertThat(cluster.trial(0).getEarlyStoppingObservation()).isNull();
    assertThat(plan.events()).isEmpty();
  }

  @Test
  void theRecordsOfAStoredHistoryAreReadNotRecomputed() {
    Cluster cluster = new Cluster(Specs.random(1L, 3, 1, Specs.uniform("lr", "0.1", "0.2")));
    cluster.reconcile();
    cluster.complete("tune-trial-0", "0.3");
    cluster.reconcile();
    // a history another process wrote: trial 0's values are what the record says, not what the seed gives
    cluster.trial(0).getParameters().get(0).setValue("0.15");
    cluster.trial(0).getMetrics().get(0).setValue("0.01");

    TrialPlan plan = cluster.reconcile();

    assertThat(plan.status().getResult().getParameters().get(0).getValue()).isEqualTo("0.15");
    assertThat(plan.status().getResult().getMetrics().get(0).getValue()).isEqualTo("0.01");
  }
}
