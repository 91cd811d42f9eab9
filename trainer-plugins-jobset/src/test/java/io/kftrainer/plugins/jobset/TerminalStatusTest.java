package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.TerminalStatus;
import io.kftrainer.framework.runner.BuildOutcome;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.InMemoryObjectLookup;
import io.kftrainer.testkit.TestPipeline;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TerminalStatusTest {

  private static final String RUNNING_JOBS = """
          replicatedJobsStatus:
            - {name: dataset-initializer, ready: 0, succeeded: 1, failed: 0, active: 0, suspended: 0}
            - {name: node, ready: 1, succeeded: 0, failed: 0, active: 1, suspended: 0}
        """;

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("without a JobSet there is nothing to report", null, Optional.empty()),
        Arguments.of("a JobSet without status reports no condition and no jobs", jobSet(""),
            Optional.of(TerminalStatus.builder().build())),
        Arguments.of("a running JobSet reports its jobs and no terminal condition",
            jobSet("""
                  conditions:
                    - type: StartupPolicyInProgress
                      status: "True"
                      reason: StartupPolicyInProgress
                      message: in order startup policy is in progress
                      lastTransitionTime: "2026-03-01T10:00:00Z"
                """ + RUNNING_JOBS),
            Optional.of(TerminalStatus.builder().jobsStatus(runningJobs()).build())),
        Arguments.of("a completed JobSet completes the TrainJob with the JobSet's reason, message and time",
            jobSet("""
                  conditions:
                    - type: Completed
                      status: "True"
                      reason: AllJobsCompleted
                      message: jobset completed successfully
                      lastTransitionTime: "2026-03-01T12:00:00Z"
                """ + RUNNING_JOBS),
            Optional.of(TerminalStatus.builder()
                .terminalCondition(condition("Complete", "AllJobsCompleted", "jobset completed successfully",
                    "2026-03-01T12:00:00Z"))
                .jobsStatus(runningJobs())
                .build())),
        Arguments.of("a failed JobSet fails the TrainJob with the JobSet's reason, message and time",
            jobSet("""
                  conditions:
                    - type: Failed
                      status: "True"
                      reason: FailedJobs
                      message: jobset failed due to one or more job failures
                      lastTransitionTime: "2026-03-01T13:00:00Z"
                """),
            Optional.of(TerminalStatus.builder()
                .terminalCondition(condition("Failed", "FailedJobs", "jobset failed due to one or more job failures",
                    "2026-03-01T13:00:00Z"))
                .build())),
        Arguments.of("whatever reason and message the JobSet failed with are copied",
            jobSet("""
                  conditions:
                    - type: Failed
                      status: "True"
                      reason: ReachedMaxRestarts
                      message: jobset failed due to reaching max number of restarts
                      lastTransitionTime: "2026-03-01T14:00:00Z"
                """),
            Optional.of(TerminalStatus.builder()
                .terminalCondition(condition("Failed", "ReachedMaxRestarts",
                    "jobset failed due to reaching max number of restarts", "2026-03-01T14:00:00Z"))
                .build())),
        Arguments.of("false Completed and Failed conditions are not terminal",
            jobSet("""
                  conditions:
                    - type: Completed
                      status: "False"
                      reason: Running
                      message: not yet
                      lastTransitionTime: "2026-03-01T12:00:00Z"
                    - type: Failed
                      status: "False"
                      reason: Running
                      message: not yet
                      lastTransitionTime: "2026-03-01T12:00:00Z"
                """),
            Optional.of(TerminalStatus.builder().build())),
        Arguments.of("a JobSet both completed and failed reports the failure",
            jobSet("""
                  conditions:
                    - type: Completed
                      status: "True"
                      reason: AllJobsCompleted
                      message: jobset completed successfully
                      lastTransitionTime: "2026-03-01T12:00:00Z"
                    - type: Failed
                      status: "True"
                      reason: FailedJobs
                      message: jobset failed due to one or more job failures
                      lastTransitionTime: "2026-03-01T12:00:01Z"
                """),
            Optional.of(TerminalStatus.builder()
                .terminalCondition(condition("Failed", "FailedJobs", "jobset failed due to one or more job failures",
                    "2026-03-01T12:00:01Z"))
                .build())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void mapsTheJobSetStatus(String name, JobSet jobSet, Optional<TerminalStatus> expected) {
    TrainJob trainJob = trainJob();
    InMemoryObjectLookup cluster = jobSet == null ? InMemoryObjectLookup.of() : InMemoryObjectLookup.of(jobSet);

    Optional<TerminalStatus> status = new JobSetPlugin().terminalStatus(new StatusContext(trainJob, cluster));

    assertThat(status).isEqualTo(expected);
  }

  @Test
  void aCompletedJobSetCompletesTheTrainJobThroughThePostExecutionPhase() {
    JobSet jobSet = jobSet("""
          conditions:
            - type: Completed
              status: "True"
              reason: AllJobsCompleted
              message: jobset completed successfully
              lastTransitionTime: "2026-03-01T12:00:00Z"
        """ + RUNNING_JOBS);

    var result = TestPipeline.of(new JobSetPlugin()).withCluster(jobSet)
        .postExecution(trainJob(), new BuildOutcome.Created(), Instant.parse("2026-03-01T12:05:00Z"));

    Condition complete = Conditions.find(result.status().getConditions(), "Complete").orElseThrow();
    assertThat(complete).isEqualTo(condition("Complete", "AllJobsCompleted", "jobset completed successfully",
        "2026-03-01T12:00:00Z"));
    assertThat(result.status().getJobsStatus()).isEqualTo(runningJobs());
  }

  private static TrainJob trainJob() {
    return Fixtures.trainJob(Fixtures.resource("trainjob/initializers.yaml"));
  }

  private static JobSet jobSet(String status) {
    return (JobSet) Fixtures.object("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata:
          name: tune
          namespace: team-a
        spec:
          suspend: false
        """ + (status.isEmpty() ? "" : "status:\n" + status));
  }

  private static List<JobStatus> runningJobs() {
    return List.of(jobStatus("dataset-initializer", 0, 1, 0, 0, 0), jobStatus("node", 1, 0, 0, 1, 0));
  }

  private static JobStatus jobStatus(String name, int ready, int succeeded, int failed, int active, int suspended) {
    JobStatus status = new JobStatus();
    status.setName(name);
    status.setReady(ready);
    status.setSucceeded(succeeded);
    status.setFailed(failed);
    status.setActive(active);
    status.setSuspended(suspended);
    return status;
  }

  private static Condition condition(String type, String reason, String message, String time) {
    Condition condition = new Condition();
    condition.setType(type);
    condition.setStatus("True");
    condition.setReason(reason);
    condition.setMessage(message);
    condition.setLastTransitionTime(time);
    return condition;
  }
}
