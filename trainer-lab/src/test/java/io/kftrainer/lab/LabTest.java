package io.kftrainer.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lab is the Kubernetes a cluster operator runs: the pinned versions answer, a Job's pods are scheduled onto
 * kwok's nodes and end by its stages, the real JobSet controller runs a JobSet to completion through its webhooks,
 * the garbage collector removes dependents, a ServiceAccount's token from TokenRequest authenticates under RBAC,
 * and nothing of the lab listens beyond loopback.
 */
@ExtendWith(LabExtension.class)
class LabTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  /** A listening address of ss on loopback: 127.0.0.1, ::1 or IPv4-mapped 127.0.0.1. */
  private static final String LOOPBACK = "(127\\.0\\.0\\.1|\\[::1\\]|\\[::ffff:127\\.0\\.0\\.1\\]):\\d+";
  private static Lab lab;
  private static KubernetesClient admin;

  @BeforeAll
  static void namespace(Lab started) {
    lab = started;
    admin = lab.admin();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("lab-test").endMetadata().build())
        .serverSideApply();
  }

  @Test
  void servesThePinnedKubernetesVersion() {
    assertThat(admin.getKubernetesVersion().getGitVersion()).isEqualTo(lab.versions().get("kubernetes"));
    assertThat(admin.nodes().list().getItems()).hasSize(LabExtension.NODES)
        .allSatisfy(node -> assertThat(node.getStatus().getAllocatable()).containsKeys("nvidia.com/gpu", "cpu"));
  }

  @Test
  void aJobsPodsAreScheduledOnKwokNodesAndTheJobCompletes() {
    Job job = new JobBuilder().withNewMetadata().withName("pi").endMetadata().withNewSpec()
        .withCompletions(2).withParallelism(2).withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("pi").withImage("busybox").withCommand("true").endContainer()
        .endSpec().endTemplate().endSpec().build();
    admin.batch().v1().jobs().inNamespace("lab-test").resource(job).create();

    await("the Job completes").atMost(TIMEOUT).untilAsserted(() -> assertThat(admin.batch().v1().jobs()
        .inNamespace("lab-test").withName("pi").get().getStatus().getSucceeded()).isEqualTo(2));
    assertThat(admin.pods().inNamespace("lab-test").withLabel("job-name", "pi").list().getItems())
        .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).startsWith("kwok-node-"));
  }

  /** A client polling every second (the Kubeflow SDK's wait_for_job_status) sees such a pod Running. */
  @Test
  void aJobsPodAnnotatedWithACompletionDelayStaysRunningThatLongThenSucceeds() {
    Job job = new JobBuilder().withNewMetadata().withName("held").endMetadata().withNewSpec()
        .withNewTemplate().withNewMetadata().withAnnotations(Map.of(Lab.COMPLETION_DELAY_ANNOTATION, "3s"))
        .endMetadata().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("held").withImage("busybox").withCommand("true").endContainer()
        .endSpec().endTemplate().endSpec().build();
    admin.batch().v1().jobs().inNamespace("lab-test").resource(job).create();

    await("the pod Running").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> admin.pods()
        .inNamespace("lab-test").withLabel("job-name", "held").list().getItems().stream()
        .anyMatch(p -> "Running".equals(p.getStatus().getPhase())));
    long running = System.nanoTime();
    await("the Job completes").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
      Integer succeeded = admin.batch().v1().jobs().inNamespace("lab-test").withName("held").get().getStatus()
          .getSucceeded();
      return succeeded != null && succeeded == 1;
    });
    assertThat(Duration.ofNanos(System.nanoTime() - running)).isGreaterThan(Duration.ofMillis(2500));
  }

  @Test
  void theJobSetControllerRunsAJobSetToCompletionAndTheGarbageCollectorRemovesItsJobs() {
    GenericKubernetesResource jobSet = admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace("lab-test").load(LabTest.class.getResourceAsStream("/jobset.yaml")).item();
    admin.resource(jobSet).inNamespace("lab-test").create();

    await("the JobSet completes").atMost(TIMEOUT).untilAsserted(() -> {
      GenericKubernetesResource current = admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
          .inNamespace("lab-test").withName("lab-jobset").get();
      List<Map<String, Object>> conditions = current.get("status", "conditions");
      assertThat(conditions).anySatisfy(c -> assertThat(c).containsEntry("type", "Completed")
          .containsEntry("status", "True"));
    });
    assertThat(admin.batch().v1().jobs().inNamespace("lab-test").withLabel("jobset.sigs.k8s.io/jobset-name",
        "lab-jobset").list().getItems()).hasSize(2);

    admin.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace("lab-test")
        .withName("lab-jobset").delete();
    await("the garbage collector deletes the JobSet's Jobs").atMost(TIMEOUT).untilAsserted(() ->
        assertThat(admin.batch().v1().jobs().inNamespace("lab-test")
            .withLabel("jobset.sigs.k8s.io/jobset-name", "lab-jobset").list().getItems()).isEmpty());
  }

  @Test
  void aServiceAccountTokenFromTokenRequestAuthenticatesUnderRbac() throws IOException {
    admin.serviceAccounts().inNamespace("lab-test").resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("reader").endMetadata().build()).create();
    String token = lab.serviceAccountToken("lab-test", "reader", Duration.ofMinutes(10));
    var kubeconfig = lab.kubeconfig(lab.work().resolve("reader.kubeconfig"), "reader", token, "lab-test");

    try (KubernetesClient reader = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build()) {
      assertThatThrownBy(() -> reader.pods().inNamespace("lab-test").list())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(403);
            assertThat(e.getStatus().getMessage()).contains("system:serviceaccount:lab-test:reader")
                .contains("cannot list resource \"pods\"");
          });
    }
  }

  @Test
  void nothingOfTheLabListensBeyondLoopback() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/ss")) || Files.isExecutable(Path.of("/bin/ss")),
        "ss (Debian's iproute2) lists the listening sockets");
    Set<Long> lab = ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    Process ss = new ProcessBuilder("ss", "-H", "-l", "-n", "-p", "-t", "-u").redirectErrorStream(true).start();
    List<String> sockets = new String(ss.getInputStream().readAllBytes()).lines()
        .filter(line -> lab.stream().anyMatch(pid -> line.contains("pid=" + pid + ",")))
        .toList();
    assertThat(sockets).as("listening sockets of the lab's processes").isNotEmpty()
        .allSatisfy(line -> assertThat(line.split("\\s+")[4]).matches(LOOPBACK));
  }
}
