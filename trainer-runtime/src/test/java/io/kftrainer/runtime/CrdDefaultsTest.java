package io.kftrainer.runtime;

import io.kftrainer.api.CrdDefaults;
import io.kftrainer.api.TrainJobDefaults;
import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.testkit.Fixtures;
import org.junit.jupiter.api.Test;

class CrdDefaultsTest {

  private static final String RUNTIME = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: ClusterTrainingRuntime
      metadata:
        name: mpi
      spec:
        mlPolicy:
          mpi: {}
        podGroupPolicy:
          coscheduling: {}
        template:
          spec:
            replicatedJobs:
              - name: launcher
                template: {spec: {template: {spec: {containers: [{name: node, image: mpi}]}}}}
              - name: node
                replicas: 2
                groupName: workers
                template: {spec: {template: {spec: {containers: [{name: node, image: mpi}]}}}}
      """;

  @Test
  void unsetFieldsOfPresentObjectsGetTheirCrdDefaults() {
    ClusterTrainingRuntime runtime = (ClusterTrainingRuntime) Fixtures.object(RUNTIME);

    CrdDefaults.applyTo(runtime);

    TrainingRuntimeSpec spec = runtime.getSpec();
    assertThat(spec.getMlPolicy().getMpi().getNumProcPerNode()).isEqualTo(1);
    assertThat(spec.getMlPolicy().getMpi().getMpiImplementation()).isEqualTo("OpenMPI");
    assertThat(spec.getMlPolicy().getMpi().getSshAuthMountPath()).isEqualTo("/root/.ssh");
    assertThat(spec.getMlPolicy().getMpi().getRunLauncherAsNode()).isFalse();
    assertThat(spec.getPodGroupPolicy().getCoscheduling().getScheduleTimeoutSeconds()).isEqualTo(60);
    ReplicatedJob launcher = spec.getTemplate().getSpec().getReplicatedJobs().get(0);
    assertThat(launcher.getReplicas()).isEqualTo(1);
    assertThat(launcher.getGroupName()).isEqualTo("default");
  }

  @Test
  void setFieldsKeepTheirValuesAndAbsentObjectsStayAbsent() {
    ClusterTrainingRuntime runtime = (ClusterTrainingRuntime) Fixtures.object(RUNTIME);

    CrdDefaults.applyTo(runtime);

    TrainingRuntimeSpec spec = runtime.getSpec();
    ReplicatedJob node = spec.getTemplate().getSpec().getReplicatedJobs().get(1);
    assertThat(node.getReplicas()).isEqualTo(2);
    assertThat(node.getGroupName()).isEqualTo("workers");
    assertThat(spec.getMlPolicy().getNumNodes()).isNull();
    assertThat(spec.getMlPolicy().getTorch()).isNull();
    assertThat(spec.getPodGroupPolicy().getVolcano()).isNull();
    assertThat(spec.getTemplate().getSpec().getFailurePolicy()).isNull();
  }
}
