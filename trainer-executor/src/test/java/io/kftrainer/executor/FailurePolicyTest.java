package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JobSet v0.12's {@code failurePolicy} and the Jobs' {@code podFailurePolicy} as the executor plays them, with the
 * real controllers' reasons, messages, counters and conditions (issue 35, item 1). trainer-deploy's
 * {@code ChartOnKubernetesIT} runs the restart and fatal cases against the real JobSet and Job controllers.
 */
class FailurePolicyTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String NS = "default";

  @TempDir
  static Path runDir;

  private static ExecutorOnApiServer local;
  private static KubernetesClient client;
  private static final List<String> PROGRESS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    local = ExecutorOnApiServer.start(runDir, PROGRESS::add);
    client = local.client();
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void aThirdFailurePastMaxRestartsTwoFailsTheJobSetWithReachedMaxRestartsNamingTheFirstFailedJob() {
    create("""
        metadata: {name: thrice}
        spec:
          failurePolicy: {maxRestarts: 2}
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                parallelism: 2
                completions: 2
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'if [ "$JOB_COMPLETION_INDEX" = 1 ]; then exit 3; fi; sleep 30']
        """);

    JobSet failed = awaitCondition("thrice", "Failed");

    assertThat(failed.getStatus().getRestarts()).isEqualTo(2);
    assertThat(failed.getStatus().getRestartsCountTowardsMax()).isEqualTo(2);
    assertThat(failed.getStatus().getTerminalState()).isEqualTo("Failed");
    assertThat(failed.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus() + "/"
        + c.getReason() + ": " + c.getMessage()).contains(
            "Failed=True/ReachedMaxRestarts: jobset failed due to reaching max number of restarts (first failed job: "
                + "thrice-node-0)",
            "RestartingJobSet=False/JobSetFailed: jobset failed");
    Job job = client.batch().v1().jobs().inNamespace(NS).withName("thrice-node-0").get();
    assertThat(job.getMetadata().getLabels()).containsEntry("jobset.sigs.k8s.io/restart-attempt", "2");
    assertThat(job.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> assertThat(c.getReason() + ": " + c.getMessage())
            .startsWith("BackoffLimitExceeded: Job has reached the specified backoff limit: pod thrice-node-0-1-"));
    // Events are written after the status, as JobSet's controller emits them
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(events("thrice"))
        .extracting(e -> e.getReason() + ": " + e.getMessage()).containsSubsequence(
        "DefaultFailurePolicy: applying RestartJobSet failure policy action (first failed job: thrice-node-0)",
        "RestartJobSetFailurePolicyAction: applying RestartJobSet failure policy action (first failed job: "
            + "thrice-node-0)",
        "ReachedMaxRestarts: jobset failed due to reaching max number of restarts (first failed job: "
            + "thrice-node-0)"));
    assertThat(PROGRESS).filteredOn(line -> line.startsWith("jobset default/thrice: restarting")).hasSize(2);
  }

  @Test
  void anExitCodeTheRuntimeDeclaresFatalFailsTheJobSetAtOnceWithoutARestart() {
    create("""
        metadata: {name: fatal}
        spec:
          failurePolicy:
            maxRestarts: 3
            rules:
            - {name: disrupted, action: RestartJobSetAndIgnoreMaxRestarts, onJobFailureReasons: [PodFailurePolicy],
               onJobFailureMessagePatterns: ['has condition DisruptionTarget']}
            - {name: fatal, action: FailJobSet, onJobFailureReasons: [PodFailurePolicy]}
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                podFailurePolicy:
                  rules:
                  - {action: FailJob, onPodConditions: [{type: DisruptionTarget, status: "True"}]}
                  - {action: FailJob, onExitCodes: {operator: In, values: [42]}}
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'echo "bad config"; exit 42']
        """);

    JobSet failed = awaitCondition("fatal", "Failed");

    assertThat(failed.getStatus().getRestarts()).isNull(); // 0, which JobSet omits
    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> assertThat(c.getReason() + ": " + c.getMessage()).isEqualTo("FailJobSetFailurePolicyAction: "
            + "applying FailJobSet failure policy action (first failed job: fatal-node-0)"));
    Job job = client.batch().v1().jobs().inNamespace(NS).withName("fatal-node-0").get();
    assertThat(job.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> assertThat(c.getReason() + ": " + c.getMessage()).matches("PodFailurePolicy: Container node "
            + "for pod default/fatal-node-0-0-\\w{5} failed with exit code 42 matching FailJob rule at index 1"));
    assertThat(PROGRESS).noneMatch(line -> line.startsWith("jobset default/fatal: restarting"));
  }

  @Test
  void aRuleThatIgnoresMaxRestartsRestartsWithoutCountingAndOneForAnotherReplicatedJobDoesNotApply() {
    create("""
        metadata: {name: ignored}
        spec:
          failurePolicy:
            rules:
            - {name: other, action: FailJobSet, targetReplicatedJobs: [launcher]}
            - {name: free, action: RestartJobSetAndIgnoreMaxRestarts, onJobFailureReasons: [BackoffLimitExceeded],
               targetReplicatedJobs: [node]}
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'if [ "$ATTEMPT" = 0 ]; then exit 1; fi']
                      env:
                      - name: ATTEMPT
                        valueFrom: {fieldRef: {fieldPath: "metadata.annotations['jobset.sigs.k8s.io/restart-attempt']"}}
        """);

    JobSet done = awaitCondition("ignored", "Completed");

    assertThat(done.getStatus().getRestarts()).isEqualTo(1);
    assertThat(done.getStatus().getRestartsCountTowardsMax()).isNull();
    assertThat(done.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus() + "/"
        + c.getReason()).contains("RestartingJobSet=False/JobSetCompleted");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(events("ignored"))
        .extracting(e -> e.getReason() + ": " + e.getMessage()).contains(
        "FailurePolicy_free: applying RestartJobSetAndIgnoreMaxRestarts failure policy action (first failed job: "
            + "ignored-node-0)",
        "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction: applying RestartJobSetAndIgnoreMaxRestarts failure "
            + "policy action (first failed job: ignored-node-0)"));
  }

  @Test
  void aPodFailureThePolicyIgnoresIsReplacedWithoutCountingTowardsTheBackoffLimit() {
    Path marker = runDir.resolve("ignored-once");
    create("""
        metadata: {name: replaced}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: 0
                podFailurePolicy:
                  rules:
                  - {action: Ignore, onExitCodes: {containerName: node, operator: In, values: [7]}}
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - name: node
                      image: busybox
                      command: [sh, -c, 'if [ ! -e %s ]; then touch %s; exit 7; fi']
        """.formatted(marker, marker));

    JobSet done = awaitCondition("replaced", "Completed");

    assertThat(done.getStatus().getRestarts()).isNull();
    Job job = client.batch().v1().jobs().inNamespace(NS).withName("replaced-node-0").get();
    assertThat(job.getStatus().getFailed()).isZero();
    assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
  }

  private static List<Event> events(String jobSet) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> "JobSet".equals(e.getInvolvedObject().getKind())
            && jobSet.equals(e.getInvolvedObject().getName()))
        .sorted(java.util.Comparator.comparing(e -> Long.parseLong(e.getMetadata().getResourceVersion()))).toList();
  }

  private static void create(String yaml) {
    local.create("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n" + yaml);
  }

  private static JobSet awaitCondition(String name, String type) {
    return local.awaitCondition(name, type, TIMEOUT);
  }
}
