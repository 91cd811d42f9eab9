package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.APIResource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DiscoveryTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> {
        server.installCrds(TestCrds.trainJobCrd());
        server.installCrds(TestCrds.clusterTrainingRuntimeCrd());
      });

  private static Http http;

  @BeforeAll
  static void http() {
    http = new Http(API.server());
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> result = new ArrayList<>();
    array.forEach(n -> result.add(field == null ? n.asText() : n.path(field).asText()));
    return result;
  }

  @Test
  void coreDiscovery() {
    JsonNode api = http.get("/api").json();
    assertThat(api.path("kind").asText()).isEqualTo("APIVersions");
    assertThat(texts(api.path("versions"), null)).containsExactly("v1");

    JsonNode v1 = http.get("/api/v1").json();
    assertThat(v1.path("groupVersion").asText()).isEqualTo("v1");
    assertThat(texts(v1.path("resources"), "name")).contains("namespaces", "configmaps", "secrets", "events", "pods",
        "pods/status", "services", "serviceaccounts");
  }

  @Test
  void groupsIncludeBuiltInsAndInstalledCrds() {
    JsonNode apis = http.get("/apis").json();
    assertThat(apis.path("kind").asText()).isEqualTo("APIGroupList");
    assertThat(texts(apis.path("groups"), "name")).contains("coordination.k8s.io", "apiextensions.k8s.io",
        "admissionregistration.k8s.io", "events.k8s.io", "batch", "trainer.kubeflow.org");

    JsonNode group = http.get("/apis/trainer.kubeflow.org").json();
    assertThat(group.at("/preferredVersion/groupVersion").asText()).isEqualTo("trainer.kubeflow.org/v1alpha1");

    JsonNode resources = http.get("/apis/trainer.kubeflow.org/v1alpha1").json();
    assertThat(resources.path("groupVersion").asText()).isEqualTo("trainer.kubeflow.org/v1alpha1");
    assertThat(texts(resources.path("resources"), "name")).containsExactlyInAnyOrder("trainjobs", "trainjobs/status",
        "clustertrainingruntimes");
    JsonNode trainJobs = null;
    for (JsonNode resource : resources.path("resources")) {
      trainJobs = resource.path("name").asText().equals("trainjobs") ? resource : trainJobs;
    }
    assertThat(trainJobs.path("kind").asText()).isEqualTo("TrainJob");
    assertThat(trainJobs.path("namespaced").asBoolean()).isTrue();
    assertThat(texts(trainJobs.path("shortNames"), null)).containsExactly("tj");
    assertThat(texts(trainJobs.path("verbs"), null)).contains("get", "list", "watch", "create", "patch", "delete");
    for (JsonNode resource : resources.path("resources")) {
      assertThat(resource.path("namespaced").asBoolean()).as(resource.path("name").asText())
          .isEqualTo(!resource.path("name").asText().equals("clustertrainingruntimes"));
    }

    assertThat(texts(http.get("/apis/coordination.k8s.io/v1").json().path("resources"), "name"))
        .containsExactly("leases");
    assertThat(http.get("/apis/nope.example.com/v1").code()).isEqualTo(404);
  }

  @Test
  void theFabric8ClientSeesTheCrdsAndDeletedCrdsDisappear() {
    List<APIResource> resources = API.client().getApiResources("trainer.kubeflow.org/v1alpha1").getResources();
    assertThat(resources).extracting(APIResource::getName).contains("trainjobs");

    try (EmbeddedApiServer other = EmbeddedApiServer.start()) {
      other.installCrds(TestCrds.trainJobCrd());
      Http otherHttp = new Http(other);
      assertThat(otherHttp.get("/apis").body()).contains("trainer.kubeflow.org");
      other.client().apiextensions().v1().customResourceDefinitions().withName("trainjobs.trainer.kubeflow.org")
          .delete();
      assertThat(otherHttp.get("/apis").body()).doesNotContain("trainer.kubeflow.org");
      assertThat(otherHttp.get("/apis/trainer.kubeflow.org/v1alpha1").code()).isEqualTo(404);
    }
  }

  @Test
  void versionRootAndOpenApi() {
    JsonNode version = http.get("/version").json();
    assertThat(version.path("gitVersion").asText()).isEqualTo(EmbeddedApiServer.DEFAULT_SERVER_VERSION);
    assertThat(version.path("major").asText()).isEqualTo("1");
    assertThat(version.path("minor").asText()).isEqualTo("32");
    assertThat(texts(http.get("/").json().path("paths"), null)).contains("/api", "/apis",
        "/apis/trainer.kubeflow.org/v1alpha1", "/version");

    JsonNode index = http.get("/openapi/v3").json();
    String url = index.at("/paths/apis~1trainer.kubeflow.org~1v1alpha1/serverRelativeURL").asText();
    assertThat(url).startsWith("/openapi/v3/apis/trainer.kubeflow.org/v1alpha1?hash=");
    JsonNode spec = http.get(url).json();
    JsonNode patch = spec.at("/paths/~1apis~1trainer.kubeflow.org~1v1alpha1~1namespaces~1{namespace}~1trainjobs~1{name}"
        + "/patch");
    assertThat(patch.at("/x-kubernetes-group-version-kind/kind").asText()).isEqualTo("TrainJob");
    assertThat(patch.at("/parameters/0/name").asText()).isEqualTo("fieldValidation");
    assertThat(http.get("/openapi/v2").json().path("swagger").asText()).isEqualTo("2.0");
  }

  @Test
  void crdsReportThemselvesEstablished() {
    var crd = API.client().apiextensions().v1().customResourceDefinitions().withName("trainjobs.trainer.kubeflow.org")
        .get();
    assertThat(crd.getStatus().getConditions()).anySatisfy(c -> {
      assertThat(c.getType()).isEqualTo("Established");
      assertThat(c.getStatus()).isEqualTo("True");
    });
    assertThat(crd.getStatus().getAcceptedNames().getPlural()).isEqualTo("trainjobs");
    assertThat(crd.getStatus().getStoredVersions()).containsExactly("v1alpha1");
  }
}
