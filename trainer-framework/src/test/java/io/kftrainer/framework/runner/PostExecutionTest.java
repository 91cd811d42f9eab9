package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.RunPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.Yamls;
import io.kftrainer.framework.model.TerminalStatus;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.framework.spi.TerminalCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PostExecutionTest {

  private static final Instant CREATED = Instant.parse("2026-11-01T10:00:00Z");

  private final AtomicReference<TerminalStatus> observed = new AtomicReference<>();
  private final TerminalCondition observer = new TerminalCondition() {
    @Override
    public String name() {
      return "observer";
    }

    @Override
    public Optional<TerminalStatus> terminalStatus(StatusContext context) {
      return Optional.ofNullable(observed.get());
    }
  };
  private PhaseRunner runner = new PhaseRunner(List.of(observer));
  private TrainJob trainJob;

  @BeforeEach
  void setUp() {
    trainJob = Yamls.load("trainjob-with-patches.yaml", TrainJob.class);
    trainJob.getMetadata().setCreationTimestamp(CREATED.toString());
  }

  @Test
  void byDefaultCreatedChildrenAndBuildFailuresWriteNoCondition() {
    PostExecutionResult created = run(BuildOutcome.created(), CREATED.plusSeconds(1));
    PostExecutionResult failed = run(BuildOutcome.buildFailed("BuildFailed", "plugin MPI failed"), CREATED);

    assertThat(created.status().getConditions()).isEmpty();
    assertThat(created.transitions()).isEmpty();
    assertThat(failed.status().getConditions()).isEmpty();
  }

  @Test
  void withTheCreatedOptionCreatedChildrenSetCreatedOnceAndASecondRunChangesNothing() {
    runner = new PhaseRunner(List.of(observer), StatusConditions.WITH_CREATED);
    PostExecutionResult first = run(BuildOutcome.created(), CREATED.plusSeconds(1));
    trainJob.setStatus(first.status());
    PostExecutionResult second = run(BuildOutcome.created(), CREATED.plusSeconds(60));

    assertThat(first.transitions()).extracting(Condition::getType, Condition::getStatus, Condition::getReason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Created", "True", "JobsCreated"));
    assertThat(second.transitions()).isEmpty();
    assertThat(second.status()).isEqualTo(first.status());
  }

  @Test
  void suspendThenResumeFlipsTheSuspendedConditionWithUpstreamReasons() {
    trainJob.getSpec().setSuspend(true);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED).status());
    assertThat(condition("Suspended")).extracting(Condition::getStatus, Condition::getReason, Condition::getMessage)
        .containsExactly("True", "Suspended", "TrainJob is suspended");

    trainJob.getSpec().setSuspend(false);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(30)).status());

    assertThat(condition("Suspended")).extracting(Condition::getStatus, Condition::getReason, Condition::getMessage,
        Condition::getLastTransitionTime).containsExactly("False", "Resumed", "TrainJob is resumed",
        "2026-11-01T10:00:30Z");
  }

  @Test
  void theTerminalConditionAndJobsStatusComeFromThePlugin() {
    JobStatus node = new JobStatus();
    node.setName("node");
    node.setSucceeded(2);
    observed.set(TerminalStatus.builder()
        .terminalCondition(condition("Complete", "True", "AllJobsCompleted", "jobset completed successfully"))
        .addJobsStatus(node)
        .build());

    PostExecutionResult result = run(BuildOutcome.created(), CREATED.plusSeconds(5));

    assertThat(result.status().getConditions()).extracting(Condition::getType).containsExactly("Complete");
    assertThat(result.status().getConditions().get(0).getReason()).isEqualTo("AllJobsCompleted");
    assertThat(result.status().getJobsStatus()).containsExactly(node);
  }

  @Test
  void aFinishedTrainJobKeepsItsTerminalCondition() {
    trainJob.getSpec().setActiveDeadlineSeconds(10L);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(11)).status());
    observed.set(TerminalStatus.builder()
        .terminalCondition(condition("Complete", "True", "AllJobsCompleted", "done")).build());

    PostExecutionResult later = run(BuildOutcome.finished(), CREATED.plusSeconds(100));

    assertThat(later.status().getConditions()).extracting(Condition::getType, Condition::getReason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Failed", "DeadlineExceeded"));
    assertThat(later.transitions()).isEmpty();
    // still failed on its deadline: the operator keeps its workload deleted
    assertThat(later.deadlineExceeded()).isTrue();
  }

  @Test
  void theDeadlineFailsTheTrainJobOnceAndAsksForARequeueBefore() {
    trainJob.getSpec().setActiveDeadlineSeconds(60L);

    PostExecutionResult before = run(BuildOutcome.created(), CREATED.plusSeconds(45));
    PostExecutionResult after = run(BuildOutcome.created(), CREATED.plusSeconds(60));

    assertThat(before.requeueAfter()).contains(Duration.ofSeconds(15));
    assertThat(before.deadlineExceeded()).isFalse();
    assertThat(after.deadlineExceeded()).isTrue();
    assertThat(after.status().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .extracting(Condition::getReason, Condition::getMessage)
        .containsExactly("DeadlineExceeded", "TrainJob exceeded its active deadline");
  }

  @Test
  void aTrainJobThatFailedForAnotherReasonIsNotPastItsDeadline() {
    trainJob.getSpec().setActiveDeadlineSeconds(60L);
    observed.set(TerminalStatus.builder()
        .terminalCondition(condition("Failed", "True", "JobSetFailed", "jobset failed")).build());
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(10)).status());

    PostExecutionResult later = run(BuildOutcome.finished(), CREATED.plusSeconds(100));

    assertThat(later.status().getConditions()).extracting(Condition::getReason).containsExactly("JobSetFailed");
    assertThat(later.deadlineExceeded()).isFalse();
  }

  @Test
  void theDeadlineClockRestartsWhenTheTrainJobIsResumed() {
    trainJob.getSpec().setActiveDeadlineSeconds(60L);
    trainJob.getSpec().setSuspend(true);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED).status());
    PostExecutionResult whileSuspended = run(BuildOutcome.created(), CREATED.plusSeconds(500));
    trainJob.getSpec().setSuspend(false);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(1000)).status());

    PostExecutionResult result = run(BuildOutcome.created(), CREATED.plusSeconds(1030));

    assertThat(whileSuspended.deadlineExceeded()).isFalse();
    assertThat(result.deadlineExceeded()).isFalse();
    assertThat(result.requeueAfter()).contains(Duration.ofSeconds(30));
  }

  @Test
  void startTimeFollowsTheDeadlinesClockAcrossSuspendAndResumeAndStaysOnceFinished() {
    PostExecutionResult running = run(BuildOutcome.created(), CREATED.plusSeconds(2));
    assertThat(running.status().getStartTime()).isEqualTo("2026-11-01T10:00:00Z");

    trainJob.setStatus(running.status());
    trainJob.getSpec().setSuspend(true);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(10)).status());
    assertThat(trainJob.getStatus().getStartTime()).isNull();

    trainJob.getSpec().setSuspend(false);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(100)).status());
    assertThat(trainJob.getStatus().getStartTime()).isEqualTo("2026-11-01T10:01:40Z");
    assertThat(trainJob.getStatus().getCompletionTime()).isNull();

    Condition complete = condition("Complete", "True", "AllJobsCompleted", "done");
    complete.setLastTransitionTime("2026-11-01T10:05:00Z");
    observed.set(TerminalStatus.builder().terminalCondition(complete).build());
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(301)).status());
    assertThat(trainJob.getStatus().getCompletionTime()).isEqualTo("2026-11-01T10:05:00Z");

    // suspending a finished TrainJob changes neither time
    trainJob.getSpec().setSuspend(true);
    PostExecutionResult later = run(BuildOutcome.finished(), CREATED.plusSeconds(900));
    assertThat(later.status().getStartTime()).isEqualTo("2026-11-01T10:01:40Z");
    assertThat(later.status().getCompletionTime()).isEqualTo("2026-11-01T10:05:00Z");
  }

  @Test
  void aTrainJobCreatedSuspendedHasNoStartTimeUntilItIsResumed() {
    trainJob.getSpec().setSuspend(true);
    trainJob.setStatus(run(BuildOutcome.created(), CREATED.plusSeconds(1)).status());
    assertThat(trainJob.getStatus().getStartTime()).isNull();

    trainJob.getSpec().setSuspend(false);
    assertThat(run(BuildOutcome.created(), CREATED.plusSeconds(40)).status().getStartTime())
        .isEqualTo("2026-11-01T10:00:40Z");
  }

  @Test
  void aFailedTrainJobHasNoCompletionTimeAsAFailedJob() {
    observed.set(TerminalStatus.builder()
        .terminalCondition(condition("Failed", "True", "FailedJobs", "jobset failed")).build());

    PostExecutionResult failed = run(BuildOutcome.created(), CREATED.plusSeconds(10));

    assertThat(failed.status().getStartTime()).isEqualTo("2026-11-01T10:00:00Z");
    assertThat(failed.status().getCompletionTime()).isNull();
  }

  @Test
  void theRuntimesRunPolicyDeadlineAppliesUnlessTheTrainJobSetsItsOwn() {
    RunPolicy defaults = new RunPolicy().withActiveDeadlineSeconds(60L);

    PostExecutionResult byRuntime = runner.runPostExecution(trainJob, BuildOutcome.created(), ObjectLookup.empty(),
        CREATED.plusSeconds(45), defaults);
    PostExecutionResult pastRuntimes = runner.runPostExecution(trainJob, BuildOutcome.created(),
        ObjectLookup.empty(), CREATED.plusSeconds(61), defaults);
    trainJob.getSpec().setActiveDeadlineSeconds(600L);
    PostExecutionResult own = runner.runPostExecution(trainJob, BuildOutcome.created(), ObjectLookup.empty(),
        CREATED.plusSeconds(61), defaults);

    assertThat(byRuntime.requeueAfter()).contains(Duration.ofSeconds(15));
    assertThat(pastRuntimes.deadlineExceeded()).isTrue();
    assertThat(own.deadlineExceeded()).isFalse();
    assertThat(own.requeueAfter()).contains(Duration.ofSeconds(539));
    assertThat(run(BuildOutcome.created(), CREATED.plusSeconds(61)).requeueAfter()).contains(Duration.ofSeconds(539));
  }

  @Test
  void aMissingRuntimeFailsTheTrainJobAndWithTheCreatedOptionABuildFailureLeavesItNotCreated() {
    runner = new PhaseRunner(List.of(observer), StatusConditions.WITH_CREATED);
    PostExecutionResult missing = run(
        BuildOutcome.runtimeUnavailable("TrainingRuntimeNotSupported", "unsupported runtime: Foo.bar"), CREATED);
    PostExecutionResult failed = run(BuildOutcome.buildFailed("BuildFailed", "plugin MPI failed"), CREATED);

    assertThat(missing.status().getConditions()).singleElement()
        .extracting(Condition::getType, Condition::getStatus, Condition::getReason)
        .containsExactly("Failed", "True", "TrainingRuntimeNotSupported");
    assertThat(failed.status().getConditions()).singleElement()
        .extracting(Condition::getType, Condition::getStatus, Condition::getMessage)
        .containsExactly("Created", "False", "plugin MPI failed");
  }

  @Test
  void theTrainJobsOwnStatusIsNotChanged() {
    trainJob.setStatus(run(BuildOutcome.created(), CREATED).status());
    String before = Yamls.json(trainJob);

    trainJob.getSpec().setSuspend(true);
    run(BuildOutcome.created(), CREATED.plusSeconds(5));
    trainJob.getSpec().setSuspend(null);

    assertThat(Yamls.json(trainJob)).isEqualTo(before);
  }

  private PostExecutionResult run(BuildOutcome outcome, Instant now) {
    return runner.runPostExecution(trainJob, outcome, ObjectLookup.empty(), now);
  }

  private Condition condition(String type) {
    return Conditions.find(trainJob.getStatus().getConditions(), type).orElseThrow();
  }

  private static Condition condition(String type, String status, String reason, String message) {
    Condition condition = new Condition();
    condition.setType(type);
    condition.setStatus(status);
    condition.setReason(reason);
    condition.setMessage(message);
    return condition;
  }
}
