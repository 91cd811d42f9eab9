package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Custom resources are pruned, defaulted and validated against the real CRDs' schemas and CEL rules. */
class SchemaValidationTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String TRAINJOBS = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs";

  /** The CRD's minimum of numNodes, read from the CRD: the test follows the API's markers. */
  private static String minimumNumNodes;

  @BeforeAll
  static void crds() {
    var crd = API.server().installCrds(TestCrds.realCrd("trainjobs")).get(0);
    double minimum = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec")
        .getProperties().get("trainer").getProperties().get("numNodes").getMinimum();
    minimumNumNodes = Long.toString((long) minimum);
  }

  private static String trainJob(String name, String trainer) {
    return "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{\"runtimeRef\":{\"name\":\"torch-distributed\"},\"trainer\":" + trainer + "}}";
  }

  @Test
  void aNegativeNumNodesIsRejectedWithKubeApiserversMessage() {
    Http.Response response = new Http(API.server()).post(TRAINJOBS, "application/json",
        trainJob("negative", "{\"numNodes\":-1}"));
    assertThat(response.code()).isEqualTo(422);
    JsonNode status = response.json();
    assertThat(status.path("reason").asText()).isEqualTo("Invalid");
    assertThat(status.path("message").asText()).isEqualTo("TrainJob.trainer.kubeflow.org \"negative\" is invalid: "
        + "spec.trainer.numNodes: Invalid value: -1: spec.trainer.numNodes in body should be greater than or equal "
        + "to " + minimumNumNodes);
    assertThat(status.at("/details/causes/0/field").asText()).isEqualTo("spec.trainer.numNodes");
  }

  @Test
  void eachCauseCarriesKubesErrorType() {
    Http.Response response = new Http(API.server()).post(TRAINJOBS, "application/json",
        "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":"
            + "\"no-runtime\"},\"spec\":{\"trainer\":{\"numNodes\":-1}}}");
    assertThat(response.code()).isEqualTo(422);
    List<String> causes = new ArrayList<>();
    response.json().at("/details/causes").forEach(cause -> causes.add(cause.path("reason").asText() + " "
        + cause.path("field").asText()));
    assertThat(causes).contains("FieldValueRequired spec.runtimeRef", "FieldValueInvalid spec.trainer.numNodes");
  }

  @Test
  void aNameThatIsNotADns1035LabelFailsTheCrdsCelRule() {
    Http.Response response = new Http(API.server()).post(TRAINJOBS, "application/json",
        trainJob("1jobname", "{\"numNodes\":1}"));
    assertThat(response.code()).isEqualTo(422);
    assertThat(response.json().path("message").asText()).startsWith("TrainJob.trainer.kubeflow.org \"1jobname\" is "
        + "invalid: <nil>: Invalid value: \"object\": ");
  }

  /** kube-apiserver's errors of a TrainJob named 2wrongs with numNodes -1: one of the schema, one of a CEL rule. */
  private static String[] twoWrongs() {
    return new String[] {"spec.trainer.numNodes: Invalid value: -1: spec.trainer.numNodes in body should be greater "
        + "than or equal to " + minimumNumNodes,
        "<nil>: Invalid value: \"object\": metadata.name must match RFC 1035 DNS label format"};
  }

  @Test
  void schemaAndCelErrorsAreReportedTogether() {
    Http.Response response = new Http(API.server()).post(TRAINJOBS, "application/json",
        trainJob("2wrongs", "{\"numNodes\":-1}"));
    assertThat(response.code()).isEqualTo(422);
    assertThat(response.json().path("message").asText()).isEqualTo("TrainJob.trainer.kubeflow.org \"2wrongs\" is "
        + "invalid: [" + String.join(", ", twoWrongs()) + "]");
    assertThat(response.json().at("/details/causes").size()).isEqualTo(2);
  }

  /** {@code kubectl create} of a TrainJob with {@code numNodes: -1}; it must fail. */
  private static Kubectl.Result kubectlCreateNegative(Path dir, String name) {
    Kubectl.Result result = new Kubectl(API.server(), dir).runWithInput("apiVersion: trainer.kubeflow.org/v1alpha1\n"
        + "kind: TrainJob\nmetadata: {name: " + name + "}\nspec:\n  runtimeRef: {name: torch-distributed}\n"
        + "  trainer: {numNodes: -1}\n", "create", "-f", "-");
    assertThat(result.exit()).isNotZero();
    return result;
  }

  @Test
  void kubectlShowsSchemaAndCelErrorsTogether(@TempDir Path dir) {
    Kubectl.Result result = kubectlCreateNegative(dir, "2wrongs");
    // kubectl lists several causes one per line
    assertThat(result.output()).isEqualTo("The TrainJob \"2wrongs\" is invalid: \n* "
        + String.join("\n* ", twoWrongs()) + "\n");
  }

  @Test
  void unknownFieldsArePrunedAndTransitionRulesHold() {
    Http http = new Http(API.server());
    Http.Response created = http.post(TRAINJOBS, "application/json",
        trainJob("pruned", "{\"numNodes\":2,\"unknownField\":true}"));
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    assertThat(created.json().at("/spec/trainer").has("unknownField")).isFalse();
    Http.Response changed = http.patch(TRAINJOBS + "/pruned", "application/merge-patch+json",
        "{\"spec\":{\"runtimeRef\":{\"name\":\"other\"}}}");
    assertThat(changed.code()).as(changed.body()).isEqualTo(422);
    assertThat(changed.json().path("message").asText()).contains("spec.runtimeRef");
  }

  @Test
  void kubectlShowsTheSchemaErrors(@TempDir Path dir) {
    Kubectl.Result result = kubectlCreateNegative(dir, "k");
    assertThat(result.output()).contains("The TrainJob \"k\" is invalid: spec.trainer.numNodes: Invalid value: -1: "
        + "spec.trainer.numNodes in body should be greater than or equal to " + minimumNumNodes);
  }
}
