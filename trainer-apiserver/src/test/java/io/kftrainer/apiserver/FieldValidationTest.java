package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fieldValidation} on every write, against the real TrainJob CRD and built-in kinds, with kube-apiserver's
 * status codes, messages and warnings: a create, an update and a merge, JSON or strategic patch refuse unknown and
 * repeated fields under {@code Strict}, report them under {@code Warn} (the default) and say nothing under
 * {@code Ignore}, and drop unknown fields in every mode; an apply refuses fields its type does not declare in every
 * mode and reports its repeated keys.
 */
class FieldValidationTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String TRAINJOBS = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs";
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final AtomicInteger NAMES = new AtomicInteger();

  private final Http http = new Http(API.server());

  @BeforeAll
  static void crds() {
    API.server().installCrds(TestCrds.realCrd("trainjobs"));
  }

  private static String name() {
    return "fv-" + NAMES.incrementAndGet();
  }

  /** A TrainJob named {@code name} whose trainer is {@code trainer} (JSON). */
  private static String trainJob(String name, String trainer) {
    return "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{\"runtimeRef\":{\"name\":\"torch-distributed\"},\"trainer\":" + trainer + "}}";
  }

  /** The typo: {@code numNode} and {@code comand} instead of {@code numNodes} and {@code command}. */
  private static String typo(String name) {
    return trainJob(name, "{\"numNode\":2,\"comand\":[\"python\"]}");
  }

  private static List<String> warnings(Http.Response response) {
    return response.raw().headers().allValues("Warning");
  }

  private JsonNode stored(String path) {
    return http.get(path).json();
  }

  @Test
  void strictRefusesACreateWithUnknownFieldsAsKubeApiserver() {
    String name = name();
    Http.Response response = http.post(TRAINJOBS + "?fieldValidation=Strict", "application/json", typo(name));

    assertThat(response.code()).isEqualTo(400);
    assertThat(response.json().path("reason").asText()).isEqualTo("BadRequest");
    assertThat(response.json().path("message").asText()).isEqualTo("TrainJob in version \"v1alpha1\" cannot be "
        + "handled as a TrainJob: strict decoding error: unknown field \"spec.trainer.comand\", unknown field "
        + "\"spec.trainer.numNode\"");
    assertThat(http.get(TRAINJOBS + "/" + name).code()).isEqualTo(404);
  }

  @ParameterizedTest(name = "fieldValidation={0}")
  @ValueSource(strings = {"Warn", ""})
  void warnCreatesThePrunedObjectWithOneWarningPerField(String directive) {
    String name = name();
    String query = directive.isEmpty() ? "" : "?fieldValidation=" + directive;
    Http.Response response = http.post(TRAINJOBS + query, "application/json", typo(name));

    assertThat(response.code()).isEqualTo(201);
    assertThat(warnings(response)).containsExactly("299 - \"unknown field \\\"spec.trainer.comand\\\"\"",
        "299 - \"unknown field \\\"spec.trainer.numNode\\\"\"");
    assertThat(stored(TRAINJOBS + "/" + name).at("/spec/trainer").isEmpty()).isTrue();
  }

  @Test
  void ignoreCreatesThePrunedObjectSilently() {
    String name = name();
    Http.Response response = http.post(TRAINJOBS + "?fieldValidation=Ignore", "application/json", typo(name));

    assertThat(response.code()).isEqualTo(201);
    assertThat(warnings(response)).isEmpty();
    assertThat(stored(TRAINJOBS + "/" + name).at("/spec/trainer").isEmpty()).isTrue();
  }

  @Test
  void anUnsupportedDirectiveIsTheOptionsInvalidAnswer() {
    Http.Response response = http.post(TRAINJOBS + "?fieldValidation=strict", "application/json", typo(name()));

    assertThat(response.code()).isEqualTo(422);
    assertThat(response.json().path("reason").asText()).isEqualTo("Invalid");
    assertThat(response.json().path("message").asText()).isEqualTo("CreateOptions.meta.k8s.io \"\" is invalid: "
        + "fieldValidation: Unsupported value: \"strict\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"");
    assertThat(response.json().at("/details/causes/0/reason").asText()).isEqualTo("FieldValueNotSupported");
    assertThat(response.json().at("/details/causes/0/field").asText()).isEqualTo("fieldValidation");
  }

  @Test
  void repeatedKeysComeFirstThenUnknownMetadataThenThePrunedFields() {
    String name = name();
    String body = "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":\""
        + name + "\",\"lables\":{\"a\":\"b\"}},\"spec\":{\"runtimeRef\":{\"name\":\"torch-distributed\"},"
        + "\"trainer\":{\"numNodes\":1,\"numNodes\":3,\"numProc\":2}}}";

    Http.Response strict = http.post(TRAINJOBS + "?fieldValidation=Strict", "application/json", body);
    assertThat(strict.json().path("message").asText()).endsWith("strict decoding error: duplicate field "
        + "\"spec.trainer.numNodes\", unknown field \"metadata.lables\", unknown field \"spec.trainer.numProc\"");

    Http.Response warn = http.post(TRAINJOBS, "application/json", body);
    assertThat(warn.code()).isEqualTo(201);
    assertThat(warnings(warn)).hasSize(3);
    JsonNode created = stored(TRAINJOBS + "/" + name);
    assertThat(created.at("/spec/trainer/numNodes").asInt()).as("the last value, as Go's decoder").isEqualTo(3);
    assertThat(created.path("metadata").has("lables")).isFalse();
  }

  @Test
  void aBuiltInKindsUnknownFieldsAreFoundByItsTypeAndDropped() {
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"%s\"},"
        + "\"data\":{\"a\":\"1\",\"a\":\"2\"},\"spec\":{\"replicas\":1}}";

    Http.Response strict = http.post(CONFIGMAPS + "?fieldValidation=Strict", "application/json",
        String.format(body, name()));
    assertThat(strict.code()).isEqualTo(400);
    assertThat(strict.json().path("message").asText()).isEqualTo("ConfigMap in version \"v1\" cannot be handled "
        + "as a ConfigMap: strict decoding error: duplicate field \"data.a\", unknown field \"spec\"");

    String name = name();
    Http.Response ignore = http.post(CONFIGMAPS + "?fieldValidation=Ignore", "application/json",
        String.format(body, name));
    assertThat(ignore.code()).isEqualTo(201);
    assertThat(warnings(ignore)).isEmpty();
    JsonNode created = stored(CONFIGMAPS + "/" + name);
    assertThat(created.has("spec")).isFalse();
    assertThat(created.at("/data/a").asText()).isEqualTo("2");
  }

  @Test
  void fieldsInsideListItemsAndOpenPlacesOfABuiltInKind() {
    String name = name();
    Http.Response response = http.post("/api/v1/namespaces/default/pods", "application/json", "{\"apiVersion\":\"v1\","
        + "\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"annotations\":{\"any\":\"key\"}},\"spec\":"
        + "{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"limits\":{\"cpu\":\"1\"},\"resources\":{\"limits\":"
        + "{\"anything\":\"1\"}}}]}}");

    assertThat(response.code()).isEqualTo(201);
    assertThat(warnings(response)).containsExactly("299 - \"unknown field \\\"spec.containers[0].limits\\\"\"");
    assertThat(stored("/api/v1/namespaces/default/pods/" + name).at("/spec/containers/0/resources/limits/anything")
        .asText()).isEqualTo("1");
  }

  @Test
  void aYamlBodysRepeatedKeysAreGoYamlsLines() {
    String name = name();
    Http.Response response = http.post(CONFIGMAPS, "application/yaml", "apiVersion: v1\nkind: ConfigMap\n"
        + "metadata:\n  name: " + name + "\ndata:\n  a: '1'\n  a: '2'\n");

    assertThat(response.code()).isEqualTo(201);
    assertThat(warnings(response)).containsExactly("299 - \"line 7: key \\\"a\\\" already set in map\"");
  }

  @Test
  void anUpdateIsDecodedAsACreate() {
    String name = name();
    assertThat(http.post(TRAINJOBS, "application/json", trainJob(name, "{\"numNodes\":1}")).code()).isEqualTo(201);
    String changed = trainJob(name, "{\"numNodes\":1,\"numNode\":3}").replace("\"metadata\":{",
        "\"metadata\":{\"labels\":{\"changed\":\"yes\"},");

    Http.Response strict = http.put(TRAINJOBS + "/" + name + "?fieldValidation=Strict", "application/json", changed);
    assertThat(strict.code()).isEqualTo(400);
    assertThat(strict.json().path("message").asText()).endsWith("strict decoding error: unknown field "
        + "\"spec.trainer.numNode\"");

    Http.Response warn = http.put(TRAINJOBS + "/" + name + "?fieldValidation=Warn", "application/json", changed);
    assertThat(warn.code()).isEqualTo(200);
    assertThat(warnings(warn)).containsExactly("299 - \"unknown field \\\"spec.trainer.numNode\\\"\"");
    assertThat(warn.json().at("/spec/trainer").toString()).isEqualTo("{\"numNodes\":1}");
    assertThat(warn.json().at("/metadata/labels/changed").asText()).isEqualTo("yes");

    Http.Response invalid = http.put(TRAINJOBS + "/" + name + "?fieldValidation=x", "application/json", changed);
    assertThat(invalid.json().path("message").asText()).startsWith("UpdateOptions.meta.k8s.io \"\" is invalid: ");
  }

  @Test
  void strictRefusesAMergePatchOnThePatchedObject() {
    String name = name();
    assertThat(http.post(TRAINJOBS, "application/json", trainJob(name, "{\"numNodes\":1}")).code()).isEqualTo(201);
    String patch = "{\"spec\":{\"trainer\":{\"numNode\":2}}}";

    Http.Response strict = http.patch(TRAINJOBS + "/" + name + "?fieldValidation=Strict",
        "application/merge-patch+json", patch);
    assertThat(strict.code()).isEqualTo(422);
    JsonNode status = strict.json();
    assertThat(status.path("reason").asText()).isEqualTo("Invalid");
    assertThat(status.path("message").asText()).startsWith(" \"\" is invalid: patch: Invalid value: "
        + "\"{\\\"apiVersion\\\":\\\"trainer.kubeflow.org/v1alpha1\\\",\\\"kind\\\":\\\"TrainJob\\\",")
        .endsWith("\": strict decoding error: unknown field \"spec.trainer.numNode\"");
    assertThat(status.at("/details/causes/0/field").asText()).isEqualTo("patch");

    Http.Response warn = http.patch(TRAINJOBS + "/" + name, "application/merge-patch+json", patch);
    assertThat(warn.code()).isEqualTo(200);
    assertThat(warnings(warn)).containsExactly("299 - \"unknown field \\\"spec.trainer.numNode\\\"\"");
    assertThat(warn.json().at("/spec/trainer").toString()).isEqualTo("{\"numNodes\":1}");
  }

  @Test
  void aPatchsRepeatedKeysAndAJsonPatchsUnknownOperationFieldsAreReported() {
    String name = name();
    assertThat(http.post(TRAINJOBS, "application/json", trainJob(name, "{\"numNodes\":1}")).code()).isEqualTo(201);

    Http.Response merge = http.patch(TRAINJOBS + "/" + name, "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"a\":\"1\",\"a\":\"2\"}}}");
    assertThat(warnings(merge)).containsExactly("299 - \"duplicate field \\\"metadata.labels.a\\\"\"");

    Http.Response jsonPatch = http.patch(TRAINJOBS + "/" + name, "application/json-patch+json",
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/b\",\"value\":\"1\",\"valu\":\"2\"}]");
    assertThat(jsonPatch.code()).isEqualTo(200);
    assertThat(warnings(jsonPatch)).containsExactly("299 - \"json patch unknown field \\\"[0].valu\\\"\"");

    Http.Response ignored = http.patch(TRAINJOBS + "/" + name + "?fieldValidation=Ignore",
        "application/merge-patch+json", "{\"spec\":{\"trainer\":{\"numNode\":2}}}");
    assertThat(ignored.code()).isEqualTo(200);
    assertThat(warnings(ignored)).isEmpty();
  }

  @Test
  void strictRefusesAStrategicPatchQuotingThePatchAsGoPrintsIt() {
    String name = name();
    assertThat(http.post(CONFIGMAPS, "application/json", "{\"metadata\":{\"name\":\"" + name + "\"}}").code())
        .isEqualTo(201);

    Http.Response strict = http.patch(CONFIGMAPS + "/" + name + "?fieldValidation=Strict",
        "application/strategic-merge-patch+json", "{\"data\":{\"a\":\"1\"},\"spec\":{\"replicas\":1}}");

    assertThat(strict.code()).isEqualTo(422);
    assertThat(strict.json().path("message").asText()).isEqualTo(" \"\" is invalid: patch: Invalid value: "
        + "\"map[data:map[a:1] spec:map[replicas:1]]\": strict decoding error: unknown field \"spec\"");
  }

  @ParameterizedTest(name = "fieldValidation={0}")
  @ValueSource(strings = {"Strict", "Warn", "Ignore"})
  void anApplyOfFieldsItsTypeDoesNotDeclareFailsToBeTypedWhateverTheDirective(String directive) {
    String name = name();
    Http.Response response = http.patch(TRAINJOBS + "/" + name + "?fieldManager=m&fieldValidation=" + directive,
        "application/apply-patch+yaml", "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\","
            + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"default\"},\"spec\":{\"runtimeRef\":"
            + "{\"name\":\"torch-distributed\"},\"trainer\":{\"numNode\":2,\"comand\":[\"python\"]}}}");

    assertThat(response.code()).isEqualTo(500);
    assertThat(response.json().has("reason")).isFalse();
    assertThat(response.json().path("message").asText()).isEqualTo("failed to create typed patch object (default/"
        + name + "; trainer.kubeflow.org/v1alpha1, Kind=TrainJob): .spec.trainer.numNode: field not declared in "
        + "schema");
    assertThat(http.get(TRAINJOBS + "/" + name).code()).isEqualTo(404);
  }

  @Test
  void anApplysRepeatedKeysAreRefusedUnderStrictAndReportedUnderWarn() {
    String name = name();
    String config = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + name + "\n"
        + "spec:\n  runtimeRef: {name: torch-distributed}\n  trainer:\n    numNodes: 1\n    numNodes: 2\n";
    String path = TRAINJOBS + "/" + name + "?fieldManager=m&fieldValidation=";

    Http.Response strict = http.patch(path + "Strict", "application/apply-patch+yaml", config);
    assertThat(strict.code()).isEqualTo(400);
    assertThat(strict.json().path("reason").asText()).isEqualTo("BadRequest");
    assertThat(strict.json().path("message").asText()).isEqualTo("error strict decoding YAML: error converting YAML "
        + "to JSON: yaml: unmarshal errors:\n  line 9: key \"numNodes\" already set in map");
    assertThat(http.get(TRAINJOBS + "/" + name).code()).isEqualTo(404);

    Http.Response warn = http.patch(path + "Warn", "application/apply-patch+yaml", config);
    assertThat(warn.code()).isEqualTo(201);
    assertThat(warnings(warn)).containsExactly("299 - \"line 9: key \\\"numNodes\\\" already set in map\"");
    assertThat(warn.json().at("/spec/trainer/numNodes").asInt()).isEqualTo(2);

    Http.Response ignore = http.patch(path + "Ignore", "application/apply-patch+yaml", config);
    assertThat(ignore.code()).isEqualTo(200);
    assertThat(warnings(ignore)).isEmpty();
  }

  @Test
  void anApplyWithoutFieldManagerAndWithAnUnsupportedDirectiveNamesBoth() {
    Http.Response response = http.patch(CONFIGMAPS + "/x?fieldValidation=warn", "application/apply-patch+yaml",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"}}");

    assertThat(response.code()).isEqualTo(422);
    assertThat(response.json().path("message").asText()).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: "
        + "[fieldManager: Required value: is required for apply patch, fieldValidation: Unsupported value: \"warn\": "
        + "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"]");
  }

  @Test
  void kubectlApplyOfATypoIsRefusedAsByKubeApiserver(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(API.server(), dir);
    String typo = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: typo}\n"
        + "spec:\n  runtimeRef: {name: torch-distributed}\n  trainer: {numNode: 2, comand: [python]}\n";

    Kubectl.Result refused = kubectl.runWithInput(typo, "apply", "-f", "-");
    assertThat(refused.exit()).isNotZero();
    assertThat(refused.output()).contains("Error from server (BadRequest): error when creating \"STDIN\": TrainJob "
        + "in version \"v1alpha1\" cannot be handled as a TrainJob: strict decoding error: unknown field "
        + "\"spec.trainer.comand\", unknown field \"spec.trainer.numNode\"");

    Kubectl.Result warned = kubectl.runWithInput(typo, "apply", "--validate=warn", "-f", "-");
    assertThat(warned.exit()).isZero();
    assertThat(warned.output()).contains("Warning: unknown field \"spec.trainer.comand\"")
        .contains("trainjob.trainer.kubeflow.org/typo created");
  }
}
