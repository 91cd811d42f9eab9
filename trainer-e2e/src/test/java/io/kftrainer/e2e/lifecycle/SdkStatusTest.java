package io.kftrainer.e2e.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SdkStatus;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.StandInJobSetController;
import io.kftrainer.e2e.support.TrainJobs;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the Kubeflow SDK shows ({@link SdkStatus}) for a TrainJob of the operator: {@code Created} until its node
 * pods run, then {@code Running}, then {@code Complete}, as for upstream's operator. With {@code --created-condition}
 * the SDK never shows {@code Running}: the documented consequence of that option. The test plays the JobSet
 * controller (JobSet status) and the kubelet (node pods and their phase).
 */
@ExtendWith(SharedLocalOperator.class)
class SdkStatusTest {

  private static LocalOperator operator;

  @BeforeAll
  static void connect(LocalOperator local) {
    operator = local;
  }

  @Test
  void theSdkShowsATrainJobRunningThenComplete() {
    TrainJobs trainJobs = new TrainJobs(operator.client(), operator.createNamespace("sdk"));
    trainJobs.create(Manifests.resource("manifests/torch-trainjob.yaml", "sdk"));
    trainJobs.awaitJobSet("sdk");
    assertThat(SdkStatus.of(operator.client(), trainJobs.get("sdk"))).isEqualTo(SdkStatus.CREATED);

    runNodePods(operator.client(), trainJobs.namespace(), "sdk", 2);

    assertThat(SdkStatus.of(operator.client(), trainJobs.get("sdk"))).isEqualTo(SdkStatus.RUNNING);
    new StandInJobSetController(operator.client()).complete(trainJobs.namespace(), "sdk");
    await().atMost(TrainJobs.REACTION)
        .until(() -> SdkStatus.of(operator.client(), trainJobs.get("sdk")), "Complete"::equals);
  }

  @Test
  void withTheCreatedConditionTheSdkNeverShowsRunning() {
    try (LocalOperator withCreated = LocalOperator.start("sdk-created-condition", List.of("--created-condition"))) {
      TrainJobs trainJobs = new TrainJobs(withCreated.client(), withCreated.createNamespace("sdk"));
      trainJobs.create(Manifests.resource("manifests/torch-trainjob.yaml", "sdk"));
      trainJobs.awaitCondition("sdk", "Created", "True");

      runNodePods(withCreated.client(), trainJobs.namespace(), "sdk", 2);

      assertThat(SdkStatus.of(withCreated.client(), trainJobs.get("sdk"))).isEqualTo(SdkStatus.CREATED);
    }
  }

  /** The node pods of the JobSet as the JobSet controller and the kubelet leave them: labelled and Running. */
  private static void runNodePods(KubernetesClient client, String namespace, String jobSet, int nodes) {
    for (int index = 0; index < nodes; index++) {
      Pod pod = client.resource(new PodBuilder()
          .withNewMetadata().withNamespace(namespace).withName(jobSet + "-node-0-" + index)
          .addToLabels("jobset.sigs.k8s.io/jobset-name", jobSet)
          .addToLabels("jobset.sigs.k8s.io/replicatedjob-name", "node")
          .addToLabels("batch.kubernetes.io/job-completion-index", String.valueOf(index))
          .endMetadata()
          .withNewSpec().addNewContainer().withName("node").withImage("pytorch").endContainer().endSpec()
          .build()).create();
      pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
      client.resource(pod).updateStatus();
    }
  }
}
