package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Names, keys and paths kube-apiserver refuses are refused here, with its messages and field paths: what would
 * become a path outside the run directory in local mode never gets stored.
 */
class NameValidationTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
      + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      + "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
      + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

  @ParameterizedTest(name = "{0} named {1}")
  @CsvSource(delimiter = '|', value = {
      "configmaps|../../x", "configmaps|a/b", "configmaps|.", "configmaps|UPPER", "pods|../../../..",
      "persistentvolumeclaims|..", "secrets|x/..", "serviceaccounts|A"})
  void namesThatAreNotDnsSubdomainsAreRefused(String plural, String name) {
    Http.Response answer = new Http(API.server()).post("/api/v1/namespaces/names/" + plural, "application/json",
        "{\"metadata\":{\"name\":" + Json.MAPPER.getNodeFactory().textNode(name) + "}}");

    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.json().path("message").asText())
        .endsWith("metadata.name: Invalid value: \"" + name + "\": " + SUBDOMAIN);
    assertThat(answer.json().at("/details/causes/0/field").asText()).isEqualTo("metadata.name");
  }

  @Test
  void aNamespaceNameIsADnsLabel() {
    Http.Response answer = new Http(API.server()).post("/api/v1/namespaces", "application/json",
        "{\"metadata\":{\"name\":\"../x\"}}");

    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.json().path("message").asText()).isEqualTo("Namespace \"../x\" is invalid: metadata.name: "
        + "Invalid value: \"../x\": " + LABEL);
  }

  @Test
  void anObjectInANamespaceThatIsNotADnsLabelIsRefused() {
    Http.Response answer = new Http(API.server()).post("/api/v1/namespaces/..%2Fx/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"a\"}}");

    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.json().path("message").asText()).contains("metadata.namespace: Invalid value: \"../x\": "
        + LABEL);
  }

  @Test
  void aServiceNameIsADns1035Label() {
    Http.Response answer = new Http(API.server()).post("/api/v1/namespaces/names/services", "application/json",
        "{\"metadata\":{\"name\":\"1abc\"},\"spec\":{\"ports\":[{\"port\":80}]}}");

    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.json().path("message").asText()).contains("a DNS-1035 label must consist of lower case "
        + "alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric "
        + "character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  }

  @Test
  void rbacNamesArePathSegments() {
    Http http = new Http(API.server());
    Http.Response dots = http.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", "application/json",
        "{\"metadata\":{\"name\":\"..\"}}");
    Http.Response colon = http.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", "application/json",
        "{\"metadata\":{\"name\":\"system:x\"}}");

    assertThat(dots.json().path("message").asText()).endsWith("metadata.name: Invalid value: \"..\": may not be '..'");
    assertThat(colon.code()).isEqualTo(201);
  }

  @Test
  void configMapAndSecretKeysFollowTheConfigKeyRules() {
    Http http = new Http(API.server());
    Http.Response configMap = http.post("/api/v1/namespaces/names/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"keys\"},\"data\":{\"../../x\":\"1\",\"ok.key_1\":\"2\"}}");
    Http.Response secret = http.post("/api/v1/namespaces/names/secrets", "application/json",
        "{\"metadata\":{\"name\":\"keys\"},\"stringData\":{\"..\":\"1\"}}");

    assertThat(configMap.code()).isEqualTo(422);
    assertThat(configMap.json().path("message").asText()).isEqualTo("ConfigMap \"keys\" is invalid: "
        + "[data[../../x]: Invalid value: \"../../x\": a valid config key must consist of alphanumeric characters, "
        + "'-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
        + "'[-._a-zA-Z0-9]+'), data[../../x]: Invalid value: \"../../x\": must not start with '..']");
    assertThat(secret.json().path("message").asText()).endsWith("data[..]: Invalid value: \"..\": must not be '..'");
    assertThat(API.client().configMaps().inNamespace("names").withName("keys").get()).isNull();
  }

  @Test
  void podVolumePathsStayInsideTheirVolume() {
    Http.Response answer = new Http(API.server()).post("/api/v1/namespaces/names/pods", "application/json", """
        {"metadata": {"name": "escape"}, "spec": {
          "containers": [{"name": "c", "image": "i", "volumeMounts": [
            {"name": "cm", "mountPath": "/a", "subPath": "../up"},
            {"name": "gone", "mountPath": "/b"}]}],
          "volumes": [
            {"name": "cm", "configMap": {"name": "x", "items": [{"key": "k", "path": "a/../../b"}]}},
            {"name": "..", "emptyDir": {}},
            {"name": "s", "secret": {"secretName": "x", "defaultMode": 4095, "items": [{"key": "k", "path": "/abs"}]}},
            {"name": "p", "projected": {"sources": [{"configMap": {"name": "x", "items": [{"key": "k",
              "path": "..x"}]}}]}}]}}
        """);

    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.json().path("message").asText()).contains(
        "spec.volumes[0].configMap.items[0].path: Invalid value: \"a/../../b\": must not contain '..'",
        "spec.volumes[1].name: Invalid value: \"..\": " + LABEL,
        "spec.volumes[2].secret.defaultMode: Invalid value: 4095: must be a number between 0 and 0777 (octal), "
            + "both inclusive",
        "spec.volumes[2].secret.items[0].path: Invalid value: \"/abs\": must be a relative path",
        "spec.volumes[3].projected.sources[0].configMap.items[0].path: Invalid value: \"..x\": must not start "
            + "with '..'",
        "spec.containers[0].volumeMounts[0].subPath: Invalid value: \"../up\": must not contain '..'",
        "spec.containers[0].volumeMounts[1].name: Not found: \"gone\"");
    assertThat(API.client().pods().inNamespace("names").withName("escape").get()).isNull();
  }

  @Test
  void aJobsPodTemplateIsCheckedToo() {
    Http.Response answer = new Http(API.server()).post("/apis/batch/v1/namespaces/names/jobs", "application/json", """
        {"metadata": {"name": "j"}, "spec": {"template": {"spec": {"restartPolicy": "Never",
          "containers": [{"name": "c", "image": "i", "volumeMounts": [{"name": "v", "mountPath": "/v",
            "subPath": "/etc"}]}],
          "volumes": [{"name": "v", "emptyDir": {}}]}}}}
        """);

    assertThat(answer.json().path("message").asText()).endsWith(
        "spec.template.spec.containers[0].volumeMounts[0].subPath: Invalid value: \"/etc\": must be a relative path");
  }

  @Test
  void validNamesAreStored() {
    Http http = new Http(API.server());
    assertThat(http.post("/api/v1/namespaces/names/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"a.b-c\"},\"data\":{\"K_e.y-1\":\"v\"}}").code()).isEqualTo(201);
  }
}
