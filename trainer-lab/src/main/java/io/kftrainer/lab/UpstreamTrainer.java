package io.kftrainer.lab;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Upstream Kubeflow Trainer's controller manager ({@code github.com/kubeflow/trainer/v2}, built by
 * {@code .ci/build-lab}) on a {@link Lab}, outside a cluster as its Deployment would run it inside: upstream's CRDs;
 * its webhook configurations as its kustomization makes them, but with {@code clientConfig.url} at 127.0.0.1 and the
 * lab's CA; its Configuration file with {@code certManagement.enable: false}, loopback ports of its own (8081, 8443
 * and 9443 are the defaults of upstream's manager and of JobSet's), no leader election, metrics over plain HTTP; the
 * serving certificate in its cert directory, {@code $TMPDIR/k8s-webhook-server/serving-certs} (controller-runtime's
 * default: upstream's Configuration has no field for it); the lab's admin kubeconfig. Stops with {@link #close()}.
 */
public final class UpstreamTrainer implements AutoCloseable {

  public static final String COMMAND = "trainer-controller-manager";
  /** Upstream's webhook configurations, as its kustomize patches name them. */
  public static final String MUTATING = "defaulter.trainer.kubeflow.org";
  public static final String VALIDATING = "validator.trainer.kubeflow.org";

  private final LabProcess process;
  private final int webhookPort;
  private final int metricsPort;

  private UpstreamTrainer(LabProcess process, int webhookPort, int metricsPort) {
    this.process = process;
    this.webhookPort = webhookPort;
    this.metricsPort = metricsPort;
  }

  /** The lab's upstream controller manager, if {@code .ci/build-lab} built it. */
  public static Optional<Path> binary(LabBinaries binaries) {
    Path command = binaries.command(COMMAND);
    return Files.isExecutable(command) ? Optional.of(command) : Optional.empty();
  }

  /** Why {@link #binary} is empty: for a skipped test. */
  public static String missingReason(LabBinaries binaries) {
    return "upstream's " + COMMAND + " is not built at " + binaries.command(COMMAND) + ": run .ci/build-lab";
  }

  /**
   * Installs upstream's CRDs and webhook configurations on {@code lab}, starts its controller manager (working
   * directory {@code work}: configuration, certificates) and waits until it is ready and its webhooks admit.
   * Upstream's runtimes are not installed: {@link #installRuntimes}.
   */
  public static UpstreamTrainer start(Lab lab, LabBinaries binaries, Path work) throws Exception {
    Path command = binary(binaries).orElseThrow(() -> new IllegalStateException(missingReason(binaries)));
    for (String crd : List.of("trainjobs", "trainingruntimes", "clustertrainingruntimes")) {
      lab.applyFile(binaries.data().resolve("upstream/trainer.kubeflow.org_" + crd + ".yaml"));
    }
    // the manager sets up its informers' indexes at start, and fails on a kind discovery does not serve yet
    for (String kind : List.of("TrainJob", "TrainingRuntime", "ClusterTrainingRuntime")) {
      lab.awaitServed("trainer.kubeflow.org/v1alpha1", kind, Duration.ofSeconds(30));
    }
    int webhookPort = LabPorts.free();
    int healthPort = LabPorts.free();
    int metricsPort = LabPorts.free();
    Files.createDirectories(work);
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Lab.writeCertDir(lab.issue(List.of("127.0.0.1")), tmp.resolve("k8s-webhook-server/serving-certs"));
    Path config = work.resolve("config.yaml");
    // upstream's controller_manager_config.yaml with the changes a process outside the cluster needs
    Files.writeString(config, """
        apiVersion: config.trainer.kubeflow.org/v1alpha1
        kind: Configuration
        health:
          healthProbeBindAddress: 127.0.0.1:%d
          readinessEndpointName: readyz
          livenessEndpointName: healthz
        metrics:
          bindAddress: 127.0.0.1:%d
          secureServing: false
        webhook:
          port: %d
          host: 127.0.0.1
        leaderElection:
          leaderElect: false
        controller:
          groupKindConcurrency:
            TrainJob.trainer.kubeflow.org: 5
            TrainingRuntime.trainer.kubeflow.org: 1
            ClusterTrainingRuntime.trainer.kubeflow.org: 1
        certManagement:
          enable: false
        clientConnection:
          qps: 50
          burst: 100
        statusServer:
          port: %d
          qps: 5
          burst: 10
        """.formatted(healthPort, metricsPort, webhookPort, LabPorts.free()));
    LabProcess process = LabProcess.start("trainer-controller-manager", List.of("env",
        "TMPDIR=" + tmp, "KUBECONFIG=" + lab.adminKubeconfig(),
        command.toString(), "--config", config.toString(), "--zap-log-level", "info"),
        lab.logs().resolve("trainer-controller-manager.log"));
    UpstreamTrainer trainer = new UpstreamTrainer(process, webhookPort, metricsPort);
    try {
      installWebhooks(lab, binaries, webhookPort);
      Lab.awaitReady("upstream's controller manager", process, healthPort);
    } catch (Exception | Error e) {
      trainer.close();
      throw e;
    }
    return trainer;
  }

  /**
   * Upstream's webhook configurations (manifests/base/webhook/manifests.yaml) with its kustomize patches' names and
   * objectSelectors (patch_mutating.yaml, patch_validating.yaml), each webhook called at 127.0.0.1.
   */
  private static void installWebhooks(Lab lab, LabBinaries binaries, int port) throws IOException {
    List<HasMetadata> configurations;
    try (InputStream in = Files.newInputStream(binaries.data().resolve("upstream/webhooks.yaml"))) {
      configurations = lab.admin().load(in).items();
    }
    LabelSelector notDisabled = new LabelSelectorBuilder().addNewMatchExpression()
        .withKey("trainer.kubeflow.org/webhook-validation").withOperator("NotIn").withValues("disabled")
        .endMatchExpression().build();
    for (HasMetadata configuration : configurations) {
      if (configuration instanceof MutatingWebhookConfiguration mutating) {
        mutating.getMetadata().setName(MUTATING);
      } else if (configuration instanceof ValidatingWebhookConfiguration validating) {
        validating.getMetadata().setName(VALIDATING);
        // the runtimes' validators (the first two) skip objects labelled webhook-validation: disabled
        validating.getWebhooks().stream().limit(2).forEach(webhook -> webhook.setObjectSelector(notDisabled));
      }
    }
    lab.registerWebhooks(configurations, port);
  }

  /**
   * Upstream's ClusterTrainingRuntimes (manifests/base/runtimes), through its webhooks: retried until they admit
   * (kube-apiserver may take a moment to call a webhook configuration just applied).
   */
  public static void installRuntimes(Lab lab, LabBinaries binaries, LabProcess validator) throws IOException {
    try (Stream<Path> files = Files.list(binaries.data().resolve("upstream/runtimes"))) {
      for (Path file : files.sorted().toList()) {
        Lab.await("the runtimes of " + file.getFileName() + " admitted", validator, () -> {
          try (InputStream in = Files.newInputStream(file)) {
            lab.admin().load(in).serverSideApply();
            return true;
          } catch (KubernetesClientException notYet) {
            return false;
          }
        });
      }
    }
  }

  /** The controller manager's process. */
  public LabProcess process() {
    return process;
  }

  /** The port of its webhook server on 127.0.0.1. */
  public int webhookPort() {
    return webhookPort;
  }

  /** Its Prometheus metrics, over plain HTTP on 127.0.0.1. */
  public URI metrics() {
    return URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
  }

  @Override
  public void close() throws InterruptedException {
    process.close();
  }
}
