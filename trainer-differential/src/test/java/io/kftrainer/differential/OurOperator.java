package io.kftrainer.differential;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabBinaries;
import io.kftrainer.lab.LabPorts;
import io.kftrainer.lab.LabProcess;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Our operator on a lab as {@code trainer.jar run} against the lab's admin kubeconfig (upstream's controller runs
 * with the same rights): our CRDs ({@code manifests/crds}), our webhook configurations ({@code manifests/base}) with
 * {@code clientConfig.url} at 127.0.0.1 and the lab's CA, the serving certificate in {@code --webhook-cert-dir}, and
 * the manager's defaults otherwise.
 */
final class OurOperator implements AutoCloseable {

  private final LabProcess process;
  private final int metricsPort;

  private OurOperator(LabProcess process, int metricsPort) {
    this.process = process;
    this.metricsPort = metricsPort;
  }

  static Path jar() {
    return Path.of(System.getProperty("differential.operatorJar",
        LabBinaries.projectDir().resolve("trainer-cli/target/trainer.jar").toString()));
  }

  static OurOperator start(Lab lab, Path work) throws Exception {
    Path manifests = LabBinaries.projectDir().resolve("manifests");
    for (String crd : List.of("trainjobs", "trainingruntimes", "clustertrainingruntimes", "optimizationjobs")) {
      lab.applyFile(manifests.resolve("crds/trainer.kubeflow.org_" + crd + ".yaml"));
    }
    for (String kind : List.of("TrainJob", "TrainingRuntime", "ClusterTrainingRuntime")) {
      lab.awaitServed("trainer.kubeflow.org/v1alpha1", kind, Duration.ofSeconds(30));
    }
    int webhookPort = LabPorts.free();
    int healthPort = LabPorts.free();
    int metricsPort = LabPorts.free();
    Path certs = work.resolve("certs");
    Lab.writeCertDir(lab.issue(List.of("127.0.0.1")), certs);
    // the JVM the image runs under the manifests' 1Gi limit: its heap sized from 1 GiB (768 MiB at most with the
    // image's -XX:MaxRAMPercentage=75, 16 MiB at first, where the host's 24 GiB made it start at 378 MiB), the serial
    // collector (the JVM's choice with less than 1792 MiB of memory; with the host's it takes G1), exit on OOM
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-XX:MaxRAM=1g", "-XX:MaxRAMPercentage=75", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError",
        "-jar", jar().toString(), "run",
        "--kubeconfig", lab.adminKubeconfig().toString(),
        "--webhook-cert-dir", certs.toString(), "--webhook-port", Integer.toString(webhookPort),
        "--health-port", Integer.toString(healthPort), "--metrics-port", Integer.toString(metricsPort),
        "--bind-address", "127.0.0.1", "--leader-elect", "false", "--plugins-dir", work.resolve("plugins")
            .toString()));
    String more = System.getProperty("differential.ourJvmOptions", "").trim();
    if (!more.isEmpty()) {
      command.addAll(1, List.of(more.split("\\s+")));
    }
    LabProcess process = LabProcess.start("trainer", command, lab.logs().resolve("trainer.log"));
    OurOperator operator = new OurOperator(process, metricsPort);
    try {
      List<HasMetadata> configurations = new ArrayList<>();
      for (String file : List.of("mutating-webhook-configuration.yaml", "validating-webhook-configuration.yaml")) {
        try (InputStream in = Files.newInputStream(manifests.resolve("base").resolve(file))) {
          configurations.addAll(lab.admin().load(in).items());
        }
      }
      lab.registerWebhooks(configurations, webhookPort);
      Lab.awaitReady("our operator", process, healthPort);
    } catch (Exception | Error e) {
      operator.close();
      throw e;
    }
    return operator;
  }

  LabProcess process() {
    return process;
  }

  /** Its Prometheus metrics, over HTTPS with the serving certificate the lab's CA issued, no authentication. */
  URI metrics() {
    return URI.create("https://127.0.0.1:" + metricsPort + "/metrics");
  }

  @Override
  public void close() throws InterruptedException {
    process.close();
  }
}
