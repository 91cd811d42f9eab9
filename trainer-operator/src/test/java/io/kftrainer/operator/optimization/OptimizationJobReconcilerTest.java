package io.kftrainer.operator.optimization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrialResult;
import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.operator.controller.TestCluster;
import io.kftrainer.optimization.SuggestionAlgorithm;
import io.kftrainer.optimization.TrialSeeds;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OptimizationJob controller in an operator against the embedded API server, the test playing the JobSet
 * controller ({@link TestCluster#setJobSetStatus}) and the training code (it patches {@code status.trainerStatus}).
 */
class OptimizationJobReconcilerTest {

  private static final String NS = "hpo";

  @TempDir
  Path pluginsDir;

  private TestCluster cluster;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    cluster = TestCluster.start();
    client = cluster.client();
    cluster.createRuntimes(NS);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void trialsRunAsTrainJobsTwoAtATimeAndTheBestOneIsTheResult() {
    TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir));
    OptimizationJob job = client.resource(OptimizationJobs.typed(NS, "tune")).create();

    List<TrainJob> first = awaitTrials(2);
    TrainJob trial0 = trainJob("tune-trial-0");
    TrialResult record0 = status().getTrials().get(0);
    assertThat(first).extracting(t -> t.getMetadata().getName()).containsExactlyInAnyOrder("tune-trial-0", "tune-trial-1");
    assertThat(trial0.getMetadata().getLabels()).containsEntry("team", "vision")
        .containsEntry("trainer.kubeflow.org/optimization-job", "tune");
    assertThat(trial0.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(job.getMetadata().getUid()));
    assertThat(trial0.getSpec().getTrainer().getEnv()).containsExactly(
        new EnvVar("KUBEFLOW_TRAINER_OPT_LR", record0.getParameters().get(0).getValue(), null),
        new EnvVar("KUBEFLOW_TRAINER_OPT_BATCH_SIZE", record0.getParameters().get(1).getValue(), null));
    assertThat(status().getProgress()).isEqualTo("0/3");
    assertThat(Conditions.find(status().getConditions(), "Running")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("TrialsRunning");
    });
    List<ApiRequest> writes = cluster.writesIn(NS);
    int firstStatusWrite = indexOf(writes, "PATCH", "/optimizationjobs/tune/status");
    int firstCreate = indexOf(writes, "POST", "/trainjobs");
    assertThat(firstStatusWrite).as("the history is written before the first trial TrainJob").isLessThan(firstCreate);

    report("tune-trial-0", "0.5");
    finish("tune-trial-0", "Completed");
    awaitTrials(3);
    finish("tune-trial-1", "Failed");
    report("tune-trial-2", "0.2");
    finish("tune-trial-2", "Completed");

    OptimizationJobStatus done = await().atMost(TestCluster.TIMEOUT)
        .until(this::status, s -> Conditions.isTrue(s.getConditions(), "Complete"));
    assertThat(done.getTrials()).extracting(TrialResult::getState, TrialResult::getReason).containsExactly(
        tuple("Succeeded", null),
        tuple("Failed", "TrainJobFailed"),
        tuple("Succeeded", null));
    assertThat(done.getResult().getTrainJobName()).isEqualTo("tune-trial-2");
    assertThat(done.getResult().getParameters()).isEqualTo(done.getTrials().get(2).getParameters());
    assertThat(done.getProgress()).isEqualTo("3/3");
    assertThat(Conditions.find(done.getConditions(), "Complete").orElseThrow().getReason())
        .isEqualTo("MaxTrialsReached");
    assertThat(Conditions.find(done.getConditions(), "Running").orElseThrow().getStatus()).isEqualTo("False");
    await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> assertThat(events()).extracting(Event::getReason)
        .contains("TrialStarted", "TrialSucceeded", "TrialFailed", "MaxTrialsReached"));
    assertThat(events()).filteredOn(e -> e.getReason().equals("TrialStarted")).hasSize(3);

    // the best trial's TrainJob deleted: the history does not change
    String resourceVersion = client.resources(OptimizationJob.class).inNamespace(NS).withName("tune").get()
        .getMetadata().getResourceVersion();
    double reconciles = TestCluster.reconcilesSucceeded(operator.meterRegistry());
    client.resources(TrainJob.class).inNamespace(NS).withName("tune-trial-2").delete();
    await().atMost(TestCluster.TIMEOUT).until(() -> TestCluster.reconcilesSucceeded(operator.meterRegistry())
        > reconciles && trainJobOrNull("tune-trial-2") == null);
    assertThat(status()).isEqualTo(done);
    assertThat(client.resources(OptimizationJob.class).inNamespace(NS).withName("tune").get().getMetadata()
        .getResourceVersion()).as("no write").isEqualTo(resourceVersion);

    // the OptimizationJob deleted: its trials go with it
    client.resource(job).delete();
    await().atMost(TestCluster.TIMEOUT).until(() -> trials().isEmpty());
  }

  @Test
  void anOperatorStartedAgainContinuesWithTheValuesTheSeedGives() {
    TrainerOperator first = cluster.startOperator(TestCluster.config(pluginsDir));
    OptimizationJob job = OptimizationJobs.typed(NS, "again");
    job.getSpec().setNumTrials(2);
    job.getSpec().setParallelTrials(1);
    OptimizationJob created = client.resource(job).create();
    awaitTrials(1);
    first.stop();

    cluster.startOperator(TestCluster.config(pluginsDir));
    report("again-trial-0", "0.3");
    finish("again-trial-0", "Completed");

    TrainJob second = await().atMost(TestCluster.TIMEOUT).until(() -> trainJobOrNull("again-trial-1"),
        Objects::nonNull);
    List<ParameterAssignment> expected = SuggestionAlgorithm.of(created.getSpec(),
        TrialSeeds.fromUid(created.getMetadata().getUid())).suggest(1).orElseThrow();
    assertThat(second.getSpec().getTrainer().getEnv()).extracting(EnvVar::getValue)
        .containsExactly(expected.get(0).getValue(), expected.get(1).getValue());
  }

  @Test
  void anInvalidTrialTrainJobFailsTheOptimizationJobWithTheApiServersMessage() {
    cluster.startOperator(TestCluster.config(pluginsDir));
    OptimizationJob job = OptimizationJobs.typed(NS, "invalid");
    // the labels of a template are not checked as labels (as in kube-apiserver): the trial's are, when it is created
    job.getSpec().getTrainJobTemplate().getMetadata().setLabels(Map.of("team", "vision team"));
    client.resource(job).create();

    OptimizationJobStatus status = await().atMost(TestCluster.TIMEOUT)
        .until(() -> client.resources(OptimizationJob.class).inNamespace(NS).withName("invalid").get().getStatus(),
            s -> s != null && Conditions.isTrue(s.getConditions(), "Failed"));

    assertThat(Conditions.find(status.getConditions(), "Failed").orElseThrow().getMessage()).startsWith(
        "cannot create trial TrainJob invalid-trial-0: TrainJob.trainer.kubeflow.org \"invalid-trial-0\" is invalid: "
            + "metadata.labels: Invalid value: \"vision team\"");
    assertThat(status.getTrials()).extracting(TrialResult::getState, TrialResult::getReason)
        .containsOnly(tuple("Failed", "TrainJobCreationFailed"));
    assertThat(trials()).isEmpty();
  }

  private List<TrainJob> awaitTrials(int count) {
    return await().atMost(TestCluster.TIMEOUT).until(this::trials, list -> list.size() == count);
  }

  private List<TrainJob> trials() {
    return client.resources(TrainJob.class).inNamespace(NS).withLabel("trainer.kubeflow.org/optimization-job").list()
        .getItems();
  }

  private TrainJob trainJob(String name) {
    return Objects.requireNonNull(trainJobOrNull(name), name);
  }

  private TrainJob trainJobOrNull(String name) {
    return client.resources(TrainJob.class).inNamespace(NS).withName(name).get();
  }

  private OptimizationJobStatus status() {
    return client.resources(OptimizationJob.class).inNamespace(NS).withName("tune").get().getStatus();
  }

  private List<Event> events() {
    return cluster.events(NS, "tune");
  }

  /** What the training code does through the status server: its loss into {@code status.trainerStatus}. */
  private void report(String trial, String loss) {
    client.resources(TrainJob.class).inNamespace(NS).withName(trial).subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"trainerStatus\":{\"progressPercentage\":100,"
            + "\"metrics\":[{\"name\":\"loss\",\"value\":\"" + loss + "\"}],"
            + "\"lastUpdatedTime\":\"2026-11-24T10:00:00Z\"}}}");
  }

  /** What the JobSet controller does: the trial's JobSet ends, and the TrainJob controller copies its condition. */
  private void finish(String trial, String jobSetCondition) {
    cluster.awaitJobSet(NS, trial);
    cluster.setJobSetStatus(NS, trial, jobSetCondition, jobSetCondition.equals("Completed") ? "AllJobsCompleted"
        : "FailedJobs", "done", Map.of("name", "node", "ready", 0, "succeeded", 1, "failed", 0, "active", 0,
        "suspended", 0));
    cluster.awaitCondition(NS, trial, jobSetCondition.equals("Completed") ? "Complete" : "Failed", "True");
  }

  private static int indexOf(List<ApiRequest> writes, String method, String pathEnd) {
    for (int i = 0; i < writes.size(); i++) {
      if (writes.get(i).method().equals(method) && writes.get(i).path().endsWith(pathEnd)) {
        return i;
      }
    }
    throw new AssertionError("no " + method + " *" + pathEnd + " among " + writes);
  }
}
