package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.operator.command.RunCommand;
import io.kftrainer.operator.command.VersionProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flow of the Kubeflow Python SDK's Kubernetes backend (list runtimes, create, wait, select the pods with the
 * SDK's set-based selector, read node 0's log, delete), with the Kubernetes Python client (Debian
 * {@code python3-kubernetes}) against {@code local}.
 */
class SdkFlowTest {

  @TempDir
  Path dir;

  @Test
  void theVersionTheSdkReadsAtStartIsThereForEveryAuthenticatedUser() throws Exception {
    try (LocalMode local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components()).start()) {
      KubernetesClient client = local.client();

      // TrainerClient() reads it and warns "Trainer control-plane version info is not available" without it
      assertThat(client.configMaps().inNamespace("kubeflow-system").withName("kubeflow-trainer-public").get()
          .getData()).containsExactly(Map.entry("kubeflow_trainer_version", "v" + VersionProvider.version()
              .replaceFirst("-SNAPSHOT$", "")));
      assertThat(client.rbac().roleBindings().inNamespace("kubeflow-system").withName("kubeflow-trainer-public")
          .get().getSubjects()).singleElement().satisfies(s -> assertThat(s.getName())
              .isEqualTo("system:authenticated"));
      assertThat(client.rbac().roles().inNamespace("kubeflow-system").withName("kubeflow-trainer-public").get()
          .getRules()).singleElement().satisfies(rule -> assertThat(rule.getResourceNames())
              .containsExactly("kubeflow-trainer-public"));
    }
  }

  /**
   * A namespace's user as docs/kubeflow-sdk.md makes one: a ServiceAccount, a RoleBinding to upstream's
   * {@code kubeflow-trainer-edit} (installed at start) and a token from TokenRequest. It reads the runtimes (every
   * authenticated user may, as upstream grants since kubeflow/trainer#3022) and works on TrainJobs, pods' logs and
   * Events in its namespace, and nowhere else.
   */
  @Test
  void aNamespacesUserBoundToKubeflowTrainerEditGetsWhatTheSdkNeedsThereOnly() throws Exception {
    try (LocalMode local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components()).start()) {
      KubernetesClient admin = local.client();
      admin.resource(new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build()).create();
      admin.resource(new ServiceAccountBuilder().withNewMetadata().withName("alice").withNamespace("team-a")
          .endMetadata().build()).create();
      admin.resource(new RoleBindingBuilder().withNewMetadata().withName("alice").withNamespace("team-a")
          .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "kubeflow-trainer-edit")
          .addNewSubject().withKind("ServiceAccount").withName("alice").withNamespace("team-a").endSubject()
          .build()).create();
      String token = admin.serviceAccounts().inNamespace("team-a").withName("alice")
          .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
          .getStatus().getToken();

      try (KubernetesClient alice = new KubernetesClientBuilder().withConfig(new ConfigBuilder(admin.getConfiguration())
          .withOauthToken(token).withNamespace("team-a").withRequestRetryBackoffLimit(0).build()).build()) {
        assertThat(alice.resources(ClusterTrainingRuntime.class).list().getItems()).extracting(r -> r.getMetadata()
            .getName()).contains("torch-distributed");
        assertThat(alice.resources(TrainJob.class).inNamespace("team-a").list().getItems()).isEmpty();
        assertThat(alice.pods().inNamespace("team-a").list().getItems()).isEmpty();
        assertThat(alice.v1().events().inNamespace("team-a").list().getItems()).isNotNull();

        assertThatThrownBy(() -> alice.resources(TrainJob.class).inNamespace("default").list())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
            .hasMessageContaining("User \"system:serviceaccount:team-a:alice\" cannot list resource \"trainjobs\" in "
                + "API group \"trainer.kubeflow.org\" in the namespace \"default\"");
        assertThatThrownBy(() -> alice.secrets().inNamespace("team-a").list())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        assertThatThrownBy(() -> alice.resources(ClusterTrainingRuntime.class).withName("torch-distributed").delete())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
      }
    }
  }

  @Test
  void theSdksCallsCreateTrainSelectPodsReadLogsAndDelete() throws Exception {
    assumeTrue(TrainingTest.python("import kubernetes"), "python3-kubernetes is not installed");
    try (LocalMode local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components())
        .execute(dir.resolve("run"), 4).start()) {
      Path script = Path.of(SdkFlowTest.class.getClassLoader().getResource("sdk/sdk_flow.py").toURI());
      Process process = new ProcessBuilder("/usr/bin/python3", script.toString(), local.kubeconfig().toString(),
          "sdk-job").redirectErrorStream(true).start();
      // read to the end first: the script blocks on a full pipe otherwise
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();

      assertThat(process.exitValue()).as(output).isZero();
      assertThat(output.lines().toList()).containsSubsequence(
          "created sdk-job",
          "state: Complete",
          "pods: sdk-job-node-0-0,sdk-job-node-0-1",
          "log: hello from node 0",
          "deleted sdk-job");
      assertThat(output.lines().findFirst().orElseThrow()).startsWith("runtimes: ").contains("torch-distributed");
    }
  }
}

