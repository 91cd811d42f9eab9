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
}
