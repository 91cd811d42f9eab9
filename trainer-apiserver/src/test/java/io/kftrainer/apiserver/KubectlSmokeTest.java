package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Runs the real kubectl against the server; skipped when /usr/bin/kubectl is absent. */
class KubectlSmokeTest {

  private static final Path KUBECTL = Path.of("/usr/bin/kubectl");

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  @TempDir
  static Path dir;

  private record Result(int exit, String output) {
  }

  @BeforeAll
  static void kubectlPresent() {
    assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed at " + KUBECTL);
  }

  private static Result kubectl(String... args) {
    return kubectlWithInput(null, args);
  }

  private static Result kubectlWithInput(String stdin, String... args) {
    List<String> command = new ArrayList<>(List.of(KUBECTL.toString(),
        "--kubeconfig", dir.resolve("kubeconfig").toString(), "--cache-dir", dir.resolve("cache").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("HOME", dir.toString());
    builder.environment().remove("KUBECONFIG");
    try {
      Process process = builder.start();
      if (stdin != null) {
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      process.getOutputStream().close();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl %s finished", args[0]).isTrue();
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String ok(String... args) {
    Result result = kubectl(args);
    assertThat(result.exit()).as("kubectl %s: %s", String.join(" ", args), result.output()).isZero();
    return result.output();
  }

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

  @Test
  void kubectlWorksAgainstTheServer() throws IOException {
    API.server().writeKubeconfig(dir.resolve("kubeconfig"));
    Path crd = dir.resolve("crd.yaml");
    try (InputStream in = TestCrds.trainJobCrd()) {
      Files.copy(in, crd);
    }

    assertThat(ok("version")).contains("Server Version: " + EmbeddedApiServer.DEFAULT_SERVER_VERSION);
    assertThat(ok("api-resources")).contains("configmaps", "leases", "customresourcedefinitions");

    // create -f of a CRD, then of a custom resource
    assertThat(ok("create", "-f", crd.toString()))
        .contains("customresourcedefinition.apiextensions.k8s.io/trainjobs.trainer.kubeflow.org created");
    assertThat(ok("api-resources", "--api-group=trainer.kubeflow.org")).contains("trainjobs", "tj", "TrainJob");
    assertThat(ok("wait", "--for=condition=Established", "--timeout=10s", "crd/trainjobs.trainer.kubeflow.org"))
        .contains("condition met");
    assertThat(ok("create", "-f", write("tj.yaml", trainJobYaml(2)).toString()))
        .contains("trainjob.trainer.kubeflow.org/mnist created");

    // get shows the printer columns; a status change shows up in State
    assertThat(ok("get", "trainjobs")).containsPattern("NAME\\s+STATE\\s+AGE").contains("mnist");
    ok("patch", "trainjob", "mnist", "--subresource=status", "--type=merge", "-p",
        "{\"status\":{\"conditions\":[{\"type\":\"Created\",\"status\":\"True\"},"
            + "{\"type\":\"Complete\",\"status\":\"True\"}]}}");
    assertThat(ok("get", "tj", "-o", "wide")).containsPattern("mnist\\s+Complete\\s+torch-distributed\\s+\\d+s");

    // server-side apply: changed, then unchanged
    assertThat(ok("apply", "--server-side", "-f", write("tj4.yaml", trainJobYaml(4)).toString()))
        .contains("trainjob.trainer.kubeflow.org/mnist serverside-applied");
    GenericKubernetesResource applied = TestCrds.trainJobs(API.client()).inNamespace("default").withName("mnist").get();
    assertThat(applied.<Object>get("spec", "trainer", "numNodes")).isEqualTo(4);
    assertThat(applied.getMetadata().getGeneration()).isEqualTo(2L);
    ok("apply", "--server-side", "-f", dir.resolve("tj4.yaml").toString());
    assertThat(TestCrds.trainJobs(API.client()).inNamespace("default").withName("mnist").get().getMetadata()
        .getResourceVersion()).isEqualTo(applied.getMetadata().getResourceVersion());

    // client-side apply (a JSON merge patch for custom resources) and describe
    assertThat(ok("apply", "-f", write("tj5.yaml", trainJobYaml(5)).toString()))
        .contains("trainjob.trainer.kubeflow.org/mnist configured");
    assertThat(ok("describe", "trainjob", "mnist")).contains("Name:", "mnist", "Num Nodes:  5", "Complete");

    // describe lists the events of the object (a field selector on involvedObject.*), and only those
    API.client().v1().events().inNamespace("default").resource(event("mnist.1", new ObjectReferenceBuilder()
        .withApiVersion(TestCrds.API_VERSION).withKind("TrainJob").withNamespace("default").withName("mnist")
        .withUid(applied.getMetadata().getUid()).build(), "JobSetCreated", "created the JobSet")).create();
    API.client().v1().events().inNamespace("default").resource(event("other.1", new ObjectReferenceBuilder()
        .withKind("ConfigMap").withNamespace("default").withName("mnist").build(), "Other", "unrelated")).create();
    assertThat(ok("describe", "trainjob", "mnist")).containsPattern("Normal\\s+JobSetCreated\\s+.*created the JobSet")
        .doesNotContain("unrelated");

    // a create of an existing object is AlreadyExists
    Result again = kubectl("create", "-f", dir.resolve("tj.yaml").toString());
    assertThat(again.exit()).isNotZero();
    assertThat(again.output()).contains("Error from server (AlreadyExists)",
        "trainjobs.trainer.kubeflow.org \"mnist\" already exists");

    // built-in kinds: create -f (JSON on the wire), client-side apply (strategic merge patch), get of two kinds
    String configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: '1', b: '2'}\n";
    assertThat(kubectlWithInput(configMap, "create", "-f", "-").output()).contains("configmap/settings created");
    String secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: token}\nstringData: {t: x}\n";
    assertThat(kubectlWithInput(secret, "apply", "-f", "-").output()).contains("secret/token created");
    assertThat(kubectlWithInput(configMap.replace("b: '2'", "c: '3'"), "apply", "-f", "-").output())
        .contains("configmap/settings configured");
    assertThat(API.client().configMaps().inNamespace("default").withName("settings").get().getData())
        .isEqualTo(Map.of("a", "1", "b", "2", "c", "3"));
    assertThat(ok("get", "configmaps,secrets")).contains("configmap/settings", "secret/token")
        .containsPattern("DATA\\s+AGE");
    assertThat(ok("describe", "configmap", "settings")).contains("Name:", "settings");
    assertThat(ok("label", "configmap", "settings", "team=a")).contains("labeled");
    assertThat(ok("get", "configmaps", "-l", "team=a", "-o", "name")).isEqualTo("configmap/settings\n");

    // kubectl create <kind> sends protobuf: understood for namespaces, configmaps, secrets, serviceaccounts
    assertThat(ok("create", "namespace", "team-a")).contains("namespace/team-a created");
    assertThat(ok("create", "configmap", "generated", "-n", "team-a", "--from-literal=k=v"))
        .contains("configmap/generated created");
    assertThat(kubectl("create", "configmap", "generated", "-n", "team-a").output())
        .contains("configmaps \"generated\" already exists");
    assertThat(ok("create", "secret", "generic", "token", "-n", "team-a", "--from-literal=t=x"))
        .contains("secret/token created");
    assertThat(API.client().secrets().inNamespace("team-a").withName("token").get().getData())
        .containsEntry("t", "eA==");
    Result job = kubectl("create", "job", "j", "--image=busybox");
    assertThat(job.exit()).isNotZero();
    assertThat(job.output()).contains("batch/v1 Job", "--dry-run=client -o yaml | kubectl create -f -");

    // delete
    assertThat(ok("delete", "-f", dir.resolve("tj.yaml").toString()))
        .contains("trainjob.trainer.kubeflow.org \"mnist\" deleted");
    Result missing = kubectl("get", "trainjob", "mnist");
    assertThat(missing.exit()).isNotZero();
    assertThat(missing.output()).contains("NotFound", "trainjobs.trainer.kubeflow.org \"mnist\" not found");
    assertThat(ok("delete", "configmap", "settings")).contains("deleted");
    assertThat(ok("get", "trainjobs")).contains("No resources found");
  }
}
