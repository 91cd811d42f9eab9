package io.kftrainer.lab;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Kueue ({@code sigs.k8s.io/kueue}, built by {@code .ci/build-lab}) on a {@link Lab}, outside a cluster as its
 * Deployment would run it inside, with its TrainJob integration ({@code trainer.kubeflow.org/trainjob}) alone: its
 * CRDs; the webhooks of its own kinds and of TrainJobs from its webhook configurations, at 127.0.0.1 with the lab's
 * CA (the others' integrations are off, and a webhook without a handler would refuse every object of its kind); its
 * Configuration with internal certificate management off, no leader election, no metrics server and loopback
 * ports; {@link #close()} removes the webhook configurations. Without its certificate manager Kueue reads a metrics certificate from the fixed path
 * {@code /etc/kueue/metrics/certs} even with metrics off, so it runs under bubblewrap with a certificate of the lab's
 * CA mounted there. Stops with {@link #close()}.
 */
public final class Kueue implements AutoCloseable {

  public static final String COMMAND = "kueue";
  /** The lab's names of Kueue's webhook configurations begin so. */
  private static final String PREFIX = "kueue-";

  private final Lab lab;
  private final LabProcess process;

  private Kueue(Lab lab, LabProcess process) {
    this.lab = lab;
    this.process = process;
  }

  /** The lab's Kueue, if {@code .ci/build-lab} built it and bubblewrap is installed. */
  public static Optional<Path> binary(LabBinaries binaries) {
    Path command = binaries.command(COMMAND);
    return Files.isExecutable(command) && bubblewrap().isPresent() ? Optional.of(command) : Optional.empty();
  }

  /** Why {@link #binary} is empty: for a skipped test. */
  public static String missingReason(LabBinaries binaries) {
    return bubblewrap().isEmpty() ? "bubblewrap (bwrap) is not installed"
        : COMMAND + " is not built at " + binaries.command(COMMAND) + ": run .ci/build-lab";
  }

  /** Installs Kueue's CRDs and webhooks on {@code lab} and starts it (working directory {@code work}). */
  public static Kueue start(Lab lab, LabBinaries binaries, Path work) throws Exception {
    Path command = binary(binaries).orElseThrow(() -> new IllegalStateException(missingReason(binaries)));
    try (Stream<Path> crds = Files.list(binaries.data().resolve("kueue"))) {
      for (Path crd : crds.filter(f -> f.getFileName().toString().startsWith("kueue.x-k8s.io_")).sorted().toList()) {
        lab.applyFile(crd);
      }
    }
    for (String kind : List.of("Workload", "ClusterQueue", "LocalQueue", "ResourceFlavor", "WorkloadPriorityClass")) {
      lab.awaitServed("kueue.x-k8s.io/v1beta2", kind, Duration.ofSeconds(30));
    }
    Files.createDirectories(work);
    Lab.writeCertDir(lab.issue(List.of("127.0.0.1")), work.resolve("certs"));
    Lab.writeCertDir(lab.issue(List.of("127.0.0.1")), work.resolve("metrics-certs"));
    int webhookPort = LabPorts.free();
    int healthPort = LabPorts.free();
    Path config = work.resolve("config.yaml");
    Files.writeString(config, """
        apiVersion: config.kueue.x-k8s.io/v1beta2
        kind: Configuration
        namespace: kube-system
        health:
          healthProbeBindAddress: 127.0.0.1:%d
        metrics:
          bindAddress: "0"
        webhook:
          host: 127.0.0.1
          port: %d
          certDir: %s
        leaderElection:
          leaderElect: false
        internalCertManagement:
          enable: false
        integrations:
          frameworks:
          - "trainer.kubeflow.org/trainjob"
        """.formatted(healthPort, webhookPort, work.resolve("certs")));
    LabProcess process = LabProcess.start(COMMAND, List.of(bubblewrap().orElseThrow().toString(), "--dev-bind",
        "/", "/", "--tmpfs", "/etc", "--bind", work.resolve("metrics-certs").toString(), "/etc/kueue/metrics/certs",
        "--", command.toString(), "--config", config.toString(), "--kubeconfig", lab.adminKubeconfig().toString(),
        "--feature-gates", "VisibilityOnDemand=false", "--zap-log-level", "info"), lab.logs().resolve("kueue.log"));
    Kueue kueue = new Kueue(lab, process);
    try {
      installWebhooks(lab, binaries, webhookPort);
      Lab.awaitReady("Kueue", process, healthPort);
    } catch (Exception | Error e) {
      kueue.close();
      throw e;
    }
    return kueue;
  }

  private static void installWebhooks(Lab lab, LabBinaries binaries, int port) throws IOException {
    List<HasMetadata> configurations;
    try (InputStream in = Files.newInputStream(binaries.data().resolve("kueue/webhooks.yaml"))) {
      configurations = lab.admin().load(in).items();
    }
    for (HasMetadata configuration : configurations) {
      configuration.getMetadata().setName(PREFIX + configuration.getMetadata().getName());
      if (configuration instanceof MutatingWebhookConfiguration mutating) {
        mutating.getWebhooks().removeIf(webhook -> !served(webhook.getClientConfig().getService().getPath()));
      } else if (configuration instanceof ValidatingWebhookConfiguration validating) {
        validating.getWebhooks().removeIf(webhook -> !served(webhook.getClientConfig().getService().getPath()));
      }
    }
    lab.registerWebhooks(configurations, port);
  }

  /** The webhooks Kueue serves with only the TrainJob integration: its own kinds' and TrainJobs'. */
  private static boolean served(String path) {
    return path.contains("-kueue-x-k8s-io-") || path.contains("-trainer-kubeflow-org-");
  }

  private static Optional<Path> bubblewrap() {
    return Stream.of(System.getenv("PATH").split(":")).map(dir -> Path.of(dir, "bwrap")).filter(Files::isExecutable)
        .findFirst();
  }

  /**
   * Removes Kueue's webhook configurations, then stops it: kube-apiserver would otherwise call a webhook that is gone
   * for every TrainJob created after.
   */
  @Override
  public void close() throws InterruptedException {
    var admission = lab.admin().admissionRegistration().v1();
    admission.mutatingWebhookConfigurations().list().getItems().stream()
        .filter(c -> c.getMetadata().getName().startsWith(PREFIX))
        .forEach(c -> admission.mutatingWebhookConfigurations().resource(c).delete());
    admission.validatingWebhookConfigurations().list().getItems().stream()
        .filter(c -> c.getMetadata().getName().startsWith(PREFIX))
        .forEach(c -> admission.validatingWebhookConfigurations().resource(c).delete());
    process.close();
  }
}
