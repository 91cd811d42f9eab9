package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.runner.ChildObjects;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.api.CrdDefaults;
import io.kftrainer.testkit.Fixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import io.micrometer.core.instrument.search.MeterNotFoundException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TrainJob controller end to end with the built-in plugins, against the embedded API server: one operator for
 * the class, one namespace per test. The JobSet controller is played by the tests (JobSet status set by hand).
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
  void aTrainJobGetsAJobSetItControlsAndNoConditionAsUpstream() {
    String ns = "created";
    cluster.createRuntimes(ns);
    TrainJob trainJob = cluster.createTrainJob(ns, "alpha", tj -> {
    });

    JobSet jobSet = cluster.awaitJobSet(ns, "alpha");

    assertIsChildOf(jobSet, trainJob);
    assertThat(jobSet.getSpec().getReplicatedJobs()).singleElement().satisfies(job -> {
      assertThat(job.getName()).isEqualTo("node");
      assertThat(job.getTemplate().getSpec().getParallelism()).isEqualTo(2);
    });
    assertThat(jobSet.getSpec().getSuspend()).isFalse();
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> {
      TrainJob stored = cluster.trainJob(ns, "alpha");
      return stored.getStatus() == null || stored.getStatus().getConditions() == null
          || stored.getStatus().getConditions().isEmpty();
    });
    assertThat(cluster.events(ns, "alpha")).isEmpty();
  }

  @Test
  void anImageOfAnyCharactersIsBuiltAsGivenAndTheOperatorGoesOn() throws Exception {
    // kube-apiserver stores any string as image (the kubelet fails the pod with InvalidImageName); such a TrainJob
    // once stopped the TrainJob informer, and the operator with it (the embedded server's watch lines, fabric8)
    String ns = "strange-image";
    String image = "ünïcødé-名前-😀-\u200b-\u202e\nb\u0000c\u001b[31m";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "strange", tj -> tj.getSpec().getTrainer().setImage(image));
    cluster.createTrainJob(ns, "after", tj -> {
    });

    assertThat(cluster.awaitJobSet(ns, "strange").getSpec().getReplicatedJobs().get(0).getTemplate().getSpec()
        .getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo(image);
    cluster.awaitJobSet(ns, "after");
    assertThat(operator.awaitTermination(0, TimeUnit.SECONDS)).isEmpty();
  }

  @Test
  void aFieldTheOperatorStopsSettingIsAppliedAwayEvenWhenTheRestIsUnchanged() {
    String ns = "dropped";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> {
      tj.getSpec().setSuspend(true);
      tj.getSpec().setRuntimePatches(List.of(Fixtures.serialization().unmarshal("""
          manager: example.com/team
          trainingRuntimeSpec: {template: {metadata: {labels: {example.com/team: vision}}}}
          """, RuntimePatch.class)));
    });
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha")
        .map(jobSet -> ownedLabels(jobSet).contains("example.com/team")).orElse(false));

    TrainJob unpatched = cluster.trainJob(ns, "alpha");
    unpatched.getSpec().setRuntimePatches(null);
    cluster.client().resource(unpatched).update();

    // the apply without the label gives it up (a real API server then removes it; the embedded one keeps values)
    await().atMost(TestCluster.TIMEOUT).until(() -> !ownedLabels(cluster.jobSet(ns, "alpha").orElseThrow())
        .contains("example.com/team"));
    assertThat(cluster.jobSet(ns, "alpha").orElseThrow().getMetadata().getManagedFields())
        .extracting(ManagedFieldsEntry::getManager).containsOnly(TrainJobReconciler.FIELD_MANAGER);
  }

  /** The JobSet labels owned by the operator's field manager. */
  private static List<String> ownedLabels(JobSet jobSet) {
    return jobSet.getMetadata().getManagedFields().stream()
        .filter(entry -> TrainJobReconciler.FIELD_MANAGER.equals(entry.getManager()))
        .map(entry -> cluster.client().getKubernetesSerialization()
            .convertValue(entry.getFieldsV1(), com.fasterxml.jackson.databind.JsonNode.class)
            .path("f:metadata").path("f:labels"))
        .flatMap(labels -> labels.propertyStream().map(field -> field.getKey().substring(2)))
        .toList();
  }

  @Test
  void theRuntimeIsSnapshottedIntoAnImmutableConfigMapOfTheTrainJob() {
    String ns = "snapshot";
    cluster.createRuntimes(ns);
    TrainJob trainJob = cluster.createTrainJob(ns, "alpha", tj -> {
    });
    cluster.awaitJobSet(ns, "alpha");

    ConfigMap snapshot = cluster.client().configMaps().inNamespace(ns).withName("alpha-runtime-snapshot").get();

    assertIsChildOf(snapshot, trainJob);
    assertThat(snapshot.getImmutable()).isTrue();
    TrainingRuntime recorded = cluster.client().getKubernetesSerialization()
        .unmarshal(snapshot.getData().get("runtime"), TrainingRuntime.class);
    TrainingRuntime runtime = cluster.runtime(ns, "torch");
    CrdDefaults.applyTo(runtime);
    assertThat(recorded.getMetadata().getName()).isEqualTo("torch");
    assertThat(recorded.getMetadata().getUid()).isEqualTo(runtime.getMetadata().getUid());
    assertThat(recorded.getSpec()).isEqualTo(runtime.getSpec());
  }

  @Test
  void editingTheRuntimeOfASuspendedTrainJobDoesNotChangeItsJobSetOnResume() {
    String ns = "runtime-edit";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().setSuspend(true));
    cluster.awaitCondition(ns, "alpha", "Suspended", "True");
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isPresent());

    cluster.client().resources(TrainingRuntime.class).inNamespace(ns).withName("torch")
        .edit(runtime -> {
          runtime.getSpec().getMlPolicy().setNumNodes(5);
          return runtime;
        });
    resume(ns, "alpha");
    cluster.awaitCondition(ns, "alpha", "Suspended", "False");

    JobSet jobSet = await().atMost(TestCluster.TIMEOUT)
        .until(() -> cluster.jobSet(ns, "alpha").orElseThrow(), js -> Boolean.FALSE.equals(js.getSpec().getSuspend()));
    assertThat(jobSet.getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getParallelism()).isEqualTo(2);
  }

  @Test
  void anMpiTrainJobGetsItsSshSecretAndHostfileConfigMapOwnedByIt() {
    String ns = "mpi";
    cluster.createRuntimes(ns);
    TrainJob trainJob = cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().getRuntimeRef().setName("mpi"));

    cluster.awaitJobSet(ns, "alpha");

    Secret secret = cluster.client().secrets().inNamespace(ns).withName("alpha-mpi-ssh-auth").get();
    ConfigMap hostfile = cluster.client().configMaps().inNamespace(ns).withName("alpha-mpi-hostfile").get();
    assertIsChildOf(secret, trainJob);
    assertIsChildOf(hostfile, trainJob);
    assertThat(secret.getType()).isEqualTo("kubernetes.io/ssh-auth");
    assertThat(hostfile.getData()).isNotEmpty();
    assertIsChildOf(cluster.jobSet(ns, "alpha").orElseThrow(), trainJob);
  }

  @Test
  void aGangScheduledTrainJobGetsAPodGroupOwnedByIt() {
    String ns = "gang";
    cluster.createRuntimes(ns);
    TrainJob trainJob = cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().getRuntimeRef().setName("gang"));

    cluster.awaitJobSet(ns, "alpha");

    GenericKubernetesResource podGroup = cluster.client()
        .genericKubernetesResources("scheduling.x-k8s.io/v1alpha1", "PodGroup").inNamespace(ns).withName("alpha").get();
    assertIsChildOf(podGroup, trainJob);
    assertThat(podGroup.<Integer>get("spec", "minMember")).isEqualTo(2);
    assertThat(podGroup.<Integer>get("spec", "scheduleTimeoutSeconds")).isEqualTo(30);
  }

  static Stream<Arguments> terminalJobSetConditions() {
    return Stream.of(
        Arguments.of("a completed JobSet completes the TrainJob", "Completed", "Complete", "AllJobsCompleted",
            "jobset completed successfully"),
        Arguments.of("a failed JobSet fails the TrainJob", "Failed", "Failed", "FailedJobs",
            "jobset failed due to one or more job failures"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("terminalJobSetConditions")
  void theJobSetsTerminalConditionBecomesTheTrainJobs(String description, String jobSetCondition,
      String trainJobCondition, String reason, String message) {
    String ns = "terminal-" + jobSetCondition.toLowerCase();
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> {
    });
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isPresent());

    cluster.setJobSetStatus(ns, "alpha", jobSetCondition, reason, message,
        Map.of("name", "node", "ready", 0, "succeeded", 2, "failed", 0, "active", 0, "suspended", 0));
    Condition condition = cluster.awaitCondition(ns, "alpha", trainJobCondition, "True");

    assertThat(condition.getReason()).isEqualTo(reason);
    assertThat(condition.getMessage()).isEqualTo(message);
    assertThat(cluster.trainJob(ns, "alpha").getStatus().getJobsStatus()).singleElement().satisfies(job -> {
      assertThat(job.getName()).isEqualTo("node");
      assertThat(job.getSucceeded()).isEqualTo(2);
      assertThat(job.getActive()).isZero();
    });
  }

  @Test
  void suspendingSuspendsTheJobSetAndResumingResumesIt() {
    String ns = "suspend";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().setSuspend(true));

    Condition suspended = cluster.awaitCondition(ns, "alpha", "Suspended", "True");
    assertThat(suspended.getReason()).isEqualTo("Suspended");
    assertThat(suspended.getMessage()).isEqualTo("TrainJob is suspended");
    await().atMost(TestCluster.TIMEOUT)
        .until(() -> cluster.jobSet(ns, "alpha").map(js -> js.getSpec().getSuspend()).orElse(false));

    resume(ns, "alpha");

    Condition resumed = cluster.awaitCondition(ns, "alpha", "Suspended", "False");
    assertThat(resumed.getReason()).isEqualTo("Resumed");
    assertThat(resumed.getMessage()).isEqualTo("TrainJob is resumed");
    await().atMost(TestCluster.TIMEOUT)
        .until(() -> cluster.jobSet(ns, "alpha").map(js -> Boolean.FALSE.equals(js.getSpec().getSuspend()))
            .orElse(false));
  }

  @Test
  void aTrainJobPastItsActiveDeadlineFailsAndLosesItsJobSet() {
    String ns = "deadline";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().setActiveDeadlineSeconds(2L));
    cluster.awaitJobSet(ns, "alpha");

    Condition failed = cluster.awaitCondition(ns, "alpha", "Failed", "True");

    assertThat(failed.getReason()).isEqualTo("DeadlineExceeded");
    assertThat(failed.getMessage()).isEqualTo("TrainJob exceeded its active deadline");
    assertThat(cluster.jobSet(ns, "alpha")).as("deleted before the status says Failed, as upstream does").isEmpty();
    awaitEvent(ns, "alpha", event -> {
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getReason()).isEqualTo("DeadlineExceeded");
      assertThat(event.getSource().getComponent()).isEqualTo("trainer-operator");
      assertThat(event.getReportingComponent()).isEqualTo("trainer-operator");
      assertThat(event.getReportingInstance()).isEqualTo(operator.identity());
    });
  }

  @Test
  void aJobSetThatReappearsAfterItsTrainJobFailedOnItsDeadlineIsDeletedAgain() {
    String ns = "deadline-again";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().setActiveDeadlineSeconds(2L));
    JobSet jobSet = cluster.awaitJobSet(ns, "alpha");
    cluster.awaitCondition(ns, "alpha", "Failed", "True");
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isEmpty());

    // as if the delete had failed: the JobSet is back, still controlled by the finished TrainJob
    jobSet.getMetadata().setResourceVersion(null);
    jobSet.getMetadata().setUid(null);
    cluster.client().resource(jobSet).create();

    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(ns, "alpha").isEmpty());
    assertThat(cluster.condition(ns, "alpha", "Failed")).get()
        .extracting(Condition::getReason).isEqualTo("DeadlineExceeded");
  }

  static Stream<Arguments> unavailableRuntimes() {
    return Stream.of(
        Arguments.of("a missing TrainingRuntime", "TrainingRuntime", TrainerConstants.GROUP,
            "spec.runtimeRef: Not found: missing: specified trainingRuntime must be created before the TrainJob is "
                + "created"),
        Arguments.of("a missing ClusterTrainingRuntime", "ClusterTrainingRuntime", TrainerConstants.GROUP,
            "spec.runtimeRef: Not found: missing: specified clusterTrainingRuntime must be created before the "
                + "TrainJob is created"),
        Arguments.of("a runtime of an unknown kind", "MyRuntime", "example.com",
            "unsupported runtime: MyRuntime.example.com"));
  }

  @ParameterizedTest(name = "{0} fails the TrainJob")
  @MethodSource("unavailableRuntimes")
  void aTrainJobWhoseRuntimeIsUnavailableFails(String description, String kind, String group, String message) {
    String ns = "unavailable-" + Math.abs(description.hashCode());
    cluster.createTrainJob(ns, "alpha", tj -> {
      RuntimeRef ref = tj.getSpec().getRuntimeRef();
      ref.setName("missing");
      ref.setKind(kind);
      ref.setApiGroup(group);
    });

    Condition failed = cluster.awaitCondition(ns, "alpha", "Failed", "True");

    assertThat(failed.getReason()).isEqualTo("TrainingRuntimeNotSupported");
    assertThat(failed.getMessage()).isEqualTo(message);
    assertThat(cluster.jobSet(ns, "alpha")).isEmpty();
    assertThat(cluster.client().configMaps().inNamespace(ns).list().getItems()).isEmpty();
  }

  static Stream<Arguments> foreignSnapshots() {
    return Stream.of(
        Arguments.of("labelled, so in the cache", true),
        Arguments.of("unlabelled, so only found on create", false));
  }

  @ParameterizedTest(name = "a ConfigMap of the snapshot's name that the TrainJob does not own, {0}, fails its build")
  @MethodSource("foreignSnapshots")
  void aForeignConfigMapIsNeverTakenForTheRuntimeSnapshot(String description, boolean labelled) {
    String ns = labelled ? "foreign-labelled" : "foreign-unlabelled";
    cluster.createRuntimes(ns);
    ConfigMap foreign = new ConfigMapBuilder()
        .withNewMetadata().withNamespace(ns).withName("alpha-runtime-snapshot")
        .withLabels(labelled ? Map.of(ChildObjects.TRAINJOB_NAME_LABEL, "alpha") : Map.of()).endMetadata()
        .addToData("runtime", "someone else's")
        .build();
    cluster.client().resource(foreign).create();
    cluster.createTrainJob(ns, "alpha", tj -> {
    });

    awaitEvent(ns, "alpha", event -> assertThat(event.getMessage()).isEqualTo("TrainJob resources reconciliation "
        + "failed: runtime snapshot ConfigMap " + ns + "/alpha-runtime-snapshot is not controlled by TrainJob alpha"));

    assertThat(cluster.trainJob(ns, "alpha").getStatus()).satisfiesAnyOf(
        status -> assertThat(status).isNull(), status -> assertThat(status.getConditions()).isNullOrEmpty());
    assertThat(cluster.jobSet(ns, "alpha")).isEmpty();
    assertThat(cluster.client().configMaps().inNamespace(ns).withName("alpha-runtime-snapshot").get().getData())
        .containsExactly(Map.entry("runtime", "someone else's"));
    awaitEvent(ns, "alpha", event -> {
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getReason()).isEqualTo("TrainJobResourcesCreationFailed");
      assertThat(event.getMessage()).startsWith("TrainJob resources reconciliation failed: runtime snapshot");
    });
  }

  @Test
  void aTrainJobManagedByAnotherControllerIsLeftAlone() {
    String ns = "multikueue";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "delegated", tj -> tj.getSpec().setManagedBy(TrainerConstants.MULTIKUEUE_MANAGED_BY));
    cluster.createTrainJob(ns, "here", tj -> {
    });

    cluster.awaitJobSet(ns, "here");

    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() ->
        cluster.trainJob(ns, "delegated").getStatus() == null && cluster.jobSet(ns, "delegated").isEmpty());
    assertThat(cluster.writesIn(ns)).noneMatch(request -> request.path().contains("/delegated"));
    assertThat(cluster.client().configMaps().inNamespace(ns).withName("delegated-runtime-snapshot").get()).isNull();
    assertThat(cluster.events(ns, "delegated")).isEmpty();
  }

  @Test
  void theCacheHoldsOnlyTheOperatorsOwnConfigMaps() {
    String ns = "cache";
    cluster.createRuntimes(ns);
    cluster.client().resource(new ConfigMapBuilder()
        .withNewMetadata().withNamespace(ns).withName("unrelated").endMetadata().build()).create();
    cluster.createTrainJob(ns, "alpha", tj -> {
    });
    cluster.awaitJobSet(ns, "alpha");

    assertThat(operator.cache().list(ConfigMap.class, ns))
        .extracting(cm -> cm.getMetadata().getName())
        .containsExactly("alpha-runtime-snapshot");
  }

  @Test
  void theTrainJobGaugeCountsTrainJobsByTrueCondition() {
    String ns = "gauge";
    cluster.createRuntimes(ns);
    cluster.createTrainJob(ns, "alpha", tj -> tj.getSpec().setSuspend(true));
    cluster.awaitCondition(ns, "alpha", "Suspended", "True");

    // counted from the cache every few seconds: the gauge appears with the first count
    await().atMost(TestCluster.TIMEOUT).ignoreException(MeterNotFoundException.class).untilAsserted(() ->
        assertThat(operator.meterRegistry().get("trainer.trainjobs").tag("condition", "Suspended").gauge().value())
            .isGreaterThanOrEqualTo(1));
    assertThat(operator.meterRegistry().get("operator.sdk.reconciliations.started").counters()).isNotEmpty();
  }

  private static void awaitEvent(String namespace, String name, Consumer<Event> requirements) {
    await().atMost(TestCluster.TIMEOUT)
        .untilAsserted(() -> assertThat(cluster.events(namespace, name)).anySatisfy(requirements::accept));
  }

  private static void resume(String namespace, String name) {
    cluster.client().resources(TrainJob.class).inNamespace(namespace).withName(name).edit(tj -> {
      tj.getSpec().setSuspend(false);
      return tj;
    });
  }

  private static void assertIsChildOf(HasMetadata child, TrainJob trainJob) {
    assertThat(child).as("child of %s", trainJob.getMetadata().getName()).isNotNull();
    List<OwnerReference> references = child.getMetadata().getOwnerReferences();
    assertThat(references).singleElement().satisfies(ref -> {
      assertThat(ref.getApiVersion()).isEqualTo("trainer.kubeflow.org/v1alpha1");
      assertThat(ref.getKind()).isEqualTo("TrainJob");
      assertThat(ref.getName()).isEqualTo(trainJob.getMetadata().getName());
      assertThat(ref.getUid()).isEqualTo(trainJob.getMetadata().getUid());
      assertThat(ref.getController()).isTrue();
      assertThat(ref.getBlockOwnerDeletion()).isTrue();
    });
    assertThat(child.getMetadata().getLabels())
        .containsEntry(ChildObjects.TRAINJOB_NAME_LABEL, trainJob.getMetadata().getName());
  }
}
