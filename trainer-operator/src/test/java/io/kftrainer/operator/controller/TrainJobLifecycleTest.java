package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.RunPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.operator.app.TrainerOperator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KEP-2899's lifecycle fields (kubeflow/trainer PR #3824, issue #4052) against the embedded API server: the
 * TrainJob's {@code startTime} and {@code completionTime}, {@code ttlSecondsAfterFinished} and the runtime's
 * {@code runPolicy} defaults, the CEL rules that keep a Job's or JobSet's own TTL and deadline out of runtime
 * templates, and a JobSet that vanishes under a finished TrainJob (#3779). The JobSet controller is played by the
 * tests.
 */
class TrainJobLifecycleTest {

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
  void startTimeIsSetWhileActiveClearedWhileSuspendedAndCompletionTimeComesWithComplete() {
    String ns = "times";
    cluster.createRuntimes(ns);
    TrainJob created = cluster.createTrainJob(ns, "alpha", tj -> {
    });
    cluster.awaitJobSet(ns, "alpha");
    String startTime = await().atMost(TestCluster.TIMEOUT)
        .until(() -> startTime(ns, "alpha"), t -> t != null);
    assertThat(startTime).isEqualTo(created.getMetadata().getCreationTimestamp());

    suspend(ns, "alpha", true);
    cluster.awaitCondition(ns, "alpha", "Suspended", "True");
    await().atMost(TestCluster.TIMEOUT).until(() -> startTime(ns, "alpha") == null);

    suspend(ns, "alpha", false);
    Condition resumed = cluster.awaitCondition(ns, "alpha", "Suspended", "False");
    String restarted = await().atMost(TestCluster.TIMEOUT)
        .until(() -> startTime(ns, "alpha"), t -> t != null);
    assertThat(restarted).isEqualTo(resumed.getLastTransitionTime());
    assertThat(completionTime(ns, "alpha")).isNull();

    String completedAt = now();
    setJobSetCondition(ns, "alpha", "Completed", "AllJobsCompleted", "jobset completed successfully", completedAt);
    Condition complete = cluster.awaitCondition(ns, "alpha", "Complete", "True");
    await().atMost(TestCluster.TIMEOUT).until(() -> completionTime(ns, "alpha") != null);
    assertThat(completionTime(ns, "alpha")).isEqualTo(complete.getLastTransitionTime());
    assertThat(startTime(ns, "alpha")).isEqualTo(restarted);
  }

  @Test
  void aFailedTrainJobHasAStartTimeAndNoCompletionTime() {
    String ns = "times-failed";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> {
    });
    cluster.awaitJobSet(ns, "alpha");
    setJobSetCondition(ns, "alpha", "Failed", "FailedJobs", "jobset failed due to one or more job failures", now());
    cluster.awaitCondition(ns, "alpha", "Failed", "True");

    await().during(Duration.ofMillis(500)).atMost(TestCluster.TIMEOUT)
        .until(() -> startTime(ns, "alpha") != null
            && completionTime(ns, "alpha") == null);
  }

  @Test
  void aFinishedTrainJobIsDeletedWithItsChildrenOnceItsTtlHasPassed() {
    String ns = "ttl";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().setTtlSecondsAfterFinished(2));
    cluster.awaitJobSet(ns, "alpha");
    // a finalizer holds the JobSet, so that the foreground deletion shows: the TrainJob waits for its children
    var jobSets = cluster.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(ns);
    jobSets.withName("alpha").edit(js -> {
      js.getMetadata().setFinalizers(List.of("example.com/hold"));
      return js;
    });
    // running, it stays whatever its TTL
    await().during(Duration.ofSeconds(3)).atMost(TestCluster.TIMEOUT)
        .until(() -> cluster.trainJob(ns, "alpha") != null);

    Instant finished = Instant.now();
    setJobSetCondition(ns, "alpha", "Completed", "AllJobsCompleted", "jobset completed successfully",
        finished.toString());
    cluster.awaitCondition(ns, "alpha", "Complete", "True");

    TrainJob deleting = await().atMost(TestCluster.TIMEOUT).until(() -> cluster.trainJob(ns, "alpha"),
        tj -> tj.getMetadata().getDeletionTimestamp() != null);
    Instant deleted = Instant.now();
    // the TTL counts from the Complete condition's lastTransitionTime, whole seconds as every API time: up to 1 s
    // before this test's clock read `finished`
    Instant completed = Instant.parse(deleting.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals("Complete")).findFirst().orElseThrow().getLastTransitionTime());
    assertThat(Duration.between(completed, deleted)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    assertThat(Duration.between(finished, deleted)).isLessThan(Duration.ofSeconds(10));
    assertThat(deleting.getMetadata().getFinalizers()).contains("foregroundDeletion");
    await().atMost(TestCluster.TIMEOUT).until(() -> jobSets.withName("alpha").get().getMetadata()
        .getDeletionTimestamp() != null);
    jobSets.withName("alpha").edit(js -> {
      js.getMetadata().setFinalizers(List.of());
      return js;
    });
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.trainJob(ns, "alpha") == null);
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isEmpty()
        && cluster.client().configMaps().inNamespace(ns).withName("alpha-runtime-snapshot").get() == null);
    assertThat(cluster.writesIn(ns)).filteredOn(r -> r.method().equals("DELETE")
        && r.path().endsWith("/trainjobs/alpha")).hasSize(1);
  }

  @Test
  void theRuntimesRunPolicyTtlAppliesUnlessTheTrainJobSetsItsOwn() {
    String ns = "ttl-runtime";
    cluster.createRuntimes(ns);
    cluster.client().resources(TrainingRuntime.class).inNamespace(ns).withName("torch").edit(runtime -> {
      runtime.getSpec().setRunPolicy(new RunPolicy().withTtlSecondsAfterFinished(0));
      return runtime;
    });
    cluster.createTrainJob(ns, "defaulted", tj -> {
    });
    cluster.createTrainJob(ns, "kept", tj -> tj.getSpec().setTtlSecondsAfterFinished(3600));
    cluster.awaitJobSet(ns, "defaulted");
    cluster.awaitJobSet(ns, "kept");

    for (String name : List.of("defaulted", "kept")) {
      setJobSetCondition(ns, name, "Failed", "FailedJobs", "jobset failed due to one or more job failures", now());
    }

    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.trainJob(ns, "defaulted") == null);
    cluster.awaitCondition(ns, "kept", "Failed", "True");
    await().during(Duration.ofSeconds(1)).atMost(TestCluster.TIMEOUT)
        .until(() -> cluster.trainJob(ns, "kept") != null);

    // the TTL is mutable: shortened, it applies at once
    cluster.client().resources(TrainJob.class).inNamespace(ns).withName("kept").edit(tj -> {
      tj.getSpec().setTtlSecondsAfterFinished(1);
      return tj;
    });
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.trainJob(ns, "kept") == null);
  }

  @Test
  void theRuntimesRunPolicyDeadlineFailsATrainJobThatSetsNone() {
    String ns = "deadline-runtime";
    cluster.createRuntimes(ns);
    cluster.client().resources(TrainingRuntime.class).inNamespace(ns).withName("torch").edit(runtime -> {
      runtime.getSpec().setRunPolicy(new RunPolicy().withActiveDeadlineSeconds(2L));
      return runtime;
    });
    cluster.createTrainJob(ns, "alpha", tj -> {
    });
    cluster.createTrainJob(ns, "own", tj -> tj.getSpec().setActiveDeadlineSeconds(3600L));

    assertThat(cluster.awaitCondition(ns, "alpha", "Failed", "True").getReason()).isEqualTo("DeadlineExceeded");
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isEmpty());
    assertThat(cluster.condition(ns, "own", "Failed")).isEmpty();
    assertThat(cluster.jobSet(ns, "own")).isPresent();
  }

  @Test
  void aJobSetThatVanishesUnderAFinishedTrainJobIsNotRecreated() {
    // kubeflow/trainer#3779: a JobSet deleted under its failed TrainJob came back with its restarts reset
    String ns = "vanished";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> {
    });
    cluster.awaitJobSet(ns, "alpha");
    setJobSetCondition(ns, "alpha", "Failed", "ReachedMaxRestarts",
        "jobset failed due to reaching max number of restarts", now());
    cluster.awaitCondition(ns, "alpha", "Failed", "True");

    cluster.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(ns)
        .withName("alpha").delete();

    await().during(Duration.ofSeconds(2)).atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isEmpty());
    assertThat(cluster.condition(ns, "alpha", "Failed")).get().extracting(Condition::getReason)
        .isEqualTo("ReachedMaxRestarts");
    ConfigMap snapshot = cluster.client().configMaps().inNamespace(ns).withName("alpha-runtime-snapshot").get();
    assertThat(snapshot).isNotNull();
  }

  @Test
  void aRuntimeTemplateWithAJobSetsOrAJobsOwnTtlOrDeadlineIsRefusedNamingTheField() {
    String ns = "cel";
    cluster.createRuntimes(ns);
    TrainingRuntime torch = cluster.runtime(ns, "torch");

    assertThatThrownBy(() -> createCopy(torch, "jobset-ttl", rt -> rt.getSpec().getTemplate().getSpec()
        .setTtlSecondsAfterFinished(60)))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.template.spec.ttlSecondsAfterFinished: Invalid value")
        .hasMessageContaining("ttlSecondsAfterFinished must not be set in the JobSet template")
        .hasMessageContaining("set spec.runPolicy.ttlSecondsAfterFinished");
    assertThatThrownBy(() -> createCopy(torch, "job-ttl", rt -> rt.getSpec().getTemplate().getSpec()
        .getReplicatedJobs().get(0).getTemplate().getSpec().setTtlSecondsAfterFinished(60)))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.template.spec.replicatedJobs: Invalid value")
        .hasMessageContaining("ttlSecondsAfterFinished must not be set in the Job template of a replicated job");
    assertThatThrownBy(() -> createCopy(torch, "job-deadline", rt -> rt.getSpec().getTemplate().getSpec()
        .getReplicatedJobs().get(0).getTemplate().getSpec().setActiveDeadlineSeconds(60L)))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.template.spec.replicatedJobs: Invalid value")
        .hasMessageContaining("activeDeadlineSeconds must not be set in the Job template of a replicated job")
        .hasMessageContaining("set spec.runPolicy.activeDeadlineSeconds");
    createCopy(torch, "run-policy", rt -> rt.getSpec().setRunPolicy(new RunPolicy().withActiveDeadlineSeconds(60L)
        .withTtlSecondsAfterFinished(0)));
    assertThat(cluster.runtime(ns, "run-policy").getSpec().getRunPolicy().getTtlSecondsAfterFinished()).isZero();
  }

  @Test
  void eachJobSetRestartIsAnEventNamingTheFailedPodItsNodeAndWhyAndTheAnnotationCountsThem() {
    String ns = "restarts";
    cluster.createRuntimes(ns);
    // a runtime of its own, created with its failurePolicy: an edit of "torch" could reach the operator's cache
    // after the TrainJob's snapshot of it
    TrainingRuntime restarting = cluster.runtime(ns, "torch");
    restarting.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace(ns)
        .withName("torch-restarting").build());
    var policy = new io.kftrainer.api.jobset.v1alpha2.FailurePolicy();
    policy.setMaxRestarts(3);
    restarting.getSpec().getTemplate().getSpec().setFailurePolicy(policy);
    cluster.client().resource(restarting).create();
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().getRuntimeRef().setName("torch-restarting"));
    var jobSet = cluster.awaitJobSet(ns, "alpha");
    assertThat(jobSet.getSpec().getFailurePolicy().getMaxRestarts()).isEqualTo(3);

    failedPod(ns, jobSet, "alpha-node-0-1-7nd7v", 0, 137, "Error");
    setJobSetRestarts(ns, "alpha", 1);

    await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> assertThat(cluster.events(ns, "alpha"))
        .anySatisfy(event -> {
          assertThat(event.getType()).isEqualTo("Warning");
          assertThat(event.getReason()).isEqualTo("Restarting");
          assertThat(event.getMessage())
              .isEqualTo("restart 1/3 after pod restarts/alpha-node-0-1-7nd7v on node-1 failed: exit code 137");
        }));
    await().atMost(TestCluster.TIMEOUT).until(() -> "1".equals(cluster.trainJob(ns, "alpha").getMetadata()
        .getAnnotations().get("kftrainer.io/restarts")));

    failedPod(ns, jobSet, "alpha-node-0-0-x2k4p", 1, 137, "OOMKilled");
    setJobSetRestarts(ns, "alpha", 2);
    await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> assertThat(cluster.events(ns, "alpha"))
        .anySatisfy(event -> assertThat(event.getMessage())
            .isEqualTo("restart 2/3 after pod restarts/alpha-node-0-0-x2k4p on node-1 failed: OOMKilled (exit code "
                + "137)")));
    await().atMost(TestCluster.TIMEOUT).until(() -> "2".equals(cluster.trainJob(ns, "alpha").getMetadata()
        .getAnnotations().get("kftrainer.io/restarts")));
    // one Event per restart, however many reconciles
    await().during(Duration.ofSeconds(1)).atMost(TestCluster.TIMEOUT).until(() -> cluster.events(ns, "alpha")
        .stream().filter(e -> "Restarting".equals(e.getReason())).mapToInt(e -> e.getCount() == null ? 1
            : e.getCount()).sum() == 2);
  }

  @Test
  void aJobSetThatFailedPastItsRestartsFailsTheTrainJobWithJobSetsReasonAndTheLastFailedPod() {
    String ns = "past-max";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> {
    });
    var jobSet = cluster.awaitJobSet(ns, "alpha");
    failedPod(ns, jobSet, "alpha-node-0-1-7nd7v", 0, 3, "Error");
    failedPod(ns, jobSet, "alpha-node-0-0-x2k4p", 2, 3, "Error");
    var jobSets = cluster.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(ns);
    GenericKubernetesResource failed = jobSets.withName("alpha").get();
    failed.setAdditionalProperty("status", Map.of("restarts", 2, "restartsCountTowardsMax", 2, "terminalState",
        "Failed", "conditions", java.util.List.of(Map.of("type", "Failed", "status", "True", "reason",
            "ReachedMaxRestarts", "message", "jobset failed due to reaching max number of restarts (first failed "
                + "job: alpha-node-0)", "lastTransitionTime", now()))));
    jobSets.resource(failed).updateStatus();

    Condition condition = cluster.awaitCondition(ns, "alpha", "Failed", "True");

    assertThat(condition.getReason()).isEqualTo("ReachedMaxRestarts");
    assertThat(condition.getMessage()).isEqualTo("jobset failed due to reaching max number of restarts (first "
        + "failed job: alpha-node-0); pod past-max/alpha-node-0-0-x2k4p on node-1: container node exited with "
        + "code 3");
  }

  /** A failed pod of the JobSet's attempt, as the Job controller and the kubelet leave it. */
  private static void failedPod(String namespace, io.kftrainer.api.jobset.v1alpha2.JobSet jobSet, String name,
      int attempt, int exitCode, String reason) {
    io.fabric8.kubernetes.api.model.Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name)
        .addToLabels("jobset.sigs.k8s.io/jobset-name", jobSet.getMetadata().getName())
        .addToLabels("jobset.sigs.k8s.io/jobset-uid", jobSet.getMetadata().getUid())
        .addToLabels("jobset.sigs.k8s.io/restart-attempt", String.valueOf(attempt))
        .endMetadata()
        .withNewSpec().withNodeName("node-1").addNewContainer().withName("node").withImage("busybox").endContainer()
        .endSpec()
        .build();
    cluster.client().resource(pod).create();
    pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Failed")
        .addNewContainerStatus().withName("node").withNewState().withNewTerminated().withExitCode(exitCode)
        .withReason(reason).endTerminated().endState().endContainerStatus().build());
    cluster.client().pods().inNamespace(namespace).resource(pod).updateStatus();
  }

  /** The JobSet controller's part of a restart: {@code status.restarts}. */
  private static void setJobSetRestarts(String namespace, String name, int restarts) {
    var jobSets = cluster.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(namespace);
    GenericKubernetesResource jobSet = jobSets.withName(name).get();
    jobSet.setAdditionalProperty("status", Map.of("restarts", restarts, "restartsCountTowardsMax", restarts));
    jobSets.resource(jobSet).updateStatus();
  }

  private static void createCopy(TrainingRuntime runtime, String name, Consumer<TrainingRuntime> edit) {
    TrainingRuntime copy = cluster.client().getKubernetesSerialization().clone(runtime);
    copy.getMetadata().setName(name);
    copy.getMetadata().setResourceVersion(null);
    copy.getMetadata().setUid(null);
    copy.getMetadata().setCreationTimestamp(null);
    copy.getMetadata().setManagedFields(null);
    edit.accept(copy);
    cluster.client().resource(copy).create();
  }

  private static String startTime(String namespace, String name) {
    TrainJob trainJob = cluster.trainJob(namespace, name);
    return trainJob == null || trainJob.getStatus() == null ? null : trainJob.getStatus().getStartTime();
  }

  private static String completionTime(String namespace, String name) {
    TrainJob trainJob = cluster.trainJob(namespace, name);
    return trainJob == null || trainJob.getStatus() == null ? null : trainJob.getStatus().getCompletionTime();
  }

  private static void suspend(String namespace, String name, boolean suspend) {
    cluster.client().resources(TrainJob.class).inNamespace(namespace).withName(name).edit(tj -> {
      tj.getSpec().setSuspend(suspend);
      return tj;
    });
  }

  private static String now() {
    return OffsetDateTime.now().withNano(0).toInstant().toString();
  }

  /** The JobSet controller's part: a terminal condition at {@code time}. */
  private static void setJobSetCondition(String namespace, String name, String type, String reason, String message,
      String time) {
    var jobSets = cluster.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(namespace);
    GenericKubernetesResource jobSet = jobSets.withName(name).get();
    Map<String, Object> condition = Map.of("type", type, "status", "True", "reason", reason, "message", message,
        "lastTransitionTime", Instant.parse(time).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    jobSet.setAdditionalProperty("status", Map.of("conditions", List.of(condition), "replicatedJobsStatus",
        List.of(Map.of("name", "node", "ready", 0, "succeeded", 0, "failed", 0, "active", 0, "suspended", 0))));
    jobSets.resource(jobSet).updateStatus();
  }
}
