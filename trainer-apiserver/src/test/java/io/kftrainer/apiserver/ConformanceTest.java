package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server against kube-apiserver's documented answers (API concepts: status codes, Status bodies): one row per
 * request, with the status code, and for failures the Status reason and message kube-apiserver gives.
 */
class ConformanceTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String CMS = "/api/v1/namespaces/conf/configmaps";
  private static final String CM = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"%s\"%s}}";
  /** kube-apiserver's 422 for a JSON patch that does not apply: generic, without evanphx/json-patch's reason. */
  private static final String REJECTED = "the server rejected our request due to an error in our request";

  @BeforeAll
  static void objects() {
    API.server().installCrds(TestCrds.trainJobCrd());
    API.client().configMaps().inNamespace("conf").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("existing").endMetadata().build()).create();
    new Http(API.server()).patch(CMS + "/owned?fieldManager=owner", "application/apply-patch+yaml",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"owned\"},\"data\":{\"k\":\"v\"}}");
    API.client().pods().inNamespace("conf").resource(new PodBuilder().withNewMetadata().withName("pod")
        .endMetadata().withNewSpec().addNewContainer().withName("c").endContainer().endSpec().build()).create();
  }

  static Stream<Arguments> requests() {
    return Stream.of(
        row("create", "POST", CMS, String.format(CM, "new", ""), 201, null, null),
        row("create of an existing name", "POST", CMS, String.format(CM, "existing", ""), 409, "AlreadyExists",
            "configmaps \"existing\" already exists"),
        row("create without name or generateName", "POST", CMS, "{\"metadata\":{}}", 422, "Invalid",
            "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required"),
        row("create in another namespace than the path's", "POST", CMS,
            String.format(CM, "x", ",\"namespace\":\"other\""), 400, "BadRequest",
            "the namespace of the provided object does not match the namespace sent on the request"),
        row("body that is not JSON", "POST", CMS, "{", 400, "BadRequest", null),
        row("get of a missing object", "GET", CMS + "/missing", null, 404, "NotFound",
            "configmaps \"missing\" not found"),
        row("get of a missing custom resource", "GET",
            "/apis/trainer.kubeflow.org/v1alpha1/namespaces/conf/trainjobs/x", null, 404, "NotFound",
            "trainjobs.trainer.kubeflow.org \"x\" not found"),
        row("update with a stale resourceVersion", "PUT", CMS + "/existing",
            String.format(CM, "existing", ",\"resourceVersion\":\"1\""), 409, "Conflict",
            "Operation cannot be fulfilled on configmaps \"existing\": the object has been modified; please apply "
                + "your changes to the latest version and try again"),
        row("update of a missing object", "PUT", CMS + "/missing", String.format(CM, "missing", ""), 404,
            "NotFound", "configmaps \"missing\" not found"),
        row("patch with an unknown media type", "PATCH", CMS + "/existing", "{}", 415, "UnsupportedMediaType", null),
        row("apply without fieldManager", "PATCH+apply", CMS + "/existing", String.format(CM, "existing", ""), 422,
            "Invalid", "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for "
                + "apply patch"),
        row("apply changing a field another manager applied", "PATCH+apply", CMS + "/owned?fieldManager=other",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"owned\"},\"data\":{\"k\":\"x\"}}",
            409, "Conflict", "Apply failed with 1 conflict: conflict with \"owner\": .data.k"),
        row("strategic merge patch of a custom resource", "PATCH+strategic",
            "/apis/trainer.kubeflow.org/v1alpha1/namespaces/conf/trainjobs/x", "{}", 415, "UnsupportedMediaType",
            "the body of the request was in an unknown format - accepted media types include: "
                + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"),
        row("JSON patch whose test fails", "PATCH+json", CMS + "/owned", "[{\"op\":\"test\",\"path\":\"/data/k\","
            + "\"value\":\"other\"}]", 422, "Invalid", REJECTED),
        row("JSON patch removing a field that is not there", "PATCH+json", CMS + "/owned",
            "[{\"op\":\"remove\",\"path\":\"/data/missing\"}]", 422, "Invalid", REJECTED),
        row("JSON patch replacing a field that is not there", "PATCH+json", CMS + "/owned",
            "[{\"op\":\"replace\",\"path\":\"/data/missing\",\"value\":\"x\"}]", 422, "Invalid", REJECTED),
        row("a ConfigMap over 1 MiB", "POST", CMS, "{\"metadata\":{\"name\":\"large\"},\"data\":{\"a\":\""
            + "x".repeat(1 << 20) + "\",\"b\":\"x\"}}", 422, "Invalid",
            "ConfigMap \"large\" is invalid: []: Too long: may not be more than 1048576 bytes"),
        row("a ConfigMap of 1 MiB", "POST", CMS, "{\"metadata\":{\"name\":\"full\"},\"data\":{\"a\":\""
            + "x".repeat(1 << 20) + "\"}}", 201, null, null),
        row("a Secret over 1 MiB", "POST", "/api/v1/namespaces/conf/secrets", "{\"metadata\":{\"name\":\"large\"},"
            + "\"data\":{\"a\":\"" + java.util.Base64.getEncoder().encodeToString(new byte[(1 << 20) + 1]) + "\"}}",
            422, "Invalid", "Secret \"large\" is invalid: data: Too long: may not be more than 1048576 bytes"),
        row("strategic merge patch of an item without its merge key", "PATCH+strategic",
            "/api/v1/namespaces/conf/pods/pod", "{\"spec\":{\"containers\":[{\"image\":\"i\"}]}}", 422, "Invalid",
            null),
        row("delete of a missing object", "DELETE", CMS + "/missing", null, 404, "NotFound",
            "configmaps \"missing\" not found"),
        row("an unknown resource", "GET", "/api/v1/namespaces/conf/widgets", null, 404, "NotFound",
            "the server could not find the requested resource"),
        row("an unknown group", "GET", "/apis/example.com/v1/things", null, 404, "NotFound",
            "the server could not find the requested resource"),
        row("a namespaced kind outside a namespace, by name", "GET", "/api/v1/configmaps/existing", null, 404,
            "NotFound", "the server could not find the requested resource"),
        row("a list across namespaces", "GET", "/api/v1/configmaps", null, 200, null, null),
        row("POST on an object path", "POST", CMS + "/existing", "{}", 405, "MethodNotAllowed",
            "the server does not allow this method on the requested resource"),
        row("an unknown subresource", "GET", "/api/v1/namespaces/conf/pods/pod/proxy", null, 404, "NotFound",
            "the server could not find the requested resource"),
        row("status of a kind without status subresource", "GET", CMS + "/existing/status", null, 404, "NotFound",
            "the server could not find the requested resource"),
        row("exec without upgrade", "POST", "/api/v1/namespaces/conf/pods/pod/exec?command=ls", null, 400,
            "BadRequest", "Upgrade request required"),
        row("an invalid label selector", "GET", CMS + "?labelSelector=a%20in%20b", null, 400, "BadRequest", null),
        row("an invalid field selector", "GET", CMS + "?fieldSelector=nooperator", null, 400, "BadRequest", null),
        row("a field selector on a field ConfigMaps do not offer", "GET", CMS + "?fieldSelector=data.a%3D1", null,
            400, "BadRequest", "\"data.a\" is not a known field selector: only \"metadata.name\", "
                + "\"metadata.namespace\""),
        row("a field selector on a field Pods offer", "GET", "/api/v1/namespaces/conf/pods?fieldSelector="
            + "spec.nodeName%3Dn,status.phase!%3DRunning", null, 200, null, null),
        row("a field selector on a field Pods do not offer", "GET", "/api/v1/namespaces/conf/pods?fieldSelector="
            + "spec.nodeName%3Dn,spec.priority%3D1", null, 400, "BadRequest",
            "field label not supported: spec.priority"),
        row("a field selector on a field Jobs do not offer", "GET", "/apis/batch/v1/namespaces/conf/jobs?"
            + "fieldSelector=spec.suspend%3Dtrue", null, 400, "BadRequest",
            "field label \"spec.suspend\" not supported for Job"),
        row("a field selector on a field a CRD does not make selectable", "GET",
            "/apis/trainer.kubeflow.org/v1alpha1/namespaces/conf/trainjobs?watch=true"
                + "&fieldSelector=spec.suspend%3Dtrue",
            null, 400, "BadRequest", "field label not supported: spec.suspend"),
        row("discovery of an unknown group version", "GET", "/apis/example.com/v1", null, 404, "NotFound",
            "the server could not find the requested resource"),
        row("version", "GET", "/version", null, 200, null, null));
  }

  private static Arguments row(String name, String method, String path, String body, int code, String reason,
      String message) {
    return Arguments.of(name, method, path, body, code, reason, message);
  }

  @ParameterizedTest(name = "{0}: {1} {2} -> {4}")
  @MethodSource("requests")
  void answersAsKubeApiserver(String name, String method, String path, String body, int code, String reason,
      String message) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(API.server().url() + path))
        .header("Authorization", "Bearer " + API.server().bearerToken()).timeout(Duration.ofSeconds(10));
    HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body);
    if (method.equals("PATCH+apply")) {
      request.method("PATCH", publisher).header("Content-Type", "application/apply-patch+yaml");
    } else if (method.equals("PATCH+strategic")) {
      request.method("PATCH", publisher).header("Content-Type", "application/strategic-merge-patch+json");
    } else if (method.equals("PATCH+json")) {
      request.method("PATCH", publisher).header("Content-Type", "application/json-patch+json");
    } else if (method.equals("PATCH")) {
      request.method("PATCH", publisher).header("Content-Type", "text/plain");
    } else {
      request.method(method, publisher).header("Content-Type", "application/json");
    }
    HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .sslContext(API.server().trustingSslContext()).build()
        .send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(code);
    if (reason != null) {
      JsonNode status = Json.MAPPER.readTree(response.body());
      assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
      assertThat(status.path("kind").asText()).isEqualTo("Status");
      assertThat(status.path("apiVersion").asText()).isEqualTo("v1");
      assertThat(status.path("status").asText()).isEqualTo("Failure");
      assertThat(status.path("code").asInt()).isEqualTo(code);
      assertThat(status.path("reason").asText()).isEqualTo(reason);
      if (message != null) {
        assertThat(status.path("message").asText()).isEqualTo(message);
      }
    }
  }
}
