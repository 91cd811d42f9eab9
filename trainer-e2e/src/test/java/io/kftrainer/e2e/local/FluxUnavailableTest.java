package io.kftrainer.e2e.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.TrainJobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Flux example in {@code local} with the executor on: Flux is not packaged in Debian, so the TrainJob fails at
 * once with a message that says so, instead of running the Flux scripts on this machine (whose follower brokers
 * retry forever) or the bare command. Its objects are still created as on a cluster.
 */
class FluxUnavailableTest {

  private static final String TRAIN_JOB = "lammps-flux";

  @Test
  void aFluxTrainJobFailsAtOnceSayingThatLocalCannotRunFlux() {
    Path runDir = Locations.workDir().resolve("flux-run");
    LocalOperator local = LocalOperator.startExecuting("flux", List.of("--run-dir", runDir.toString()));
    try (local) {
      KubernetesClient client = local.client();
      TrainJobs trainJobs = new TrainJobs(client, local.createNamespace("flux"));
      List<GenericKubernetesResource> example = Manifests.read(Locations.examplesDir().resolve("flux-trainjob.yaml"));
      long start = System.nanoTime();

      trainJobs.create(example);
      TrainJob failed = trainJobs.awaitCondition(TRAIN_JOB, "Failed", "True");

      Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
      System.out.printf("flux in local: TrainJob Failed %d ms after its creation%n", elapsed.toMillis());
      assertThat(TrainJobs.condition(failed, "Failed").orElseThrow().getMessage())
          .contains("container flux-installer exited with code 128")
          .contains("the local executor cannot run Flux (init container flux-installer of the Flux plugin): Flux is "
              + "not packaged in Debian, so this machine has no flux command; run this TrainJob on a cluster");
      assertThat(trainJobs.children("v1", "ConfigMap", TRAIN_JOB)).extracting(c -> c.getMetadata().getName())
          .contains("lammps-flux-flux-entrypoint");
      assertThat(trainJobs.children("v1", "Secret", TRAIN_JOB)).extracting(c -> c.getMetadata().getName())
          .containsExactly("lammps-flux-flux-curve");
      List<Pod> pods = client.pods().inNamespace(trainJobs.namespace())
          .withLabel("jobset.sigs.k8s.io/jobset-name", TRAIN_JOB).list().getItems();
      assertThat(pods).as("failed pods of the JobSet")
          .filteredOn(pod -> pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase()))
          .isNotEmpty().allSatisfy(pod -> assertThat(
              Stream.concat(pod.getStatus().getInitContainerStatuses().stream(),
                  pod.getStatus().getContainerStatuses().stream()))
          .as("containers of %s: none started", pod.getMetadata().getName())
          .allSatisfy(FluxUnavailableTest::refusedBeforeStart));
    }
  }

  private static void refusedBeforeStart(ContainerStatus status) {
    assertThat(status.getState().getTerminated().getReason()).isEqualTo("RuntimeUnavailable");
    assertThat(status.getState().getTerminated().getStartedAt()).isNull();
  }
}
