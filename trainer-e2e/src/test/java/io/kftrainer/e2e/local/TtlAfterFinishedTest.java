package io.kftrainer.e2e.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.Directories;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, item 4, in {@code local} with pods as processes: a TrainJob with {@code ttlSecondsAfterFinished: 5} is
 * gone with its children (JobSet, Jobs, Pods, Services, ConfigMaps) 5 s after it finished, also when {@code local}
 * was killed and started again in between; {@code startTime} and {@code completionTime} across suspend and resume.
 * The figures are printed ({@code ttl: ...}) for docs/failures.md.
 */
class TtlAfterFinishedTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int TTL = 5;
  private static final int LONG_TTL = 15;
  /** What may pass between the TTL's end and the TrainJob's disappearance: a reconcile, the GC, 2 busy cores. */
  private static final Duration SLACK = Duration.ofSeconds(4);
  private static final String RUNTIME = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainingRuntime
      metadata: {name: one-node}
      spec:
        mlPolicy: {numNodes: 1}
        template:
          spec:
            replicatedJobs:
              - name: node
                template:
                  metadata:
                    labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
                  spec:
                    backoffLimit: 0
                    template:
                      spec:
                        restartPolicy: Never
                        containers:
                          - {name: node, image: busybox}
      """;

  @Test
  void aFinishedTrainJobIsGoneWithItsChildrenFiveSecondsAfterItFinished() {
    try (LocalOperator local = LocalOperator.startExecuting("ttl", List.of())) {
      KubernetesClient client = local.client();
      String namespace = local.createNamespace("ttl");
      create(client, namespace, RUNTIME);
      create(client, namespace, trainJob("short", "echo done", false));

      Instant finished = finishedAt(await().atMost(TIMEOUT).until(() -> condition(client, namespace, "short",
          "Complete"), Optional::isPresent).orElseThrow());
      assertThat(children(client, namespace, "short")).as("children while kept").isNotEmpty();

      await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
          .until(() -> client.resources(TrainJob.class).inNamespace(namespace).withName("short").get() == null);
      Instant gone = Instant.now();
      System.out.println("ttl: TrainJob gone " + Duration.between(finished, gone).toMillis()
          + " ms after its Complete condition (ttlSecondsAfterFinished " + TTL + ")");
      assertThat(gone).isAfterOrEqualTo(finished.plusSeconds(TTL));
      assertThat(Duration.between(finished.plusSeconds(TTL), gone)).isLessThan(SLACK);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(children(client, namespace, "short"))
          .isEmpty());
    }
  }

  /**
   * Two TrainJobs, killed {@code local} right after they finished: one whose TTL (5 s) runs out while it restarts on 2
   * busy cores, deleted at once by the restarted operator; one whose TTL (15 s) is still running, deleted when it
   * ends (the restarted operator requeued it for the time left).
   */
  @Test
  void theTtlHoldsAcrossAKilledAndRestartedOperator() throws IOException {
    Path data = Locations.workDir().resolve("ttl-restart-data");
    Directories.deleteRecursively(data);
    String namespace;
    Instant finishedShort;
    Instant finishedLong;
    LocalOperator first = LocalOperator.startExecuting("ttl-restart-1", List.of("--data-dir", data.toString()));
    try (first) {
      KubernetesClient client = first.client();
      namespace = first.createNamespace("ttl-restart");
      create(client, namespace, RUNTIME);
      create(client, namespace, trainJob("short", "echo done", false));
      create(client, namespace, trainJob("long", "echo done", false).replace("ttlSecondsAfterFinished: " + TTL,
          "ttlSecondsAfterFinished: " + LONG_TTL));
      finishedShort = finishedAt(await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
          .until(() -> condition(client, namespace, "short", "Complete"), Optional::isPresent).orElseThrow());
      finishedLong = finishedAt(await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
          .until(() -> condition(client, namespace, "long", "Complete"), Optional::isPresent).orElseThrow());
      first.kill();
    }
    Instant killed = Instant.now();
    assertThat(killed).as("killed before the TTL ran out").isBefore(finishedShort.plusSeconds(TTL));

    try (LocalOperator restarted = LocalOperator.startExecuting("ttl-restart-2", List.of("--data-dir",
        data.toString()))) {
      Instant ready = Instant.now();
      KubernetesClient client = restarted.client();
      Instant goneShort = awaitGone(client, namespace, "short");
      Instant goneLong = awaitGone(client, namespace, "long");
      System.out.println("ttl: killed " + Duration.between(finishedShort, killed).toMillis() + " ms after the "
          + "finish, restarted and ready " + Duration.between(finishedShort, ready).toMillis() + " ms after it; "
          + "TrainJob with ttlSecondsAfterFinished " + TTL + " gone " + Duration.between(finishedShort, goneShort)
          .toMillis() + " ms after its finish, with " + LONG_TTL + " gone " + Duration.between(finishedLong, goneLong)
          .toMillis() + " ms after its finish");
      for (Instant[] job : List.of(new Instant[] {finishedShort, goneShort, finishedShort.plusSeconds(TTL)},
          new Instant[] {finishedLong, goneLong, finishedLong.plusSeconds(LONG_TTL)})) {
        Instant expiry = job[2];
        Instant due = expiry.isAfter(ready) ? expiry : ready;
        assertThat(job[1]).isAfterOrEqualTo(expiry);
        assertThat(Duration.between(due, job[1])).isLessThan(SLACK);
      }
      assertThat(finishedLong.plusSeconds(LONG_TTL)).as("the long TTL outlives the restart").isAfter(ready);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(children(client, namespace, "short")).isEmpty();
        assertThat(children(client, namespace, "long")).isEmpty();
      });
    }
  }

  private static Instant awaitGone(KubernetesClient client, String namespace, String name) {
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
        .until(() -> client.resources(TrainJob.class).inNamespace(namespace).withName(name).get() == null);
    return Instant.now();
  }

  @Test
  void startTimeRestartsOnResumeAndCompletionTimeIsTheCompleteConditions() {
    try (LocalOperator local = LocalOperator.startExecuting("ttl-times", List.of())) {
      KubernetesClient client = local.client();
      String namespace = local.createNamespace("times");
      create(client, namespace, RUNTIME);
      create(client, namespace, trainJob("paused", "sleep 2", true));
      await().atMost(TIMEOUT).until(() -> condition(client, namespace, "paused", "Suspended").isPresent());
      assertThat(trainJob(client, namespace, "paused").getStatus().getStartTime()).isNull();

      // as kubectl patch: a merge patch, no resourceVersion (the operator writes the status meanwhile)
      client.resources(TrainJob.class).inNamespace(namespace).withName("paused")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}");
      Condition resumed = await().atMost(TIMEOUT).until(() -> condition(client, namespace, "paused", "Suspended")
          .filter(c -> "False".equals(c.getStatus())), Optional::isPresent).orElseThrow();
      Condition complete = await().atMost(TIMEOUT).until(() -> condition(client, namespace, "paused", "Complete"),
          Optional::isPresent).orElseThrow();
      TrainJob done = await().atMost(TIMEOUT).until(() -> trainJob(client, namespace, "paused"),
          tj -> tj.getStatus().getCompletionTime() != null);

      assertThat(done.getStatus().getStartTime()).isEqualTo(resumed.getLastTransitionTime());
      assertThat(done.getStatus().getCompletionTime()).isEqualTo(complete.getLastTransitionTime());
      Duration ran = Duration.between(OffsetDateTime.parse(done.getStatus().getStartTime()),
          OffsetDateTime.parse(done.getStatus().getCompletionTime()));
      System.out.println("ttl: resumed TrainJob ran " + ran.toMillis() + " ms from startTime to completionTime "
          + "(sleep 2; both times in whole seconds)");
      assertThat(ran).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
      // no TTL: it stays
      assertThat(trainJob(client, namespace, "paused")).isNotNull();
    }
  }

  private static String trainJob(String name, String script, boolean suspended) {
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: %s}
        spec:
          suspend: %s
          %s
          runtimeRef: {kind: TrainingRuntime, name: one-node}
          trainer:
            command: [bash, -c, "%s"]
        """.formatted(name, suspended, suspended ? "" : "ttlSecondsAfterFinished: " + TTL, script);
  }

  /** The finish time the TTL counts from: the {@code Complete} condition's. */
  private static Instant finishedAt(Condition complete) {
    return OffsetDateTime.parse(complete.getLastTransitionTime()).toInstant();
  }

  /** What the TrainJob made or had made: its JobSet, the Jobs, Pods and Services, its ConfigMaps and Secrets. */
  private static List<String> children(KubernetesClient client, String namespace, String name) {
    List<String> found = new ArrayList<>();
    Optional.ofNullable(client.resources(JobSet.class).inNamespace(namespace).withName(name).get())
        .ifPresent(js -> found.add("JobSet " + name));
    Stream.of(client.batch().v1().jobs().inNamespace(namespace).list().getItems(),
            client.pods().inNamespace(namespace).list().getItems(),
            client.services().inNamespace(namespace).list().getItems(),
            client.configMaps().inNamespace(namespace).list().getItems(),
            client.secrets().inNamespace(namespace).list().getItems())
        .flatMap(List::stream)
        .map(HasMetadata.class::cast)
        .filter(o -> o.getMetadata().getName().startsWith(name + "-") || o.getMetadata().getName().equals(name))
        .forEach(o -> found.add(o.getKind() + " " + o.getMetadata().getName()));
    return found;
  }

  private static TrainJob trainJob(KubernetesClient client, String namespace, String name) {
    return client.resources(TrainJob.class).inNamespace(namespace).withName(name).get();
  }

  private static Optional<Condition> condition(KubernetesClient client, String namespace, String name, String type) {
    TrainJob trainJob = trainJob(client, namespace, name);
    if (trainJob == null || trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return trainJob.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && ("True".equals(c.getStatus()) || "Suspended".equals(type)))
        .findFirst();
  }

  private static void create(KubernetesClient client, String namespace, String yaml) {
    for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(object).inNamespace(namespace).create();
    }
  }
}
