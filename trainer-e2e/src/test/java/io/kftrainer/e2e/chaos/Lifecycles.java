package io.kftrainer.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.StandInJobSetController;
import io.kftrainer.e2e.support.TrainJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Full TrainJob lifecycles in one namespace: create {@code count} TrainJobs {@code <namespace>-NNNN}, play the
 * JobSet controller (every JobSet of an even TrainJob completes, of an odd one fails: {@link StandInJobSetController}),
 * wait until every TrainJob has its terminal condition, then check it: the right condition for each, exactly one
 * JobSet and one runtime-snapshot ConfigMap per TrainJob, no object of a TrainJob that does not exist.
 *
 * <p>The test's own requests meet the same faults as the operator's: creates and status writes are retried until
 * they take effect ({@code AlreadyExists} after a create that timed out counts as created).
 */
final class Lifecycles implements AutoCloseable {

  private final KubernetesClient client;
  private final String namespace;
  private final int count;
  private final StandInJobSetController jobSetController;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong testRetries = new AtomicLong();
  private final ExecutorService threads = Executors.newFixedThreadPool(17);
  private Future<?> standIn;

  Lifecycles(KubernetesClient client, String namespace, int count) {
    this.client = client;
    this.namespace = namespace;
    this.count = count;
    this.jobSetController = new StandInJobSetController(client);
    retrying(() -> client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
        .endMetadata().build()).serverSideApply());
  }

  String name(int i) {
    return String.format("%s-%04d", namespace, i);
  }

  /** Creates the TrainJobs, 16 at a time, and starts playing the JobSet controller. */
  void submit() throws Exception {
    standIn = threads.submit(this::playJobSetController);
    List<Future<?>> creates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      GenericKubernetesResource trainJob = Manifests.resource("manifests/torch-trainjob.yaml", name(i));
      creates.add(threads.submit(() -> retrying(() -> {
        try {
          return client.resource(trainJob).inNamespace(namespace).create();
        } catch (KubernetesClientException e) {
          if (e.getCode() == 409 && "AlreadyExists".equals(reason(e))) {
            return null;
          }
          throw e;
        }
      })));
    }
    for (Future<?> create : creates) {
      create.get();
    }
  }

  /** How many TrainJobs have a terminal condition. */
  long terminated() {
    return trainJobs().stream().filter(t -> terminal(t).isPresent()).count();
  }

  /** Asserts every TrainJob's outcome and children; returns a one-line summary. */
  String verify() {
    List<TrainJob> trainJobs = trainJobs();
    Map<String, String> outcomes = trainJobs.stream().collect(Collectors.toMap(t -> t.getMetadata().getName(),
        t -> terminal(t).orElse("none")));
    Map<String, String> expected = new java.util.TreeMap<>();
    for (int i = 0; i < count; i++) {
      expected.put(name(i), i % 2 == 0 ? "Complete" : "Failed");
    }
    assertThat(outcomes).as("terminal condition of every TrainJob (none lost, none stuck)")
        .containsExactlyInAnyOrderEntriesOf(expected);
    Map<String, Long> exactlyOne = expected.keySet().stream().collect(Collectors.toMap(n -> n, n -> 1L));
    assertThat(perTrainJob(retrying(() -> client.resources(JobSet.class).inNamespace(namespace).list().getItems())))
        .as("JobSets per TrainJob").containsExactlyInAnyOrderEntriesOf(exactlyOne);
    assertThat(perTrainJob(retrying(() -> client.configMaps().inNamespace(namespace).list().getItems())))
        .as("runtime snapshot ConfigMaps per TrainJob").containsExactlyInAnyOrderEntriesOf(exactlyOne);
    return count + " TrainJobs: " + outcomes.values().stream().filter("Complete"::equals).count() + " Complete, "
        + outcomes.values().stream().filter("Failed"::equals).count() + " Failed, one JobSet and one ConfigMap each";
  }

  /** The test's own requests retried after a fault (beyond fabric8's retries of 5xx and 429). */
  long testRetries() {
    return testRetries.get();
  }

  List<TrainJob> trainJobs() {
    return retrying(() -> client.resources(TrainJob.class).inNamespace(namespace).list().getItems());
  }

  private <T extends io.fabric8.kubernetes.api.model.HasMetadata> Map<String, Long> perTrainJob(List<T> children) {
    return children.stream()
        .filter(child -> child.getMetadata().getLabels() != null
            && child.getMetadata().getLabels().containsKey(TrainJobs.TRAINJOB_NAME_LABEL))
        .collect(Collectors.groupingBy(child -> child.getMetadata().getLabels().get(TrainJobs.TRAINJOB_NAME_LABEL),
            Collectors.counting()));
  }

  /** Completes the JobSets of even TrainJobs and fails those of odd ones, once each. */
  private void playJobSetController() {
    java.util.Set<String> done = new java.util.HashSet<>();
    while (running.get()) {
      try {
        for (JobSet jobSet : client.resources(JobSet.class).inNamespace(namespace).list().getItems()) {
          String name = jobSet.getMetadata().getName();
          if (done.contains(name)) {
            continue;
          }
          int index = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
          retrying(() -> index % 2 == 0 ? jobSetController.complete(namespace, name)
              : jobSetController.fail(namespace, name));
          done.add(name);
        }
        TimeUnit.MILLISECONDS.sleep(300);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        testRetries.incrementAndGet();
      }
    }
  }

  private static Optional<String> terminal(TrainJob trainJob) {
    if (TrainJobs.condition(trainJob, "Complete").filter(c -> "True".equals(c.getStatus())).isPresent()) {
      return Optional.of("Complete");
    }
    if (TrainJobs.condition(trainJob, "Failed").filter(c -> "True".equals(c.getStatus())).isPresent()) {
      return Optional.of("Failed");
    }
    return Optional.empty();
  }

  private static String reason(KubernetesClientException e) {
    return e.getStatus() == null ? null : e.getStatus().getReason();
  }

  /** Runs {@code call} until it does not fail with a fault the server injected (409 Conflict, 5xx, 429). */
  private <T> T retrying(java.util.concurrent.Callable<T> call) {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      try {
        return call.call();
      } catch (KubernetesClientException e) {
        boolean injected = e.getCode() == 409 || e.getCode() >= 500 || e.getCode() == 429;
        if (!injected || System.nanoTime() > deadline) {
          throw e;
        }
        testRetries.incrementAndGet();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public void close() {
    running.set(false);
    if (standIn != null) {
      standIn.cancel(true);
    }
    threads.shutdownNow();
  }
}
