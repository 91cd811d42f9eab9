package io.kftrainer.runtime;

import io.kftrainer.api.CrdDefaults;
import io.kftrainer.api.TrainJobDefaults;
import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Yaml;
import org.junit.jupiter.api.Test;

class TrainJobDefaultsTest {

  @Test
  void aMinimalTrainJobGetsTheApiServerDefaultsInACopy() {
    TrainJob trainJob = Fixtures.trainJob("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: job}
        spec:
          runtimeRef: {name: torch-distributed}
        """);
    String before = Yaml.dump(trainJob);

    TrainJob defaulted = TrainJobDefaults.defaulted(trainJob);

    assertThat(defaulted.getSpec().getRuntimeRef().getApiGroup()).isEqualTo("trainer.kubeflow.org");
    assertThat(defaulted.getSpec().getRuntimeRef().getKind()).isEqualTo("ClusterTrainingRuntime");
    assertThat(defaulted.getSpec().getManagedBy()).isEqualTo("trainer.kubeflow.org/trainjob-controller");
    assertThat(defaulted.getSpec().getSuspend()).isFalse();
    assertThat(defaulted.getSpec().getTrainer()).isNull();
    assertThat(Yaml.dump(trainJob)).isEqualTo(before);
  }

  @Test
  void givenValuesAreKept() {
    TrainJob trainJob = Fixtures.trainJob("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: job}
        spec:
          runtimeRef: {name: mine, kind: TrainingRuntime, apiGroup: trainer.kubeflow.org}
          suspend: true
          managedBy: kueue.x-k8s.io/multikueue
        """);

    TrainJob defaulted = TrainJobDefaults.defaulted(trainJob);

    assertThat(defaulted).isEqualTo(trainJob);
  }
}
