package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.ChildObjects;
import io.kftrainer.operator.app.TrainerOperator;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TrainJob controller end to end, against the embedded API server, with the built-in plugins: one operator for
 * the class, one namespace per test.
 */
class TrainJobControllerTest {

  private static TestCluster cluster;
  private static TrainerOperator operator;

  @BeforeAll
  static void startOperator(@TempDir Path pluginsDir) {
    cluster = TestCluster.start();
    operator = cluster.startOperator(TestCluster.config(pluginsDir));
  }

  @AfterAll
  static void stopOperator() {
    cluster.close();
  }

  @Test
  void aTrainJobGetsItsJobSetOwnedByItAndTheCreatedCondition() {
    String ns = "created";
    cluster.createRuntimes(ns);
    TrainJob trainJob = cluster.createTrainJob(ns, "alpha", tj -> {
    });

    Condition created = cluster.awaitCondition(ns, "alpha", "Created", "True");

    assertThat(created.getReason()).isEqualTo("JobsCreated");
    JobSet jobSet = cluster.jobSet(ns, "alpha").orElseThrow();
    assertThat(jobSet.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
      assertThat(ref.getUid()).isEqualTo(trainJob.getMetadata().getUid());
      assertThat(ref.getKind()).isEqualTo("TrainJob");
      assertThat(ref.getController()).isTrue();
      assertThat(ref.getBlockOwnerDeletion()).isTrue();
    });
    assertThat(jobSet.getMetadata().getLabels()).containsEntry(ChildObjects.TRAINJOB_NAME_LABEL, "alpha");
    cluster.server().requests().forEach(r -> System.err.println("REQ " + r.time() + " " + r));
  }
}
