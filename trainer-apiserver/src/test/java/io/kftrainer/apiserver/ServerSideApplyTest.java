package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kftrainer.apiserver.TestCrds.API_VERSION;
import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ServerSideApplyTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> server.installCrds(TestCrds.trainJobCrd()));

  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static Http http;
  private final String ns = "ssa-" + NAMESPACES.incrementAndGet();
  private Watch watch;

  @BeforeAll
  static void http() {
    http = new Http(API.server());
  }

  @AfterEach
  void closeWatch() {
    if (watch != null) {
      watch.close();
    }
  }

  private GenericKubernetesResource apply(GenericKubernetesResource object) {
    return trainJobs(API.client()).inNamespace(ns).resource(object).fieldManager("test").forceConflicts()
        .serverSideApply();
  }

  private List<Watcher.Action> actions = new CopyOnWriteArrayList<>();
  private List<GenericKubernetesResource> events = new CopyOnWriteArrayList<>();

  private void watchTrainJobs() {
    watch = trainJobs(API.client()).inNamespace(ns).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, GenericKubernetesResource resource) {
        actions.add(action);
        events.add(resource);
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
  }

  @Test
  void applyCreatesAnAbsentObjectWith201() {
    String yaml = ""
        + "apiVersion: " + API_VERSION + "\n"
        + "kind: TrainJob\n"
        + "metadata:\n"
        + "  name: created\n"
        + "spec:\n"
        + "  trainer: {numNodes: 1}\n"
        + "status:\n"
        + "  conditions: [{type: Complete, status: 'True'}]\n";
    Http.Response response = http.patch("/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + ns
        + "/trainjobs/created?fieldManager=test&force=true", "application/apply-patch+yaml", yaml);

    assertThat(response.code()).isEqualTo(201);
    assertThat(response.json().at("/metadata/namespace").asText()).isEqualTo(ns);
    assertThat(response.json().at("/metadata/uid").asText()).isNotEmpty();
    assertThat(response.json().at("/metadata/generation").asInt()).isEqualTo(1);
    assertThat(response.json().has("status")).as("status of a kind with a status subresource is ignored").isFalse();
    GenericKubernetesResource stored = trainJobs(API.client()).inNamespace(ns).withName("created").get();
    assertThat(stored.get("spec", "trainer", "numNodes").toString()).isEqualTo("1");
  }

  @Test
  void applyMergesOntoTheExistingObjectAndKeepsServerOwnedMetadata() {
    watchTrainJobs();
    GenericKubernetesResource created = apply(trainJob(ns, "job", 2));
    await().atMost(Duration.ofSeconds(10)).until(() -> actions.size() == 1);

    GenericKubernetesResource change = trainJob(ns, "job", 4);
    change.getMetadata().setLabels(Map.of("extra", "yes"));
    change.setAdditionalProperty("spec", Map.of("trainer", Map.of("numNodes", 4, "args", List.of("--epochs", "9"))));
    GenericKubernetesResource updated = apply(change);

    assertThat(updated.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
    assertThat(updated.getMetadata().getCreationTimestamp()).isEqualTo(created.getMetadata().getCreationTimestamp());
    assertThat(Long.parseLong(updated.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(created.getMetadata().getResourceVersion()));
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(updated.getMetadata().getLabels()).as("what the manager no longer applies goes")
        .doesNotContainKey("app").containsEntry("extra", "yes");
    assertThat(updated.<Object>get("spec", "runtimeRef")).as("what the manager no longer applies goes").isNull();
    assertThat(updated.<Object>get("spec", "trainer", "args")).as("lists are replaced")
        .isEqualTo(List.of("--epochs", "9"));
    await().atMost(Duration.ofSeconds(10)).until(() -> actions.size() == 2);
    assertThat(actions).containsExactly(Watcher.Action.ADDED, Watcher.Action.MODIFIED);
  }

  @Test
  void applyThatChangesNothingKeepsTheResourceVersionAndSendsNoEvent() {
    watchTrainJobs();
    GenericKubernetesResource first = apply(trainJob(ns, "noop", 2));
    await().atMost(Duration.ofSeconds(10)).until(() -> actions.size() == 1);

    GenericKubernetesResource again = apply(trainJob(ns, "noop", 2));
    assertThat(again.getMetadata().getResourceVersion()).isEqualTo(first.getMetadata().getResourceVersion());
    assertThat(again.getMetadata().getGeneration()).isEqualTo(1L);

    // a real change afterwards: the next event must be that change, so the no-op sent none
    GenericKubernetesResource changed = apply(trainJob(ns, "noop", 3));
    await().atMost(Duration.ofSeconds(10)).until(() -> actions.size() >= 2);
    assertThat(actions).containsExactly(Watcher.Action.ADDED, Watcher.Action.MODIFIED);
    assertThat(events.get(1).getMetadata().getResourceVersion())
        .isEqualTo(changed.getMetadata().getResourceVersion());
  }

  @Test
  void applyToStatusChangesOnlyStatusAndMainApplyLeavesStatusAlone() {
    GenericKubernetesResource created = apply(trainJob(ns, "st", 2));

    GenericKubernetesResource statusOnly = trainJob(ns, "st", 99);
    statusOnly.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of("type", "Created",
        "status", "True"))));
    GenericKubernetesResource afterStatus = TestCrds.applyStatus(API.client(), statusOnly);

    assertThat(afterStatus.<Object>get("spec", "trainer", "numNodes")).as("spec untouched by a status apply")
        .isEqualTo(2);
    assertThat(afterStatus.<Object>get("status", "conditions", 0, "type")).isEqualTo("Created");
    assertThat(afterStatus.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(afterStatus.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());

    GenericKubernetesResource mainWithStatus = trainJob(ns, "st", 2);
    mainWithStatus.setAdditionalProperty("status", Map.of("conditions", List.of()));
    GenericKubernetesResource afterMain = apply(mainWithStatus);
    assertThat(afterMain.<Object>get("status", "conditions", 0, "type")).isEqualTo("Created");
    assertThat(afterMain.getMetadata().getResourceVersion())
        .isEqualTo(afterStatus.getMetadata().getResourceVersion());
  }

  @Test
  void applyToTheStatusOfAnAbsentObjectIsNotFound() {
    Http.Response response = http.patch("/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + ns
        + "/trainjobs/ghost/status?fieldManager=test", "application/apply-patch+yaml",
        "{\"apiVersion\":\"" + API_VERSION + "\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":\"ghost\"},"
            + "\"status\":{}}");
    assertThat(response.code()).isEqualTo(404);
    assertThat(response.json().path("reason").asText()).isEqualTo("NotFound");
  }

  @Test
  void applyWithAStaleResourceVersionConflictsAndApplyNeedsAFieldManager() {
    GenericKubernetesResource created = apply(trainJob(ns, "rv", 2));
    apply(trainJob(ns, "rv", 3));
    GenericKubernetesResource stale = trainJob(ns, "rv", 5);
    stale.getMetadata().setResourceVersion(created.getMetadata().getResourceVersion());
    assertThatThrownBy(() -> apply(stale)).isInstanceOfSatisfying(KubernetesClientException.class,
        e -> assertThat(e.getCode()).isEqualTo(409));

    Http.Response noManager = http.patch("/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + ns + "/trainjobs/rv",
        "application/apply-patch+yaml", "{\"apiVersion\":\"" + API_VERSION + "\",\"kind\":\"TrainJob\"}");
    assertThat(noManager.code()).isEqualTo(422);
  }

  @Test
  void applyOfABuiltInKind() {
    var configMap = new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName("cm")
        .withNamespace(ns).endMetadata().addToData("a", "1").build();
    var applied = API.client().configMaps().inNamespace(ns).resource(configMap).fieldManager("test")
        .forceConflicts().serverSideApply();
    assertThat(applied.getData()).containsEntry("a", "1");
    configMap.setData(Map.of("b", "2"));
    applied = API.client().configMaps().inNamespace(ns).resource(configMap).fieldManager("test")
        .forceConflicts().serverSideApply();
    assertThat(applied.getData()).as("fields no longer applied are removed").doesNotContainKey("a")
        .containsEntry("b", "2");
  }

  @Test
  void applyRecordsAnApplyEntryPerFieldManager() {
    GenericKubernetesResource first = apply(trainJob(ns, "mf", 2));
    assertThat(first.getMetadata().getManagedFields()).singleElement().satisfies(entry -> {
      assertThat(entry.getManager()).isEqualTo("test");
      assertThat(entry.getOperation()).isEqualTo("Apply");
      assertThat(entry.getApiVersion()).isEqualTo(API_VERSION);
      assertThat(entry.getFieldsType()).isEqualTo("FieldsV1");
      // the stand-in CRD's schema is open: its fields are "deduced", owned as members too ("."), as in
      // structured-merge-diff; metadata is typed as ObjectMeta, labels a map of strings
      Map<String, Object> trainer = Map.of(".", Map.of(), "f:numNodes", Map.of(), "f:args", Map.of());
      Map<String, Object> spec = Map.of(".", Map.of(), "f:runtimeRef", Map.of(".", Map.of(), "f:name", Map.of()),
          "f:trainer", trainer);
      Map<String, Object> metadata = Map.of("f:labels", Map.of("f:app", Map.of()));
      assertThat(entry.getFieldsV1().getAdditionalProperties())
          .isEqualTo(Map.of("f:metadata", metadata, "f:spec", spec));
    });
    GenericKubernetesResource again = apply(trainJob(ns, "mf", 2));
    assertThat(again.getMetadata().getResourceVersion()).isEqualTo(first.getMetadata().getResourceVersion());

    GenericKubernetesResource other = new GenericKubernetesResource();
    other.setApiVersion(API_VERSION);
    other.setKind("TrainJob");
    other.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("mf")
        .addToAnnotations("note", "x").build());
    GenericKubernetesResource both = trainJobs(API.client()).inNamespace(ns).resource(other).fieldManager("other")
        .serverSideApply();
    assertThat(both.getMetadata().getManagedFields()).extracting(m -> m.getManager()).containsExactly("test", "other");

    GenericKubernetesResource status = trainJob(ns, "mf", 2);
    status.setAdditionalProperty("status", Map.of("conditions", List.of()));
    GenericKubernetesResource withStatus = TestCrds.applyStatus(API.client(), status);
    assertThat(withStatus.getMetadata().getManagedFields()).filteredOn(m -> "status".equals(m.getSubresource()))
        .singleElement().satisfies(m -> assertThat(m.getFieldsV1().getAdditionalProperties())
            .isEqualTo(Map.of("f:status", Map.of(".", Map.of(), "f:conditions", Map.of()))));
  }

  @Test
  void twoManagersConflictOnAFieldUnlessForcedAndAManagerDropsWhatItStopsApplying() {
    String ns = "owners";
    GenericKubernetesResource first = trainJob(ns, "owned", 1);
    first.getMetadata().setAnnotations(Map.of("first", "x"));
    trainJobs(API.client()).inNamespace(ns).resource(first).fieldManager("first").serverSideApply();

    GenericKubernetesResource second = trainJob(ns, "owned", 3);
    second.getMetadata().setLabels(null);
    var conflict = org.assertj.core.api.Assertions.catchThrowableOfType(
        io.fabric8.kubernetes.client.KubernetesClientException.class,
        () -> trainJobs(API.client()).inNamespace(ns).resource(second).fieldManager("second").serverSideApply());
    assertThat(conflict.getCode()).isEqualTo(409);
    assertThat(conflict.getStatus().getReason()).isEqualTo("Conflict");
    assertThat(conflict.getStatus().getMessage()).isEqualTo("Apply failed with 1 conflict: conflict with \"first\": "
        + ".spec.trainer.numNodes");

    GenericKubernetesResource forced = trainJobs(API.client()).inNamespace(ns).resource(second).fieldManager("second")
        .forceConflicts().serverSideApply();
    assertThat(forced.<Object>get("spec", "trainer", "numNodes")).isEqualTo(3);

    GenericKubernetesResource firstAgain = trainJob(ns, "owned", 1);
    firstAgain.getMetadata().setAnnotations(null);
    firstAgain.setAdditionalProperty("spec", Map.of("runtimeRef", Map.of("name", "torch-distributed")));
    GenericKubernetesResource after = trainJobs(API.client()).inNamespace(ns).resource(firstAgain)
        .fieldManager("first").serverSideApply();
    assertThat(after.getMetadata().getAnnotations()).as("no longer applied by first").doesNotContainKey("first");
    assertThat(after.<Object>get("spec", "trainer", "numNodes")).as("owned by second now").isEqualTo(3);
  }
}
