package io.kftrainer.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.TrainJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * 200 TrainJobs submitted at once (200 parallel creates) all get their JobSet within a deadline, each with
 * exactly one JobSet (counted by the {@code trainer.kubeflow.org/trainjob-name} label: no TrainJob without its
 * JobSet, none with two, no JobSet of an unknown TrainJob). The time it took is printed. A {@code local} instance of
 * its own, so that neither this burst nor the other tests' objects skew the other's figures.
 */
class ConcurrentSubmissionTest {

  /** 200 by default; {@code -DargLine=-De2e.burst=1000} measures a larger burst (the README's figure). */
  private static final int TRAINJOBS = Integer.getInteger("e2e.burst", 200);
  /** Generous for 2 slow cores shared with other builds ({@code local}'s operator has no client rate limit). */
  private static final Duration DEADLINE = Duration.ofSeconds(150L * Math.max(1, TRAINJOBS / 200));
  /**
   * How long one create may wait for its answer: the admission webhooks are called for each of the simultaneous
   * creates, which on a slow machine takes longer than fabric8's default of 10 s for the last ones.
   */
  private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(120L * Math.max(1, TRAINJOBS / 200));

  private static LocalOperator operator;
  private static KubernetesClient client;
  private static KubernetesClient patientClient;

  @BeforeAll
  static void start() {
    operator = LocalOperator.start("load", List.of());
    client = operator.client();
    patientClient = operator.newClient(CREATE_TIMEOUT);
  }

  @AfterAll
  static void stop() {
    if (operator != null) {
      operator.close();
    }
  }

  @Test
  void everyTrainJobOfABurstGetsExactlyOneJobSet() throws Exception {
    String namespace = operator.createNamespace("load");
    List<GenericKubernetesResource> burst = IntStream.range(0, TRAINJOBS)
        .mapToObj(i -> Manifests.resource("manifests/torch-trainjob.yaml", String.format("burst-%03d", i)))
        .toList();

    long started = System.nanoTime();
    submitAtOnce(namespace, burst);
    long submitted = System.nanoTime();
    await("all " + TRAINJOBS + " TrainJobs with a JobSet").atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
        .until(() -> trainJobsWithAJobSet(namespace) == TRAINJOBS);
    long created = System.nanoTime();

    List<JobSet> jobSets = client.resources(JobSet.class).inNamespace(namespace).list().getItems();
    Map<String, Long> jobSetsPerTrainJob = jobSets.stream().collect(Collectors.groupingBy(
        jobSet -> String.valueOf(jobSet.getMetadata().getLabels().get(TrainJobs.TRAINJOB_NAME_LABEL)),
        Collectors.counting()));
    Map<String, Long> exactlyOne = burst.stream()
        .collect(Collectors.toMap(trainJob -> trainJob.getMetadata().getName(), trainJob -> 1L));
    assertThat(jobSetsPerTrainJob).containsExactlyInAnyOrderEntriesOf(exactlyOne);
    System.out.printf("%d TrainJobs: submitted in %d ms, all with one JobSet each after %d ms%n",
        TRAINJOBS, (submitted - started) / 1_000_000, (created - started) / 1_000_000);
  }

  /** One thread per TrainJob, released together. */
  private static void submitAtOnce(String namespace, List<GenericKubernetesResource> trainJobs) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(trainJobs.size());
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> creates = new ArrayList<>();
      for (GenericKubernetesResource trainJob : trainJobs) {
        creates.add(threads.submit(() -> {
          go.await();
          return patientClient.resource(trainJob).inNamespace(namespace).create();
        }));
      }
      go.countDown();
      for (Future<?> create : creates) {
        create.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static long trainJobsWithAJobSet(String namespace) {
    return client.resources(JobSet.class).inNamespace(namespace).list().getItems().stream()
        .map(jobSet -> jobSet.getMetadata().getLabels().get(TrainJobs.TRAINJOB_NAME_LABEL))
        .distinct()
        .count();
  }
}
