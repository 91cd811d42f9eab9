package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server-side apply merges lists as kube-apiserver (structured-merge-diff) does, with the list types of the CRDs'
 * schemas and of the built-in kinds: {@code map} lists item by item on their keys, {@code set} lists by value,
 * atomic lists whole; ownership, removal and conflicts per item and per field inside items. The expected answers
 * are those the Kubernetes documentation ("Server-Side Apply": merge strategy, conflicts) gives.
 */
class ServerSideApplyMergeTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> server.installCrds(ServerSideApplyMergeTest.class.getResourceAsStream("/crds/widgets.yaml")));

  private static final String APPLY = "application/apply-patch+yaml";
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static Http http;

  @BeforeAll
  static void http() {
    http = new Http(API.server());
  }

  private static String widgets() {
    return "/apis/example.com/v1/namespaces/default/widgets/";
  }

  /** A Widget configuration with the {@code spec} (YAML flow) given. */
  private static String widget(String name, String spec) {
    return "{apiVersion: example.com/v1, kind: Widget, metadata: {name: " + name + "}, spec: " + spec + "}";
  }

  /** Applies {@code config}, YAML in flow style for short tests, sent as JSON (a body opening a brace is JSON). */
  private static Http.Response apply(String path, String manager, String config, boolean force) {
    try {
      return http.patch(path + "?fieldManager=" + manager + (force ? "&force=true" : ""), APPLY,
          YAML.readTree(config).toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JsonNode applied(String path, String manager, String config) {
    Http.Response response = apply(path, manager, config, false);
    assertThat(response.code()).as(response.body()).isIn(200, 201);
    return response.json();
  }

  private static List<String> env(JsonNode widget) {
    List<String> env = new ArrayList<>();
    widget.path("spec").path("env").forEach(e -> env.add(e.path("name").asText() + "="
        + e.path("value").asText()));
    return env;
  }

  private static JsonNode fieldsOf(JsonNode object, String manager) {
    for (JsonNode entry : object.path("metadata").path("managedFields")) {
      if (entry.path("manager").asText().equals(manager)) {
        return entry.path("fieldsV1");
      }
    }
    return null;
  }

  @Test
  void twoManagersApplyingDifferentItemsOfAMapListBothKeepThem() {
    String name = "env-" + NAMES.incrementAndGet();
    String path = widgets() + name;
    applied(path, "a", widget(name, "{env: [{name: A, value: '1'}]}"));
    JsonNode both = applied(path, "b", widget(name, "{env: [{name: B, value: '2'}]}"));

    assertThat(env(both)).containsExactly("A=1", "B=2");
    assertThat(fieldsOf(both, "a").path("f:spec").path("f:env").path("k:{\"name\":\"A\"}")
        .toString()).isEqualTo("{\".\":{},\"f:name\":{},\"f:value\":{}}");
    assertThat(fieldsOf(both, "b").path("f:spec").path("f:env").has("k:{\"name\":\"A\"}"))
        .isFalse();

    JsonNode again = applied(path, "a", widget(name, "{env: [{name: A, value: '1'}]}"));
    assertThat(again.path("metadata").path("resourceVersion")).as("a no-op re-apply")
        .isEqualTo(both.path("metadata").path("resourceVersion"));
  }

  @Test
  void aManagerDroppingItsItemRemovesItButNotAnItemAnotherManagerOwns() {
    String name = "drop-" + NAMES.incrementAndGet();
    String path = widgets() + name;
    applied(path, "a", widget(name, "{env: [{name: A, value: '1'}, {name: S, value: 's'}]}"));
    applied(path, "b", widget(name, "{env: [{name: B, value: '2'}, {name: S, value: 's'}]}"));

    JsonNode after = applied(path, "a", widget(name, "{size: 2}"));
    assertThat(env(after)).as("A dropped; S still applied by b").containsExactly("B=2", "S=s");
    assertThat(after.path("spec").path("size").asInt()).isEqualTo(2);

    JsonNode last = applied(path, "b", widget(name, "{size: 2}"));
    assertThat(last.path("spec").has("env")).as("the list left empty goes too").isFalse();
  }

  @Test
  void aConflictingFieldInsideAnItemIs409NamingTheFieldAndTheManagerAndForceTakesItOver() {
    String name = "conflict-" + NAMES.incrementAndGet();
    String path = widgets() + name;
    applied(path, "a", widget(name, "{env: [{name: A, value: '1'}]}"));
    applied(path, "b", widget(name, "{env: [{name: A, value: '1'}]}")); // same value: shared, no conflict

    Http.Response conflict = apply(path, "b", widget(name, "{env: [{name: A, value: '2'}]}"), false);
    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.json().path("reason").asText()).isEqualTo("Conflict");
    assertThat(conflict.json().path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"a\": .spec.env[name=\"A\"].value");
    assertThat(conflict.json().path("details").path("causes").get(0).toString())
        .isEqualTo("{\"field\":\".spec.env[name=\\\"A\\\"].value\",\"message\":\"conflict with \\\"a\\\"\","
            + "\"reason\":\"FieldManagerConflict\"}");

    Http.Response forcedResponse = apply(path, "b", widget(name, "{env: [{name: A, value: '2'}]}"), true);
    assertThat(forcedResponse.code()).isEqualTo(200);
    JsonNode forced = forcedResponse.json();
    assertThat(env(forced)).containsExactly("A=2");
    JsonNode itemOfA = fieldsOf(forced, "a").path("f:spec").path("f:env")
        .path("k:{\"name\":\"A\"}");
    assertThat(itemOfA.has("f:value")).as("value taken from a").isFalse();
    assertThat(itemOfA.has("f:name")).as("the rest stays shared").isTrue();

    JsonNode aLetsGo = applied(path, "a", widget(name, "{size: 1}"));
    assertThat(env(aLetsGo)).as("b still owns the item").containsExactly("A=2");
  }

  @Test
  void conflictsWithSeveralManagersAreListedByManager() {
    String name = "many-" + NAMES.incrementAndGet();
    String path = widgets() + name;
    applied(path, "a", widget(name, "{size: 1}"));
    applied(path, "b", widget(name, "{env: [{name: E, value: '1'}], replicas: 1}"));

    Http.Response conflict = apply(path, "c",
        widget(name, "{size: 2, replicas: 2, env: [{name: E, value: '2'}]}"), false);
    assertThat(conflict.code()).isEqualTo(409);
    assertThat(conflict.json().path("message").asText()).isEqualTo("Apply failed with 3 conflicts: "
        + "conflicts with \"a\":\n- .spec.size\n"
        + "conflicts with \"b\":\n- .spec.env[name=\"E\"].value\n- .spec.replicas");
  }

  @Test
  void atomicListsAreReplacedAndOwnedWhole() {
    String name = "atomic-" + NAMES.incrementAndGet();
    String path = widgets() + name;
    applied(path, "a", widget(name, "{args: ['--x', '1']}"));
    Http.Response conflict = apply(path, "b", widget(name, "{args: ['--y']}"), false);
    assertThat(conflict.json().path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"a\": .spec.args");
    JsonNode replaced = applied(path, "a", widget(name, "{args: ['--y']}"));
    assertThat(replaced.path("spec").path("args").toString()).isEqualTo("[\"--y\"]");
    assertThat(fieldsOf(replaced, "a").path("f:spec").path("f:args").toString()).isEqualTo("{}");
  }

  @Test
  void builtInKindsMergeContainersByNameAndPortsByTheirTwoKeysWithTheDefaultProtocol() {
    String path = "/api/v1/namespaces/default/pods/p-" + NAMES.incrementAndGet();
    String name = path.substring(path.lastIndexOf('/') + 1);
    String pod = "{apiVersion: v1, kind: Pod, metadata: {name: " + name + "}, spec: {containers: [%s]}}";
    applied(path, "a", String.format(pod, "{name: main, image: 'app:1', ports: [{containerPort: 80}]}"));
    JsonNode both = applied(path, "b", String.format(pod,
        "{name: sidecar, image: 'proxy:1'}, {name: main, ports: [{containerPort: 81}]}"));

    JsonNode containers = both.path("spec").path("containers");
    assertThat(containers).extracting(c -> c.path("name").asText()).as("in the order b applied them")
        .containsExactly("sidecar", "main");
    assertThat(containers.get(1).path("image").asText()).isEqualTo("app:1");
    assertThat(containers.get(1).path("ports")).extracting(p -> p.path("containerPort").asInt())
        .containsExactly(80, 81);
    assertThat(fieldsOf(both, "a").path("f:spec").path("f:containers").path("k:{\"name\":\"main\"}")
        .path("f:ports").has("k:{\"containerPort\":80,\"protocol\":\"TCP\"}")).isTrue();

    Http.Response conflict = apply(path, "b", String.format(pod, "{name: main, image: 'app:2'}"), false);
    assertThat(conflict.json().path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"a\": .spec.containers[name=\"main\"].image");

    JsonNode dropped = applied(path, "b", String.format(pod, "{name: main, ports: [{containerPort: 81}]}"));
    assertThat(dropped.path("spec").path("containers")).extracting(c -> c.path("name").asText())
        .as("b stopped applying its sidecar").containsExactly("main");
  }

  @Test
  void setListsMergeByValue() {
    String path = "/api/v1/namespaces/default/configmaps/set-" + NAMES.incrementAndGet();
    String name = path.substring(path.lastIndexOf('/') + 1);
    String configMap = "{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name + ", finalizers: [%s]}}";
    applied(path, "a", String.format(configMap, "example.com/a, example.com/shared"));
    JsonNode both = applied(path, "b", String.format(configMap, "example.com/b, example.com/shared"));
    assertThat(both.path("metadata").path("finalizers")).extracting(JsonNode::asText)
        .containsExactly("example.com/a", "example.com/b", "example.com/shared");
    assertThat(fieldsOf(both, "b").path("f:metadata").path("f:finalizers").has("v:\"example.com/b\"")).isTrue();

    JsonNode dropped = applied(path, "a", String.format(configMap, ""));
    assertThat(dropped.path("metadata").path("finalizers")).extracting(JsonNode::asText)
        .containsExactly("example.com/b", "example.com/shared");
  }

  @Test
  void anItemWithoutItsKeyIsRejectedNamingTheKey() {
    String name = "nokey-" + NAMES.incrementAndGet();
    Http.Response response = apply(widgets() + name, "a", widget(name, "{env: [{value: '1'}]}"), false);
    assertThat(response.code()).isEqualTo(422);
    assertThat(response.json().path("message").asText()).isEqualTo("failed to create typed patch object "
        + "(example.com/v1, Kind=Widget): .spec.env: element 0: associative list with keys has an element that "
        + "omits key field \"name\" (and doesn't have default value)");
  }

  @Test
  void kubectlApplyServerSideMergesWithAnotherManagersItems(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(API.server(), dir);
    String name = "kubectl-" + NAMES.incrementAndGet();
    String config = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: " + name + "}\n"
        + "spec:\n  env: [{name: MINE, value: '1'}]\n";
    assertThat(kubectl.runWithInput(config, "apply", "--server-side", "-f", "-").output())
        .contains("serverside-applied");
    applied(widgets() + name, "controller", widget(name, "{env: [{name: THEIRS, value: '2'}]}"));

    assertThat(kubectl.runWithInput(config.replace("value: '1'", "value: '3'"), "apply", "--server-side", "-f", "-")
        .output()).contains("serverside-applied");
    assertThat(env(http.get(widgets() + name).json())).containsExactly("MINE=3", "THEIRS=2");

    Kubectl.Result conflict = kubectl.runWithInput(config.replace("MINE", "THEIRS"), "apply", "--server-side",
        "-f", "-");
    assertThat(conflict.exit()).isNotZero();
    assertThat(conflict.output()).contains("conflict with \"controller\": .spec.env[name=\"THEIRS\"].value");
  }
}
