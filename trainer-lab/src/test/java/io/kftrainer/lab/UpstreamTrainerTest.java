package io.kftrainer.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Upstream Kubeflow Trainer's controller manager runs on the lab outside a cluster ({@link UpstreamTrainer}): a
 * TrainJob on its {@code torch-distributed} runtime, admitted through its webhooks, becomes a JobSet that the JobSet
 * controller, Jobs and kwok's pods run to {@code Complete}. In a lab of its own: upstream's CRDs and webhooks are
 * cluster-wide.
 */
class UpstreamTrainerTest {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final String NAMESPACE = "upstream-test";

  private static Lab lab;
  private static UpstreamTrainer upstream;

  @BeforeAll
  static void start() throws Exception {
    var binaries = LabBinaries.find();
    Assumptions.assumeTrue(binaries.isPresent(), LabBinaries::missingReason);
    Assumptions.assumeTrue(UpstreamTrainer.binary(binaries.get()).isPresent(),
        () -> UpstreamTrainer.missingReason(binaries.get()));
    lab = Lab.start(binaries.get(), Path.of(System.getProperty("trainer.lab.workDir", "target/lab"))
        .resolve("upstream-" + ProcessHandle.current().pid()), 2);
    upstream = UpstreamTrainer.start(lab, binaries.get(), lab.work().resolve("trainer-controller-manager"));
    UpstreamTrainer.installRuntimes(lab, binaries.get(), upstream.process());
    lab.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
        .build()).serverSideApply();
  }

  @AfterAll
  static void stop() throws Exception {
    if (upstream != null) {
      upstream.close();
    }
    if (lab != null) {
      lab.close();
    }
  }

  @Test
  void aTorchTrainJobBecomesAJobSetAndCompletes() {
    GenericKubernetesResource trainJob = lab.admin().genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
        "TrainJob").inNamespace(NAMESPACE).load(new ByteArrayInputStream("""
            apiVersion: trainer.kubeflow.org/v1alpha1
            kind: TrainJob
            metadata:
              name: torch
            spec:
              runtimeRef:
                name: torch-distributed
              trainer:
                numNodes: 2
                command: ["torchrun", "train.py"]
            """.getBytes(StandardCharsets.UTF_8))).item();
    lab.admin().resource(trainJob).inNamespace(NAMESPACE).create();

    await("torch Complete").atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      GenericKubernetesResource current = lab.admin().genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
          "TrainJob").inNamespace(NAMESPACE).withName("torch").get();
      List<Map<String, Object>> conditions = current.get("status", "conditions");
      assertThat(conditions).as("%s's log:\n%s", upstream.process().name(), upstream.process().tail(20))
          .anySatisfy(c -> assertThat(c).containsEntry("type", "Complete").containsEntry("status", "True"));
    });
    GenericKubernetesResource jobSet = lab.admin().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(NAMESPACE).withName("torch").get();
    assertThat(jobSet).isNotNull();
    assertThat(jobSet.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("TrainJob"));
    assertThat(lab.admin().pods().inNamespace(NAMESPACE).list().getItems()).hasSize(2)
        .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded"));
  }
}
