package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** OpenAPI v3 and v2 built from the installed CRDs, and kubectl explain on them. */
class OpenApiTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String SCHEMA = "org.kubeflow.trainer.v1alpha1.TrainJob";

  @BeforeAll
  static void crds() {
    API.server().installCrds(TestCrds.realCrd("trainjobs"));
  }

  @Test
  void theGroupVersionDocumentCarriesTheCrdSchema() {
    Http http = new Http(API.server());
    String url = http.get("/openapi/v3").json().at("/paths/apis~1trainer.kubeflow.org~1v1alpha1/serverRelativeURL")
        .asText();
    assertThat(url).startsWith("/openapi/v3/apis/trainer.kubeflow.org/v1alpha1?hash=");
    JsonNode schema = http.get(url).json().path("components").path("schemas").path(SCHEMA);
    assertThat(schema.at("/x-kubernetes-group-version-kind/0/kind").asText()).isEqualTo("TrainJob");
    assertThat(schema.at("/properties/spec/properties/trainer/properties/numNodes/type").asText())
        .isEqualTo("integer");
    assertThat(schema.at("/properties/metadata/allOf/0/$ref").asText())
        .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");

    JsonNode v2 = http.get("/openapi/v2", "application/json").json();
    assertThat(v2.path("swagger").asText()).isEqualTo("2.0");
    assertThat(v2.at("/definitions/" + SCHEMA + "/properties/metadata/allOf/0/$ref").asText())
        .isEqualTo("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assertThat(http.get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf").code())
        .isEqualTo(406);
  }

  @Test
  void kubectlExplain(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(API.server(), dir);
    assertThat(kubectl.ok("explain", "trainjob.spec.trainer")).contains("GROUP:      trainer.kubeflow.org",
        "KIND:       TrainJob", "FIELD: trainer", "numNodes", "<integer>");
    assertThat(kubectl.ok("explain", "trainjobs", "--recursive")).contains("metadata", "spec", "status");
    assertThat(kubectl.ok("explain", "trainjob.metadata.labels")).contains("map[string]string");
  }
}
