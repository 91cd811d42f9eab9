package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** kubectl's strategic merge patches (kubectl patch, client-side kubectl apply) merge lists by their keys. */
class StrategicMergeTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  @Test
  void kubectlPatchAndClientSideApplyMergeContainersAndEnvByName(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(API.server(), dir);
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        + "  - name: a\n    image: a:1\n    env: [{name: FOO, value: '1'}, {name: BAR, value: '2'}]\n"
        + "  - name: b\n    image: b:1\n";
    assertThat(kubectl.runWithInput(pod, "apply", "-f", "-").output()).contains("pod/p created");
    kubectl.ok("patch", "pod", "p", "-p", "{\"spec\":{\"containers\":[{\"name\":\"b\",\"image\":\"b:2\"}]}}");
    assertThat(API.client().pods().inNamespace("default").withName("p").get().getSpec().getContainers())
        .as("merged by name").extracting(c -> c.getName() + "=" + c.getImage()).containsExactly("a=a:1", "b=b:2");
    assertThat(kubectl.runWithInput(pod.replace("value: '2'", "value: '3'"), "apply", "-f", "-").output())
        .contains("pod/p configured");

    Pod stored = API.client().pods().inNamespace("default").withName("p").get();
    assertThat(stored.getSpec().getContainers()).extracting(c -> c.getName() + "=" + c.getImage())
        .as("the applied configuration wins over the patch").containsExactly("a=a:1", "b=b:1");
    assertThat(stored.getSpec().getContainers().get(0).getEnv()).extracting(e -> e.getName() + "=" + e.getValue())
        .containsExactly("FOO=1", "BAR=3");
  }

  @Test
  void clientSideApplyThenEditingAContainersEnvThenApplyingAgainMergesEnvByName(@TempDir Path dir) throws Exception {
    Path editor = dir.resolve("editor.sh");
    Files.writeString(editor, "#!/bin/sh\nsed -i 's/value: \"1\"/value: \"5\"/' \"$1\"\n");
    editor.toFile().setExecutable(true);
    Kubectl kubectl = new Kubectl(API.server(), dir).editor(editor);
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: edited}\nspec:\n  containers:\n"
        + "  - name: a\n    image: a:1\n    env: [{name: FOO, value: '1'}, {name: BAR, value: '2'}]\n"
        + "  - name: b\n    image: b:1\n";
    kubectl.runWithInput(pod, "apply", "-f", "-");

    assertThat(kubectl.ok("edit", "pod", "edited")).contains("pod/edited edited");
    assertThat(env("edited", 0)).as("the edit patched FOO by name").containsExactly("FOO=5", "BAR=2");
    kubectl.ok("patch", "pod", "edited", "-p",
        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"env\":[{\"name\":\"EXTRA\",\"value\":\"x\"}]}]}}");
    assertThat(env("edited", 0)).as("a new variable goes first, as kube-apiserver orders it")
        .containsExactly("EXTRA=x", "FOO=5", "BAR=2");

    assertThat(kubectl.runWithInput(pod.replace("value: '2'", "value: '3'"), "apply", "-f", "-").output())
        .contains("pod/edited configured");
    assertThat(env("edited", 0)).as("the configuration's values back, the variable it never named kept")
        .containsExactly("EXTRA=x", "FOO=1", "BAR=3");
    assertThat(API.client().pods().inNamespace("default").withName("edited").get().getSpec().getContainers())
        .extracting(c -> c.getName() + "=" + c.getImage()).containsExactly("a=a:1", "b=b:1");
  }

  private static java.util.List<String> env(String pod, int container) {
    return API.client().pods().inNamespace("default").withName(pod).get().getSpec().getContainers().get(container)
        .getEnv().stream().map(e -> e.getName() + "=" + e.getValue()).toList();
  }

  @Test
  void aStrategicMergePatchOfACustomResourceIsUnsupportedMediaType() {
    API.server().installCrds(TestCrds.trainJobCrd());
    TestCrds.trainJobs(API.client()).inNamespace("default").resource(TestCrds.trainJob("default", "s", 1)).create();
    Http.Response response = new Http(API.server()).patch(
        "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs/s", "application/strategic-merge-patch+json",
        "{\"spec\":{}}");
    assertThat(response.code()).isEqualTo(415);
    assertThat(response.json().path("reason").asText()).isEqualTo("UnsupportedMediaType");
  }
}
