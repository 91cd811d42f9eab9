package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the real kubectl against the server; skipped when /usr/bin/kubectl is absent ({@link Kubectl}). */
class KubectlSmokeTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  @TempDir
  static Path dir;

  private static Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content);
  }

  private static String trainJobYaml(int numNodes) {
    return ""
        + "apiVersion: trainer.kubeflow.org/v1alpha1\n"
        + "kind: TrainJob\n"
        + "metadata:\n"
        + "  name: mnist\n"
        + "  labels: {app: mnist}\n"
        + "spec:\n"
        + "  runtimeRef: {name: torch-distributed}\n"
        + "  trainer: {numNodes: " + numNodes + "}\n";
  }

  private static Event event(String name, ObjectReference involved, String reason, String message) {
    return new EventBuilder().withNewMetadata().withName(name).endMetadata().withInvolvedObject(involved)
        .withReason(reason).withMessage(message).withType("Normal").withCount(1)
        .withFirstTimestamp(KubeJson.now()).withLastTimestamp(KubeJson.now())
        .withNewSource().withComponent("trainer-controller").endSource().build();
  }

  /** kubectl's typed clients send these reviews in protobuf, with no JSON fallback. */
  @Test
  void kubectlAuthCanIAndWhoamiAndCreateTokenAreAnswered() {
    Kubectl kubectl = new Kubectl(API.server(), dir);

    assertThat(kubectl.ok("auth", "can-i", "create", "configmaps", "-n", "default").strip()).isEqualTo("yes");
    assertThat(kubectl.ok("auth", "can-i", "get", "/healthz").strip()).isEqualTo("yes");
    assertThat(kubectl.ok("auth", "whoami")).contains("kubernetes-admin", "system:masters");
    assertThat(kubectl.ok("auth", "can-i", "--list", "-n", "default")).contains("*.*");
    kubectl.ok("create", "serviceaccount", "robot", "-n", "default");
    assertThat(kubectl.ok("create", "token", "robot", "-n", "default").strip()).startsWith("ey");
  }

  @Test
  void kubectlWorksAgainstTheServer() throws IOException {
    Kubectl kubectl = new Kubectl(API.server(), dir);
    Path crd = dir.resolve("crd.yaml");
    try (InputStream in = TestCrds.trainJobCrd()) {
      Files.copy(in, crd);
    }

    assertThat(kubectl.ok("version")).contains("Server Version: " + EmbeddedApiServer.DEFAULT_SERVER_VERSION);
    assertThat(kubectl.ok("api-resources")).contains("configmaps", "leases", "customresourcedefinitions");

    // create -f of a CRD, then of a custom resource
    assertThat(kubectl.ok("create", "-f", crd.toString()))
        .contains("customresourcedefinition.apiextensions.k8s.io/trainjobs.trainer.kubeflow.org created");
    assertThat(kubectl.ok("api-resources", "--api-group=trainer.kubeflow.org")).contains("trainjobs", "tj", "TrainJob");
    assertThat(kubectl.ok("wait", "--for=condition=Established", "--timeout=10s", "crd/trainjobs.trainer.kubeflow.org"))
        .contains("condition met");
    assertThat(kubectl.ok("create", "-f", write("tj.yaml", trainJobYaml(2)).toString()))
        .contains("trainjob.trainer.kubeflow.org/mnist created");

    // get shows the printer columns; a status change shows up in State
    assertThat(kubectl.ok("get", "trainjobs")).containsPattern("NAME\\s+STATE\\s+AGE").contains("mnist");
    kubectl.ok("patch", "trainjob", "mnist", "--subresource=status", "--type=merge", "-p",
        "{\"status\":{\"conditions\":[{\"type\":\"Created\",\"status\":\"True\"},"
            + "{\"type\":\"Complete\",\"status\":\"True\"}]}}");
    assertThat(kubectl.ok("get", "tj", "-o", "wide"))
        .containsPattern("mnist\\s+Complete\\s+torch-distributed\\s+\\d+s");

    // server-side apply: changed, then unchanged
    assertThat(kubectl.ok("apply", "--server-side", "-f", write("tj4.yaml", trainJobYaml(4)).toString()))
        .contains("trainjob.trainer.kubeflow.org/mnist serverside-applied");
    GenericKubernetesResource applied = TestCrds.trainJobs(API.client()).inNamespace("default").withName("mnist").get();
    assertThat(applied.<Object>get("spec", "trainer", "numNodes")).isEqualTo(4);
    assertThat(applied.getMetadata().getGeneration()).isEqualTo(2L);
    kubectl.ok("apply", "--server-side", "-f", dir.resolve("tj4.yaml").toString());
    assertThat(TestCrds.trainJobs(API.client()).inNamespace("default").withName("mnist").get().getMetadata()
        .getResourceVersion()).isEqualTo(applied.getMetadata().getResourceVersion());

    // client-side apply (a JSON merge patch for custom resources) and describe
    assertThat(kubectl.ok("apply", "-f", write("tj5.yaml", trainJobYaml(5)).toString()))
        .contains("trainjob.trainer.kubeflow.org/mnist configured");
    assertThat(kubectl.ok("describe", "trainjob", "mnist")).contains("Name:", "mnist", "Num Nodes:  5", "Complete");

    // describe lists the events of the object (a field selector on involvedObject.*), and only those
    API.client().v1().events().inNamespace("default").resource(event("mnist.1", new ObjectReferenceBuilder()
        .withApiVersion(TestCrds.API_VERSION).withKind("TrainJob").withNamespace("default").withName("mnist")
        .withUid(applied.getMetadata().getUid()).build(), "JobSetCreated", "created the JobSet")).create();
    API.client().v1().events().inNamespace("default").resource(event("other.1", new ObjectReferenceBuilder()
        .withKind("ConfigMap").withNamespace("default").withName("mnist").build(), "Other", "unrelated")).create();
    assertThat(kubectl.ok("describe", "trainjob", "mnist"))
        .containsPattern("Normal\\s+JobSetCreated\\s+.*created the JobSet").doesNotContain("unrelated");

    // a create of an existing object is AlreadyExists
    Kubectl.Result again = kubectl.run("create", "-f", dir.resolve("tj.yaml").toString());
    assertThat(again.exit()).isNotZero();
    assertThat(again.output()).contains("Error from server (AlreadyExists)",
        "trainjobs.trainer.kubeflow.org \"mnist\" already exists");

    // built-in kinds: create -f (JSON on the wire), client-side apply (strategic merge patch), get of two kinds
    String configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: '1', b: '2'}\n";
    assertThat(kubectl.runWithInput(configMap, "create", "-f", "-").output()).contains("configmap/settings created");
    String secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: token}\nstringData: {t: x}\n";
    assertThat(kubectl.runWithInput(secret, "apply", "-f", "-").output()).contains("secret/token created");
    io.fabric8.kubernetes.api.model.Secret stored = API.client().secrets().inNamespace("default").withName("token")
        .get();
    assertThat(stored.getData()).as("stringData is merged into data").isEqualTo(Map.of("t", "eA=="));
    assertThat(stored.getStringData()).isNullOrEmpty();
    assertThat(kubectl.runWithInput(configMap.replace("b: '2'", "c: '3'"), "apply", "-f", "-").output())
        .contains("configmap/settings configured");
    assertThat(API.client().configMaps().inNamespace("default").withName("settings").get().getData())
        .isEqualTo(Map.of("a", "1", "b", "2", "c", "3"));
    assertThat(kubectl.ok("get", "configmaps,secrets")).contains("configmap/settings", "secret/token")
        .containsPattern("DATA\\s+AGE");
    assertThat(kubectl.ok("describe", "configmap", "settings")).contains("Name:", "settings");
    assertThat(kubectl.ok("label", "configmap", "settings", "team=a")).contains("labeled");
    assertThat(kubectl.ok("get", "configmaps", "-l", "team=a", "-o", "name")).isEqualTo("configmap/settings\n");

    // kubectl create <kind> sends protobuf: understood for namespaces, configmaps, secrets, serviceaccounts
    assertThat(kubectl.ok("create", "namespace", "team-a")).contains("namespace/team-a created");
    assertThat(kubectl.ok("create", "configmap", "generated", "-n", "team-a", "--from-literal=k=v"))
        .contains("configmap/generated created");
    assertThat(kubectl.run("create", "configmap", "generated", "-n", "team-a").output())
        .contains("configmaps \"generated\" already exists");
    assertThat(kubectl.ok("create", "secret", "generic", "token", "-n", "team-a", "--from-literal=t=x"))
        .contains("secret/token created");
    assertThat(API.client().secrets().inNamespace("team-a").withName("token").get().getData())
        .containsEntry("t", "eA==");
    Kubectl.Result job = kubectl.run("create", "job", "j", "--image=busybox");
    assertThat(job.exit()).isNotZero();
    assertThat(job.output()).contains("batch/v1 Job", "--dry-run=client -o yaml | kubectl create -f -");

    // delete
    assertThat(kubectl.ok("delete", "-f", dir.resolve("tj.yaml").toString()))
        .contains("trainjob.trainer.kubeflow.org \"mnist\" deleted");
    Kubectl.Result missing = kubectl.run("get", "trainjob", "mnist");
    assertThat(missing.exit()).isNotZero();
    assertThat(missing.output()).contains("NotFound", "trainjobs.trainer.kubeflow.org \"mnist\" not found");
    assertThat(kubectl.ok("delete", "configmap", "settings")).contains("deleted");
    assertThat(kubectl.ok("get", "trainjobs")).contains("No resources found");
  }
}
