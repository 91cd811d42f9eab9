package io.kftrainer.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Tools;
import io.kftrainer.deploy.image.BwrapContainer;
import io.kftrainer.deploy.image.ImageArchive;
import io.kftrainer.lab.AuditLog;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabBinaries;
import io.kftrainer.lab.LabPorts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator installed with kustomize ({@code manifests/base}, then {@code manifests/runtimes}) on real
 * Kubernetes, in a lab of its own (the chart's names are the same): an overlay, as a cluster whose API server cannot
 * reach the Service network writes it, points the webhooks at a URL and the manager at loopback ports; the operator
 * runs from the image as the base's Deployment runs it, on the base's RBAC alone, and the torch example completes.
 */
class KustomizeOnKubernetesIT {

  private static final String NAMESPACE = "kubeflow-system";
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private static Lab lab;
  private static BwrapContainer operator;

  @BeforeAll
  static void installWithKustomize() throws Exception {
    var binaries = LabBinaries.find();
    Assumptions.assumeTrue(binaries.isPresent(), LabBinaries::missingReason);
    Assumptions.assumeTrue(BwrapContainer.available(), BwrapContainer.unavailableReason());
    Tools.kubectl();
    Path work = Deploy.workDir("kustomize-on-kubernetes");
    Path root = work.resolve("rootfs");
    ImageArchive image = Deploy.unpackedImage(root);
    lab = Lab.start(binaries.get(), Path.of(System.getProperty("trainer.lab.workDir", "target/lab"))
        .resolve("kustomize-" + ProcessHandle.current().pid()), 2);

    int healthPort = LabPorts.free();
    int webhookPort = LabPorts.free();
    Path overlay = overlay(work.resolve("overlay"), healthPort, webhookPort);
    kubectl("apply", "--server-side", "-k", overlay.toString()).success();
    kubectl("wait", "--for=condition=Established", "--timeout=60s", "crd/clustertrainingruntimes.trainer.kubeflow.org",
        "crd/trainjobs.trainer.kubeflow.org").success();
    kubectl("apply", "--server-side", "-k", Deploy.manifests().resolve("runtimes").toString()).success();
    lab.awaitServed("trainer.kubeflow.org/v1alpha1", "TrainJob", Duration.ofSeconds(30));

    operator = OperatorPod.start(lab, root, image.config(), NAMESPACE, "kubeflow-trainer-controller-manager",
        "kubeflow-trainer-controller-manager-5c8d7-kust1", work);
    OperatorPod.awaitReady("the operator's /readyz", operator, healthPort, TIMEOUT);
  }

  /**
   * An overlay of {@code manifests/base}: the Configuration with loopback ports (the container shares the host's
   * network), each webhook's {@code clientConfig} a URL of 127.0.0.1 instead of the Service.
   */
  private static Path overlay(Path dir, int healthPort, int webhookPort) throws IOException {
    Files.createDirectories(dir);
    Path base = Deploy.manifests().resolve("base");
    Files.writeString(dir.resolve("controller_manager_config.yaml"),
        Files.readString(base.resolve("controller_manager_config.yaml"))
            .replace("healthProbeBindAddress: :8081", "healthProbeBindAddress: 127.0.0.1:" + healthPort)
            .replace("bindAddress: :8443", "bindAddress: 127.0.0.1:" + LabPorts.free())
            .replace("port: 9443\n  host: \"\"", "port: " + webhookPort + "\n  host: 127.0.0.1")
            .replace("port: 10443", "port: " + LabPorts.free()));
    StringBuilder patches = new StringBuilder();
    for (String file : List.of("validating-webhook-configuration.yaml", "mutating-webhook-configuration.yaml")) {
      try (InputStream in = Files.newInputStream(base.resolve(file))) {
        HasMetadata configuration = lab.admin().load(in).items().get(0);
        List<WebhookClientConfig> configs = new ArrayList<>();
        if (configuration instanceof ValidatingWebhookConfiguration validating) {
          validating.getWebhooks().forEach(w -> configs.add(w.getClientConfig()));
        } else {
          ((MutatingWebhookConfiguration) configuration).getWebhooks().forEach(w -> configs.add(w.getClientConfig()));
        }
        patches.append("  - target: {kind: ").append(configuration.getKind()).append(", name: ")
            .append(configuration.getMetadata().getName()).append("}\n    patch: |-\n");
        for (int i = 0; i < configs.size(); i++) {
          patches.append("      - {op: replace, path: /webhooks/").append(i).append("/clientConfig, value: {url: \"")
              .append("https://127.0.0.1:").append(webhookPort).append(configs.get(i).getService().getPath())
              .append("\"}}\n");
        }
      }
    }
    Files.writeString(dir.resolve("kustomization.yaml"), """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources:
          - %s
        configMapGenerator:
          - name: kubeflow-trainer-config
            namespace: kubeflow-system
            behavior: replace
            files:
              - controller_manager_config.yaml
            options:
              disableNameSuffixHash: true
        patches:
        %s""".formatted(dir.relativize(base), patches));
    return dir;
  }

  @AfterAll
  static void stop() throws Exception {
    if (operator != null) {
      operator.close();
    }
    if (lab != null) {
      lab.close();
    }
  }

  @Test
  void theTorchExampleCompletesOnTheBasesRbacAlone() throws IOException {
    await("kube-apiserver calls the operator's webhooks").atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200)).until(() -> kubectl("apply", "--dry-run=server", "-f",
            Deploy.projectDir().resolve("examples/torch-trainjob.yaml").toString()).exitCode() == 0);
    kubectl("apply", "-f", Deploy.projectDir().resolve("examples/torch-trainjob.yaml").toString()).success();

    await("torch-cpu Complete").atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      GenericKubernetesResource trainJob = lab.admin().genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
          "TrainJob").inNamespace("default").withName("torch-cpu").get();
      List<Map<String, Object>> conditions = trainJob.get("status", "conditions");
      assertThat(conditions).anySatisfy(c -> assertThat(c).containsEntry("type", "Complete")
          .containsEntry("status", "True"));
    });
    assertThat(AuditLog.requests(lab.auditLog(), "system:serviceaccount:" + NAMESPACE + ":"))
        .filteredOn(AuditLog.Request::forbiddenByAuthorization).as("requests the base's RBAC refused").isEmpty();
  }

  private static Tools.Result kubectl(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Tools.kubectl(), "--kubeconfig",
        lab.adminKubeconfig().toString()));
    command.addAll(List.of(args));
    return Tools.run(command, null);
  }

  private static String log() throws IOException {
    return operator == null ? "" : Files.readString(operator.log());
  }
}
