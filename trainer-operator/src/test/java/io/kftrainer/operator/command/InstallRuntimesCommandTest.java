package io.kftrainer.operator.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.operator.command.TestingCli.Run;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code trainer-operator install-runtimes}, the chart's installer Job at the install that brings the CRDs: it waits
 * for the kind, then applies the runtimes under helm's field manager, and fails with a cause otherwise.
 */
class InstallRuntimesCommandTest {

  private static final String RUNTIME = """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: ClusterTrainingRuntime
      metadata:
        name: torch-distributed
        labels:
          app.kubernetes.io/managed-by: Helm
        annotations:
          meta.helm.sh/release-name: kubeflow-trainer
          meta.helm.sh/release-namespace: kubeflow-system
      spec:
        mlPolicy:
          numNodes: 1
          torch:
            numProcPerNode: auto
        template:
          spec:
            replicatedJobs:
              - name: node
                template:
                  spec:
                    template:
                      spec:
                        containers:
                          - name: node
                            image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
      """;

  @TempDir
  Path dir;
  private EmbeddedApiServer server;
  private Path kubeconfig;

  @BeforeEach
  void startAnEmptyServer() {
    server = EmbeddedApiServer.start();
    kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void waitsUntilTheKindIsServedThenAppliesEachRuntimeAsHelm() throws Exception {
    Path runtimes = Files.createDirectories(dir.resolve("runtimes"));
    Files.writeString(runtimes.resolve("torch-distributed.yaml"), RUNTIME);
    Files.writeString(runtimes.resolve("jax-distributed.yaml"), RUNTIME.replace("torch-distributed",
        "jax-distributed"));
    // what a mounted ConfigMap holds besides its keys
    Files.createDirectories(runtimes.resolve("..2026_12_07_14_00_00.123"));

    CompletableFuture<Run> installer = CompletableFuture.supplyAsync(() -> TestingCli.run("install-runtimes",
        "--dir", runtimes.toString(), "--kubeconfig", kubeconfig.toString()));
    // it asked discovery at least twice (it polls) and is still waiting
    await("the installer polls discovery").atMost(Duration.ofSeconds(30)).until(() -> server.requests().stream()
        .filter(request -> request.path().equals("/apis/trainer.kubeflow.org/v1alpha1")).count() >= 2);
    assertThat(installer).as("the installer waits while the kind is not served").isNotCompleted();
    try (InputStream crd = getClass().getClassLoader()
        .getResourceAsStream("META-INF/fabric8/clustertrainingruntimes.trainer.kubeflow.org-v1.yml")) {
      server.installCrds(crd);
    }
    Run run = installer.get(60, TimeUnit.SECONDS);

    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).endsWith("""
        ClusterTrainingRuntime jax-distributed applied
        ClusterTrainingRuntime torch-distributed applied
        """);
    GenericKubernetesResource applied = server.client().genericKubernetesResources(
        InstallRuntimesCommand.API_VERSION, InstallRuntimesCommand.KIND).withName("torch-distributed").get();
    assertThat(applied.getMetadata().getAnnotations()).containsEntry("meta.helm.sh/release-name",
        "kubeflow-trainer");
    assertThat(applied.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager,
        ManagedFieldsEntry::getOperation).containsExactly(org.assertj.core.groups.Tuple.tuple("helm", "Apply"));
  }

  @Test
  void aKindNeverServedFailsWithItsCause() throws IOException {
    Path runtimes = Files.createDirectories(dir.resolve("runtimes"));
    Files.writeString(runtimes.resolve("torch-distributed.yaml"), RUNTIME);

    Run run = TestingCli.run("install-runtimes", "--dir", runtimes.toString(), "--kubeconfig", kubeconfig.toString(),
        "--wait-seconds", "1");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("Error: kube-apiserver did not serve trainer.kubeflow.org/v1alpha1 "
        + "ClusterTrainingRuntime within 1 s: are the CRDs installed (crds.enabled)?\n");
  }

  @Test
  void aFileThatIsNotARuntimeIsNamedAndNothingIsApplied() throws IOException {
    Path runtimes = Files.createDirectories(dir.resolve("runtimes"));
    Files.writeString(runtimes.resolve("a.yaml"), RUNTIME);
    Files.writeString(runtimes.resolve("b.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n");

    Run run = TestingCli.run("install-runtimes", "--dir", runtimes.toString(), "--kubeconfig", kubeconfig.toString(),
        "--wait-seconds", "1");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("Error: " + runtimes.resolve("b.yaml")
        + ": not a named trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime\n");
  }

  /** An API server it cannot reach is tried until the deadline, then named with the cause. */
  @Test
  void anUnreachableApiServerFailsWithTheCause() throws IOException {
    Path runtimes = Files.createDirectories(dir.resolve("runtimes"));
    Files.writeString(runtimes.resolve("torch-distributed.yaml"), RUNTIME);
    Path unreachable = Files.writeString(dir.resolve("unreachable"), Files.readString(kubeconfig)
        .replace(server.config().getMasterUrl().replaceAll("/$", ""), "https://127.0.0.1:1"));

    Run run = TestingCli.run("install-runtimes", "--dir", runtimes.toString(), "--kubeconfig", unreachable.toString(),
        "--wait-seconds", "1");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: discovery of trainer.kubeflow.org/v1alpha1 at https://127.0.0.1:1/: ")
        .contains("Exception");
  }
}
