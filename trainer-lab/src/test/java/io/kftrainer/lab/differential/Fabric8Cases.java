package io.kftrainer.lab.differential;

import static io.kftrainer.lab.differential.Observe.call;
import static io.kftrainer.lab.differential.Observe.configMap;
import static io.kftrainer.lab.differential.Observe.request;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The fabric8 client's cases: the errors a Java client meets, with their status codes, reasons and causes. */
final class Fabric8Cases {

  private static final String CONFIGMAPS = "/api/v1/namespaces/%s/configmaps";
  private static final String TRAINJOBS = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/%s/trainjobs";

  private Fabric8Cases() {
  }

  static void add(Cases cases) {
    cases.add("fabric8", "create, AlreadyExists", (side, ns) -> {
      side.admin().configMaps().inNamespace(ns).resource(settings()).create();
      return call(() -> side.admin().configMaps().inNamespace(ns).resource(settings()).create());
    });
    cases.add("fabric8", "update with a stale resourceVersion", (side, ns) -> {
      ConfigMap created = side.admin().configMaps().inNamespace(ns).resource(settings()).create();
      side.admin().configMaps().inNamespace(ns).withName("settings").edit(c -> new ConfigMapBuilder(c)
          .addToData("b", "2").build());
      created.setData(Map.of("a", "3"));
      return call(() -> side.admin().configMaps().inNamespace(ns).resource(created).update())
          .put("object", configMap(side, ns, "settings"));
    });
    cases.add("fabric8", "update of a missing object", (side, ns) -> call(() -> side.admin().configMaps()
        .inNamespace(ns).resource(new ConfigMapBuilder(settings()).editMetadata().withName("missing")
            .withResourceVersion("1").endMetadata().build()).update()));
    cases.add("fabric8", "create with an invalid name", (side, ns) -> call(() -> side.admin().configMaps()
        .inNamespace(ns).resource(new ConfigMapBuilder(settings()).editMetadata().withName("Bad_Name")
            .endMetadata().build()).create()));
    cases.add("fabric8", "create in a namespace that does not exist", (side, ns) -> call(() -> side.admin()
        .configMaps().inNamespace(ns + "-absent").resource(settings()).create()));
    cases.add("fabric8", "create with dryRun", (side, ns) -> call(() -> side.admin().configMaps().inNamespace(ns)
        .resource(settings()).dryRun().create()).put("object", configMap(side, ns, "settings")));
    fieldValidation(cases);
    cases.add("fabric8", "watch from a compacted resourceVersion", Fabric8Cases::watchTooOld);
    cases.add("fabric8", "create a 4 MB ConfigMap", (side, ns) -> call(() -> side.admin().configMaps()
        .inNamespace(ns).resource(large(4 << 20)).create()).put("object", configMap(side, ns, "large")));
    cases.add("fabric8", "create a 2 MB ConfigMap", (side, ns) -> call(() -> side.admin().configMaps()
        .inNamespace(ns).resource(large(2 << 20)).create()).put("object", configMap(side, ns, "large")));
    cases.add("fabric8", "list and create as a ServiceAccount without rights", (side, ns) -> {
      KubectlCases.account(side, ns);
      KubernetesClient nobody = side.client(ns, "nobody");
      return new Observation()
          .putAll("list", call(() -> nobody.configMaps().inNamespace(ns).list()))
          .putAll("create", call(() -> nobody.configMaps().inNamespace(ns).resource(settings()).create()));
    });
    cases.add("fabric8", "TokenRequest of 5 minutes", (side, ns) -> {
      KubectlCases.account(side, ns);
      return call(() -> side.admin().serviceAccounts().inNamespace(ns).withName("nobody").tokenRequest(
          new TokenRequestBuilder().withNewSpec().withExpirationSeconds(300L).endSpec().build()));
    });
    cases.add("fabric8", "TokenRequest of 10 minutes", (side, ns) -> {
      KubectlCases.account(side, ns);
      return call(() -> side.admin().serviceAccounts().inNamespace(ns).withName("nobody").tokenRequest(
          new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L).endSpec().build()));
    });
    cases.add("fabric8", "server-side apply, conflict with another field manager", (side, ns) -> {
      side.admin().configMaps().inNamespace(ns).resource(settings()).fieldManager("first").serverSideApply();
      return call(() -> side.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder(settings())
          .withData(Map.of("a", "2")).build()).fieldManager("second").serverSideApply())
          .put("object", configMap(side, ns, "settings"));
    });
    cases.add("fabric8", "create an invalid TrainJob", (side, ns) -> call(() -> side.admin()
        .genericKubernetesResources(Manifests.TRAINJOB_API_VERSION, "TrainJob").inNamespace(ns)
        .resource(trainJob("""
            {"metadata": {"name": "1invalid"}, "spec": {"runtimeRef": {"name": "torch", "kind": "Runtime"},
             "trainer": {"numNodes": -1}}}""")).create()));
    cases.add("fabric8", "strategic merge patch of a TrainJob", (side, ns) -> {
      side.admin().genericKubernetesResources(Manifests.TRAINJOB_API_VERSION, "TrainJob").inNamespace(ns)
          .resource(trainJob("{\"metadata\": {\"name\": \"mnist\"}, \"spec\": {\"runtimeRef\": {\"name\": \"t\"}}}"))
          .create();
      return call(() -> side.admin().genericKubernetesResources(Manifests.TRAINJOB_API_VERSION, "TrainJob")
          .inNamespace(ns).withName("mnist").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
              "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
    });
  }

  /** Unknown and duplicate fields, sent as written (a typed call could not), with and without fieldValidation. */
  private static void fieldValidation(Cases cases) {
    String unknown = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"unknown\"},"
        + "\"data\":{\"a\":\"1\"},\"spec\":{\"replicas\":1}}";
    String duplicate = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"duplicate\"},"
        + "\"data\":{\"a\":\"1\",\"a\":\"2\"}}";
    String unknownTrainJob = "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\","
        + "\"metadata\":{\"name\":\"unknown\"},\"spec\":{\"runtimeRef\":{\"name\":\"t\"},\"replicas\":3,"
        + "\"trainer\":{\"numNodes\":1,\"numProc\":2}}}";
    for (String validation : List.of("Strict", "Warn", "Ignore", "")) {
      String query = validation.isEmpty() ? "" : "?fieldValidation=" + validation;
      String how = validation.isEmpty() ? "no fieldValidation" : "fieldValidation=" + validation;
      cases.add("fabric8", "POST a ConfigMap with an unknown field, " + how, (side, ns) -> request(side, "POST",
          CONFIGMAPS.formatted(ns) + query, "application/json", unknown)
          .put("object", configMap(side, ns, "unknown")));
      cases.add("fabric8", "POST a ConfigMap with a duplicate field, " + how, (side, ns) -> request(side, "POST",
          CONFIGMAPS.formatted(ns) + query, "application/json", duplicate)
          .put("object", configMap(side, ns, "duplicate")));
      cases.add("fabric8", "POST a TrainJob with unknown fields, " + how, (side, ns) -> request(side, "POST",
          TRAINJOBS.formatted(ns) + query, "application/json", unknownTrainJob)
          .put("object", Observe.object(side, ns, Manifests.TRAINJOB_API_VERSION, "TrainJob", "unknown")));
    }
    for (String validation : List.of("Strict", "Warn", "Ignore")) {
      trainJobFieldValidation(cases, validation);
    }
  }

  /**
   * A TrainJob's unknown fields (in spec, in a list... and in metadata) and repeated keys on every write, with
   * {@code validation}: create, update, merge patch, and apply (repeated keys; unknown fields, which fail the typing).
   */
  private static void trainJobFieldValidation(Cases cases, String validation) {
    String query = "?fieldValidation=" + validation;
    String how = "fieldValidation=" + validation;
    String fields = "\"metadata\":{\"name\":\"fields\"%s,\"lables\":{\"a\":\"b\"}},\"spec\":{\"runtimeRef\":"
        + "{\"name\":\"t\"},\"suspend\":false,\"suspend\":true,\"suspended\":true,"
        + "\"trainer\":{\"numNode\":2,\"comand\":[\"python\"]}}";
    cases.add("fabric8", "POST a TrainJob with unknown and duplicate fields, " + how, (side, ns) -> request(side,
        "POST", TRAINJOBS.formatted(ns) + query, "application/json", "{" + TRAINJOB_TYPE + fields.formatted("") + "}")
        .put("object", fieldsTrainJob(side, ns)));
    cases.add("fabric8", "PUT a TrainJob with unknown and duplicate fields, " + how, (side, ns) -> {
      String version = createFieldsTrainJob(side, ns);
      return request(side, "PUT", TRAINJOBS.formatted(ns) + "/fields" + query, "application/json",
          "{" + TRAINJOB_TYPE + fields.formatted(",\"resourceVersion\":\"" + version + "\"") + "}")
          .put("object", fieldsTrainJob(side, ns));
    });
    cases.add("fabric8", "merge patch a TrainJob with unknown and duplicate fields, " + how, (side, ns) -> {
      createFieldsTrainJob(side, ns);
      return request(side, "PATCH", TRAINJOBS.formatted(ns) + "/fields" + query, "application/merge-patch+json",
          "{\"metadata\":{\"lables\":{\"a\":\"b\"}},\"spec\":{\"suspend\":false,\"suspend\":true,"
              + "\"suspended\":true}}").put("object", fieldsTrainJob(side, ns));
    });
    cases.add("fabric8", "apply a TrainJob with a duplicate field, " + how, (side, ns) -> request(side, "PATCH",
        TRAINJOBS.formatted(ns) + "/fields" + query + "&fieldManager=lab", "application/apply-patch+yaml", """
            apiVersion: trainer.kubeflow.org/v1alpha1
            kind: TrainJob
            metadata:
              name: fields
            spec:
              runtimeRef: {name: t}
              suspend: false
              suspend: true
            """).put("object", fieldsTrainJob(side, ns)));
    // one unknown field: of several, kube-apiserver names one picked in Go's map order, a different one per run
    cases.add("fabric8", "apply a TrainJob with an unknown field, " + how, (side, ns) -> request(side, "PATCH",
        TRAINJOBS.formatted(ns) + "/fields" + query + "&fieldManager=lab", "application/apply-patch+yaml",
        "{" + TRAINJOB_TYPE + "\"metadata\":{\"name\":\"fields\",\"namespace\":\"" + ns + "\"},"
            + "\"spec\":{\"runtimeRef\":{\"name\":\"t\"},\"trainer\":{\"numNode\":2}}}")
        .put("object", fieldsTrainJob(side, ns)));
  }

  private static final String TRAINJOB_TYPE = "\"apiVersion\":\"" + Manifests.TRAINJOB_API_VERSION + "\","
      + "\"kind\":\"TrainJob\",";

  /** Creates the TrainJob {@code fields} of the field validation cases, suspended; returns its resourceVersion. */
  private static String createFieldsTrainJob(Side side, String ns) {
    return side.admin().genericKubernetesResources(Manifests.TRAINJOB_API_VERSION, "TrainJob").inNamespace(ns)
        .resource(trainJob("{\"metadata\": {\"name\": \"fields\"}, \"spec\": {\"runtimeRef\": {\"name\": \"t\"},"
            + " \"suspend\": true}}")).create().getMetadata().getResourceVersion();
  }

  private static JsonNode fieldsTrainJob(Side side, String ns) {
    return Observe.object(side, ns, Manifests.TRAINJOB_API_VERSION, "TrainJob", "fields");
  }

  /** A watch of events from a resourceVersion the server has forgotten: how the watch ends. */
  private static Observation watchTooOld(Side side, String ns) throws Exception {
    String version = side.admin().v1().events().inNamespace(ns).list().getMetadata().getResourceVersion();
    side.forgetHistory();
    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    List<String> events = new CopyOnWriteArrayList<>();
    try (Watch watch = side.admin().v1().events().inNamespace(ns).watch(new ListOptionsBuilder()
        .withResourceVersion(version).build(), new Watcher<Event>() {
          @Override
          public void eventReceived(Action action, Event event) {
            events.add(action.name());
          }

          @Override
          public void onClose(WatcherException cause) {
            closed.complete(cause);
          }

          @Override
          public void onClose() {
            closed.complete(null);
          }
        })) {
      Observation seen;
      try {
        WatcherException cause = closed.get(Observe.SETTLE.toSeconds(), TimeUnit.SECONDS);
        seen = cause == null ? new Observation().put("closed", "without an error")
            : Normalized.failure(cause.asClientException());
      } catch (TimeoutException e) {
        seen = new Observation().put("closed", "no");
      }
      return seen.put("events", String.join(",", events));
    }
  }

  private static ConfigMap settings() {
    return new ConfigMapBuilder().withNewMetadata().withName("settings").addToLabels("app", "a").endMetadata()
        .addToData("a", "1").build();
  }

  private static ConfigMap large(int bytes) {
    return new ConfigMapBuilder().withNewMetadata().withName("large").endMetadata()
        .addToData("large", "x".repeat(bytes)).build();
  }

  private static GenericKubernetesResource trainJob(String json) {
    GenericKubernetesResource trainJob = Serialization.unmarshal(json, GenericKubernetesResource.class);
    trainJob.setApiVersion(Manifests.TRAINJOB_API_VERSION);
    trainJob.setKind("TrainJob");
    return trainJob;
  }
}
