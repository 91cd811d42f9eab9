package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Field selectors on any field of a list, pages of a list, and kube-apiserver's AlreadyExists answer to a create. */
class ListAndCreateTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> server.installCrds(TestCrds.trainJobCrd()));

  private static ObjectReference trainJobRef(String name, String uid) {
    return new ObjectReferenceBuilder().withApiVersion(TestCrds.API_VERSION).withKind("TrainJob")
        .withNamespace("events").withName(name).withUid(uid).build();
  }

  private static Event event(String name, ObjectReference involved) {
    return new EventBuilder().withNewMetadata().withName(name).withNamespace("events").endMetadata()
        .withInvolvedObject(involved).withReason("Created").withMessage("created " + involved.getName())
        .withType("Normal").build();
  }

  @Test
  void aLimitedListContinuesWhereTheLastPageEndedWithinTheSelection() {
    for (String name : new String[] {"p-1", "p-2", "p-3", "p-4", "p-5"}) {
      API.client().configMaps().inNamespace("pages").resource(new ConfigMapBuilder().withNewMetadata()
          .withName(name).addToLabels("page", name.equals("p-3") ? "no" : "yes").endMetadata().build()).create();
    }

    var first = API.client().configMaps().inNamespace("pages").withLabel("page", "yes")
        .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(2L).build());
    var rest = API.client().configMaps().inNamespace("pages").withLabel("page", "yes")
        .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(2L)
            .withContinue(first.getMetadata().getContinue()).build());

    assertThat(first.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("p-1", "p-2");
    assertThat(rest.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("p-4", "p-5");
    assertThat(rest.getMetadata().getContinue()).isNull();
  }

  @Test
  void coreEventsAreSelectedByTheirInvolvedObject() {
    API.client().v1().events().inNamespace("events").resource(event("a.1", trainJobRef("a", "uid-a"))).create();
    API.client().v1().events().inNamespace("events").resource(event("b.1", trainJobRef("b", "uid-b"))).create();

    assertThat(API.client().v1().events().inNamespace("events")
        .withField("involvedObject.name", "a").withField("involvedObject.namespace", "events")
        .withField("involvedObject.uid", "uid-a").withField("involvedObject.kind", "TrainJob").list().getItems())
        .extracting(e -> e.getMetadata().getName()).containsExactly("a.1");
    assertThat(API.client().v1().events().inNamespace("events").withoutField("involvedObject.name", "a").list()
        .getItems()).extracting(e -> e.getMetadata().getName()).containsExactly("b.1");
    assertThat(API.client().v1().events().inAnyNamespace().withField("metadata.name", "b.1").list().getItems())
        .extracting(e -> e.getMetadata().getName()).containsExactly("b.1");
    assertThat(API.client().v1().events().inNamespace("events").withField("involvedObject.uid", "uid-c").list()
        .getItems()).isEmpty();
  }

  @Test
  void eventsK8sIoEventsAreSelectedByRegarding() {
    for (String name : new String[] {"a", "b"}) {
      API.client().events().v1().events().inNamespace("events").resource(
          new io.fabric8.kubernetes.api.model.events.v1.EventBuilder().withNewMetadata().withName(name + ".2")
              .endMetadata().withRegarding(trainJobRef(name, "uid-" + name)).withReason("Created")
              .withAction("Create").withReportingController("test").withReportingInstance("test-1")
              .withEventTime(new io.fabric8.kubernetes.api.model.MicroTime("2025-01-01T00:00:00.000000Z"))
              .withType("Normal").build()).create();
    }
    JsonNode list = new Http(API.server()).get("/apis/events.k8s.io/v1/namespaces/events/events?fieldSelector="
        + "regarding.name%3Db%2Cregarding.kind%3DTrainJob").json();
    assertThat(list.path("apiVersion").asText() + " " + list.path("kind").asText())
        .as("typed, for client-go's typed clients").isEqualTo("events.k8s.io/v1 EventList");
    assertThat(list.path("items")).hasSize(1);
    assertThat(list.path("items").get(0).path("metadata").path("name").asText()).isEqualTo("b.2");
  }

  @Test
  void aSelectorWithoutOperatorIsABadRequest() {
    Http.Response response = new Http(API.server()).get("/api/v1/namespaces/events/events?fieldSelector=oops");
    assertThat(response.code()).isEqualTo(400);
    assertThat(response.json().path("message").asText()).isEqualTo("invalid selector: 'oops'; can't understand 'oops'");
  }

  @Test
  void creatingAnExistingCustomResourceIsAlreadyExists() {
    trainJobs(API.client()).inNamespace("dup").resource(trainJob("dup", "twice", 1)).create();
    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
        () -> trainJobs(API.client()).inNamespace("dup").resource(trainJob("dup", "twice", 2)).create());
    assertAlreadyExists(e.getStatus(), "trainjobs.trainer.kubeflow.org \"twice\" already exists", "twice",
        TestCrds.GROUP, "trainjobs");
    assertThat(trainJobs(API.client()).inNamespace("dup").withName("twice").get().<Object>get("spec", "trainer",
        "numNodes")).as("the stored object is unchanged").isEqualTo(1);
  }

  @Test
  void creatingAnExistingConfigMapIsAlreadyExistsAlsoInADryRun() {
    API.client().configMaps().inNamespace("dup").resource(new ConfigMapBuilder().withNewMetadata().withName("cm")
        .endMetadata().addToData("k", "1").build()).create();
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"},\"data\":{\"k\":\"2\"}}";
    for (String query : new String[] {"", "?dryRun=All"}) {
      Http.Response response = new Http(API.server()).post("/api/v1/namespaces/dup/configmaps" + query,
          "application/json", body);
      assertThat(response.code()).as(query).isEqualTo(409);
      assertAlreadyExists(API.client().getKubernetesSerialization().unmarshal(response.body(), Status.class),
          "configmaps \"cm\" already exists", "cm", "", "configmaps");
    }
    assertThat(API.client().configMaps().inNamespace("dup").withName("cm").get().getData()).containsEntry("k", "1");
  }

  private static void assertAlreadyExists(Status status, String message, String name, String group, String kind) {
    assertThat(status.getCode()).isEqualTo(409);
    assertThat(status.getStatus()).isEqualTo("Failure");
    assertThat(status.getReason()).isEqualTo("AlreadyExists");
    assertThat(status.getMessage()).isEqualTo(message);
    assertThat(status.getDetails().getName()).isEqualTo(name);
    assertThat(status.getDetails().getGroup()).isEqualTo(group);
    assertThat(status.getDetails().getKind()).isEqualTo(kind);
  }
}
