package io.kftrainer.e2e.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.JobStatus;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.StandInJobSetController;
import io.kftrainer.e2e.support.TrainJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The TrainJob's status follows its JobSet's, which the test writes in the JobSet controller's place
 * ({@link StandInJobSetController}): running Jobs show in {@code jobsStatus}; a completed JobSet makes the TrainJob
 * {@code Complete}, a failed one {@code Failed}, with the JobSet's reason and message, a matching Event, and the
 * final Job counters.
 */
@ExtendWith(SharedLocalOperator.class)
class TrainJobStatusTest {

  private static LocalOperator operator;
  private static KubernetesClient client;
  private static StandInJobSetController jobSetController;
  private TrainJobs trainJobs;

  @BeforeAll
  static void connect(LocalOperator local) {
    operator = local;
    client = local.client();
    jobSetController = new StandInJobSetController(client);
  }

  @BeforeEach
  void namespace() {
    trainJobs = new TrainJobs(client, operator.createNamespace("status"));
  }

  @Test
  void trainJobGoesFromCreatedToComplete() {
    String namespace = trainJobs.namespace();
    trainJobs.create(Manifests.resource("manifests/mpi-trainjob.yaml", "finishes"));
    trainJobs.awaitJobSet("finishes");

    jobSetController.run(namespace, "finishes");

    await().atMost(TrainJobs.REACTION).untilAsserted(() -> {
      TrainJobStatus status = trainJobs.get("finishes").getStatus();
      assertThat(status).as("status of TrainJob finishes").isNotNull();
      assertThat(status.getJobsStatus())
          .extracting(JobStatus::getName, JobStatus::getActive, JobStatus::getReady, JobStatus::getSucceeded,
              JobStatus::getFailed)
          .containsExactly(tuple("node", 1, 1, 0, 0), tuple("launcher", 1, 1, 0, 0));
    });
    assertThat(TrainJobs.condition(trainJobs.get("finishes"), "Complete")).isEmpty();

    jobSetController.complete(namespace, "finishes");

    TrainJob complete = trainJobs.awaitCondition("finishes", "Complete", "True");
    assertThat(TrainJobs.condition(complete, "Complete")).hasValueSatisfying(condition -> {
      assertThat(condition.getReason()).isEqualTo(StandInJobSetController.COMPLETED_REASON);
      assertThat(condition.getMessage()).isEqualTo(StandInJobSetController.COMPLETED_MESSAGE);
    });
    assertThat(TrainJobs.condition(complete, "Failed")).isEmpty();
    assertThat(complete.getStatus().getConditions()).last()
        .satisfies(last -> assertThat(last.getType()).isEqualTo("Complete"));
    assertThat(complete.getStatus().getJobsStatus())
        .extracting(JobStatus::getName, JobStatus::getActive, JobStatus::getSucceeded, JobStatus::getFailed)
        .containsExactly(tuple("node", 0, 1, 0), tuple("launcher", 0, 1, 0));
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(trainJobs.events("finishes"))
        .extracting(Event::getType, Event::getReason, Event::getMessage)
        .containsExactly(
            tuple("Normal", StandInJobSetController.COMPLETED_REASON, StandInJobSetController.COMPLETED_MESSAGE)));
  }

  @Test
  void trainJobGoesFromCreatedToFailed() {
    String namespace = trainJobs.namespace();
    trainJobs.create(Manifests.resource("manifests/torch-trainjob.yaml", "breaks"));
    trainJobs.awaitJobSet("breaks");

    jobSetController.fail(namespace, "breaks");

    TrainJob failed = trainJobs.awaitCondition("breaks", "Failed", "True");
    assertThat(TrainJobs.condition(failed, "Failed")).hasValueSatisfying(condition -> {
      assertThat(condition.getReason()).isEqualTo(StandInJobSetController.FAILED_REASON);
      assertThat(condition.getMessage()).isEqualTo(StandInJobSetController.FAILED_MESSAGE);
    });
    assertThat(TrainJobs.condition(failed, "Complete")).isEmpty();
    assertThat(failed.getStatus().getJobsStatus())
        .extracting(JobStatus::getName, JobStatus::getActive, JobStatus::getSucceeded, JobStatus::getFailed)
        .containsExactly(tuple("node", 0, 0, 1));
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(trainJobs.events("breaks"))
        .extracting(Event::getType, Event::getReason, Event::getMessage)
        .containsExactly(
            tuple("Warning", StandInJobSetController.FAILED_REASON, StandInJobSetController.FAILED_MESSAGE)));
  }
}
