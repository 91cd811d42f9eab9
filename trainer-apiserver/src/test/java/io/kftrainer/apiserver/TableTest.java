package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;

class TableTest {

  /** What kubectl get sends. */
  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,"
      + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> server.installCrds(TestCrds.trainJobCrd()));

  private static Http http;

  @BeforeAll
  static void setUp() {
    http = new Http(API.server());
    trainJobs(API.client()).inNamespace("tables").resource(trainJob("tables", "a", 1)).create();
    trainJobs(API.client()).inNamespace("tables").resource(trainJob("tables", "b", 1)).create();
    GenericKubernetesResource status = trainJob("tables", "b", 1);
    status.setAdditionalProperty("status", Map.of("conditions", List.of(
        Map.of("type", "Created", "status", "True"), Map.of("type", "Complete", "status", "True"))));
    TestCrds.applyStatus(API.client(), status);
  }

  private static List<String> columnNames(JsonNode table) {
    List<String> names = new ArrayList<>();
    table.path("columnDefinitions").forEach(c -> names.add(c.path("name").asText()));
    return names;
  }

  @Test
  void listOfCustomResourcesUsesThePrinterColumns() {
    Http.Response response = http.get("/apis/trainer.kubeflow.org/v1alpha1/namespaces/tables/trainjobs", TABLE);
    assertThat(response.code()).isEqualTo(200);
    JsonNode table = response.json();
    assertThat(table.path("kind").asText()).isEqualTo("Table");
    assertThat(table.path("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
    assertThat(columnNames(table)).containsExactly("Name", "State", "Runtime", "Age");
    assertThat(table.at("/columnDefinitions/2/priority").asInt()).isEqualTo(1);
    assertThat(table.path("rows")).hasSize(2);
    JsonNode a = table.at("/rows/0");
    JsonNode b = table.at("/rows/1");
    assertThat(a.at("/cells/0").asText()).isEqualTo("a");
    assertThat(a.at("/cells/1").isNull()).as("no conditions yet").isTrue();
    assertThat(a.at("/cells/2").asText()).isEqualTo("torch-distributed");
    assertThat(a.at("/cells/3").asText()).matches("\\d+s");
    assertThat(b.at("/cells/1").asText()).as(".status.conditions[-1:].type").isEqualTo("Complete");
    assertThat(a.at("/object/kind").asText()).isEqualTo("PartialObjectMetadata");
    assertThat(a.at("/object/metadata/namespace").asText()).isEqualTo("tables");
  }

  @Test
  void singleObjectAndIncludeObject() {
    JsonNode table = http.get("/apis/trainer.kubeflow.org/v1alpha1/namespaces/tables/trainjobs/b?includeObject=Object",
        TABLE).json();
    assertThat(table.path("rows")).hasSize(1);
    assertThat(table.at("/rows/0/cells/1").asText()).isEqualTo("Complete");
    assertThat(table.at("/rows/0/object/kind").asText()).isEqualTo("TrainJob");
    assertThat(http.get("/apis/trainer.kubeflow.org/v1alpha1/namespaces/tables/trainjobs/zzz", TABLE).code())
        .isEqualTo(404);
  }

  @Test
  void builtInKindsGetDefaultColumnsAndPlainJsonStaysPlain() {
    API.client().configMaps().inNamespace("tables").resource(new ConfigMapBuilder().withNewMetadata().withName("cm")
        .endMetadata().addToData("x", "1").addToData("y", "2").build()).create();
    JsonNode table = http.get("/api/v1/namespaces/tables/configmaps", TABLE).json();
    assertThat(columnNames(table)).containsExactly("Name", "Data", "Age");
    assertThat(table.at("/rows/0/cells/1").asInt()).isEqualTo(2);

    JsonNode namespaces = http.get("/apis/coordination.k8s.io/v1/leases", TABLE).json();
    assertThat(columnNames(namespaces)).containsExactly("Name", "Holder", "Age");

    JsonNode plain = http.get("/api/v1/namespaces/tables/configmaps").json();
    assertThat(plain.path("kind").asText()).as("typed as kube-apiserver types lists").isEqualTo("ConfigMapList");
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
      "Succeeded | {phase: Succeeded, containerStatuses: [{name: c, ready: false, state: {terminated: {exitCode: 0, reason: Completed}}}]} | Completed",
      "Failed | {phase: Failed, containerStatuses: [{name: c, ready: false, state: {terminated: {exitCode: 3, reason: Error}}}]} | Error",
      "backing off | {phase: Running, containerStatuses: [{name: c, ready: false, restartCount: 2, state: {waiting: {reason: CrashLoopBackOff}}}]} | CrashLoopBackOff",
      "running | {phase: Running, containerStatuses: [{name: c, ready: true, state: {running: {}}}]} | Running",
      "init failed | {phase: Pending, initContainerStatuses: [{name: i, ready: false, state: {terminated: {exitCode: 1, reason: Error}}}]} | Init:Error",
      "initializing | {phase: Pending, initContainerStatuses: [{name: i, ready: false, state: {running: {}}}]} | Init:0/1",
      "no reason | {phase: Failed, containerStatuses: [{name: c, ready: false, state: {terminated: {exitCode: 137}}}]} | ExitCode:137",
      "pod reason | {phase: Failed, reason: ContainerConfigError} | ContainerConfigError",
  })
  void aPodsStatusColumnIsWhatKubectlPrints(String name, String status, String expected) {
    String pod = name.toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
    var created = API.client().pods().inNamespace("tables").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
        .withNewMetadata().withName(pod).endMetadata().withNewSpec().addNewContainer().withName("c")
        .withImage("busybox").endContainer().endSpec().build()).create();
    created.setStatus(API.client().getKubernetesSerialization().unmarshal("--- " + status,
        io.fabric8.kubernetes.api.model.PodStatus.class));
    if (status.contains("initContainerStatuses")) {
      created.getSpec().setInitContainers(List.of(new io.fabric8.kubernetes.api.model.ContainerBuilder()
          .withName("i").withImage("busybox").build()));
      API.client().pods().inNamespace("tables").withName(pod).delete();
      API.client().pods().inNamespace("tables").withName(pod).waitUntilCondition(java.util.Objects::isNull,
          10, java.util.concurrent.TimeUnit.SECONDS);
      created.getMetadata().setResourceVersion(null);
      created.getMetadata().setUid(null);
      created = API.client().pods().inNamespace("tables").resource(created).create();
      created.setStatus(API.client().getKubernetesSerialization().unmarshal("--- " + status,
          io.fabric8.kubernetes.api.model.PodStatus.class));
    }
    API.client().pods().inNamespace("tables").resource(created).updateStatus();

    JsonNode table = http.get("/api/v1/namespaces/tables/pods/" + pod, TABLE).json();

    assertThat(columnNames(table)).startsWith("Name", "Ready", "Status", "Restarts", "Age");
    assertThat(table.at("/rows/0/cells/2").asText()).isEqualTo(expected);
  }

  @Test
  void claimsAndVolumesGetKubectlsColumns() {
    API.client().persistentVolumeClaims().inNamespace("tables").resource(
        new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder().withNewMetadata().withName("data")
            .endMetadata().withNewSpec().withAccessModes("ReadWriteOnce", "ReadOnlyMany").withVolumeName("pv-data")
            .withNewResources().addToRequests("storage", new io.fabric8.kubernetes.api.model.Quantity("1Gi"))
            .endResources().endSpec().withNewStatus().withPhase("Bound")
            .withAccessModes("ReadWriteOnce", "ReadOnlyMany")
            .addToCapacity("storage", new io.fabric8.kubernetes.api.model.Quantity("1Gi")).endStatus().build())
        .create();
    JsonNode claims = http.get("/api/v1/namespaces/tables/persistentvolumeclaims", TABLE).json();
    assertThat(columnNames(claims)).containsExactly("Name", "Status", "Volume", "Capacity", "Access Modes",
        "StorageClass", "VolumeAttributesClass", "Age", "VolumeMode");
    assertThat(claims.at("/rows/0/cells/2").asText()).isEqualTo("pv-data");
    assertThat(claims.at("/rows/0/cells/4").asText()).isEqualTo("RWO,ROX");

    API.client().persistentVolumes().resource(new io.fabric8.kubernetes.api.model.PersistentVolumeBuilder()
        .withNewMetadata().withName("pv-data").endMetadata().withNewSpec().withAccessModes("ReadWriteMany")
        .addToCapacity("storage", new io.fabric8.kubernetes.api.model.Quantity("1Gi"))
        .withPersistentVolumeReclaimPolicy("Delete").withNewClaimRef().withNamespace("tables").withName("data")
        .endClaimRef().withNewHostPath().withPath("/tmp/data").endHostPath().endSpec().build()).create();
    JsonNode volumes = http.get("/api/v1/persistentvolumes", TABLE).json();
    assertThat(columnNames(volumes)).containsExactly("Name", "Capacity", "Access Modes", "Reclaim Policy",
        "Status", "Claim", "StorageClass", "VolumeAttributesClass", "Reason", "Age", "VolumeMode");
    assertThat(volumes.at("/rows/0/cells/2").asText()).isEqualTo("RWX");
    assertThat(volumes.at("/rows/0/cells/5").asText()).isEqualTo("tables/data");
  }
}
