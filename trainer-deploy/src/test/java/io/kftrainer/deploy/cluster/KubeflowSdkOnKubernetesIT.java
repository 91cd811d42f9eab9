package io.kftrainer.deploy.cluster;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Tools;
import io.kftrainer.deploy.image.BwrapContainer;
import io.kftrainer.deploy.image.ImageArchive;
import io.kftrainer.e2e.support.PytestSuite;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.TestAbortedException;

/**
 * The Kubeflow SDK suite (trainer-sdk-tests' pytest cases, {@link PytestSuite}) against the operator on real
 * Kubernetes: a lab of its own ({@link Lab}: kube-apiserver, the JobSet controller, kwok's nodes), the chart installed
 * with helm with {@link ChartOnKubernetesIT}'s values (in two steps, the runtimes at an upgrade), upstream's user roles ({@code manifests/user-roles}) applied,
 * the operator from the image as the chart's Deployment runs it ({@link OperatorPod}), then pytest with the lab's
 * admin kubeconfig in {@code KUBECONFIG} and {@code TRAINER_SDK_TARGET=lab}: the cases that need a TrainJob's code to
 * run (its logs, what it reports) report themselves skipped with the reason, as kwok's pods run no process; the
 * others run as against {@code local}. Each pytest case is a test of its own. Without the SDK's virtual environment,
 * the lab, bubblewrap, helm or the image, the suite reports itself skipped. The figures (the lab's start, the install,
 * pytest) are printed.
 */
class KubeflowSdkOnKubernetesIT {

  private static final String NAME = "the Kubeflow SDK suite on Kubernetes";
  private static final String NAMESPACE = "kubeflow-system";
  private static final String DEPLOYMENT = "kubeflow-trainer-controller-manager";
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
  /** The whole pytest run; each case bounds its own waits well below this. */
  private static final Duration SUITE_TIMEOUT = Duration.ofMinutes(10);

  @TestFactory
  Stream<DynamicTest> theKubeflowSdkDrivesTheOperatorOnKubernetes() throws Exception {
    Path venv = Path.of(System.getProperty("trainer.sdkVenv",
        Deploy.projectDir().resolve(".tools/sdk-venv").toString()));
    var suite = PytestSuite.find(venv, Deploy.projectDir().resolve("trainer-sdk-tests/src/test/python"));
    if (suite.value().isEmpty()) {
      return suite.skipped(NAME);
    }
    var binaries = LabBinaries.find();
    String helm;
    Path work;
    Path root;
    ImageArchive image;
    try {
      if (binaries.isEmpty()) {
        throw new TestAbortedException(LabBinaries.missingReason());
      }
      if (!BwrapContainer.available()) {
        throw new TestAbortedException(BwrapContainer.unavailableReason());
      }
      helm = Tools.helm();
      work = Deploy.workDir("kubeflow-sdk-on-kubernetes");
      root = work.resolve("rootfs");
      image = Deploy.unpackedImage(root);
    } catch (TestAbortedException missing) {
      // a skipped test, not an aborted factory: failsafe counts this one as skipped
      return Stream.of(DynamicTest.dynamicTest(NAME, () -> {
        throw missing;
      }));
    }

    long start = System.nanoTime();
    try (Lab lab = Lab.start(binaries.get(), Path.of(System.getProperty("trainer.lab.workDir", "target/lab"))
        .resolve("sdk-" + ProcessHandle.current().pid()), 2)) {
      double labReady = seconds(start);
      int healthPort = LabPorts.free();
      int webhookPort = LabPorts.free();
      // the install without the runtimes, then an upgrade with them: at the install that brings the CRDs the runtimes
      // are applied by the installer Job, whose pod the lab's kwok nodes would only pretend to run
      // (ChartOnKubernetesIT runs it); at an upgrade the kind is served and they are ordinary objects of the release
      List<String> values = List.of("--kubeconfig", lab.adminKubeconfig().toString(), "-n", NAMESPACE, "--wait",
          "--timeout", "3m",
          "--set", "webhook.url=https://127.0.0.1:" + webhookPort,
          "--set", "manager.config.webhook.host=127.0.0.1",
          "--set", "manager.config.webhook.port=" + webhookPort,
          "--set", "manager.config.health.healthProbeBindAddress=127.0.0.1:" + healthPort,
          "--set", "manager.config.metrics.bindAddress=127.0.0.1:" + LabPorts.free(),
          "--set", "manager.config.statusServer.port=" + LabPorts.free());
      helm(helm, "install", values, "--create-namespace", "--set", "runtimes.defaultEnabled=false");
      helm(helm, "upgrade", values, "--set", "runtimes.defaultEnabled=true");
      // upstream's user roles, as a platform's admin installs them (install.md#rbac): the namespace user's cases
      try (InputStream in = Files.newInputStream(Deploy.manifests().resolve("user-roles/kubeflow-trainer-roles.yaml"))) {
        for (HasMetadata role : lab.admin().load(in).items()) {
          lab.admin().resource(role).serverSideApply();
        }
      }
      for (String kind : List.of("TrainJob", "TrainingRuntime", "ClusterTrainingRuntime")) {
        lab.awaitServed("trainer.kubeflow.org/v1alpha1", kind, Duration.ofSeconds(30));
      }
      double installed = seconds(start);

      try (BwrapContainer operator = OperatorPod.start(lab, root, image.config(), NAMESPACE, DEPLOYMENT,
          "kubeflow-trainer-controller-manager-6b7f9-sdk01", work)) {
        OperatorPod.awaitReady("the operator's /readyz answers 200", operator, healthPort, READY_TIMEOUT);
        // kube-apiserver reads webhook configurations from an informer: wait until it calls ours with the CA bundle
        // the operator published (as ChartOnKubernetesIT does), so the SDK's first train() is not refused by x509
        String kubectl = Tools.kubectl();
        await("kube-apiserver calls the operator's webhooks").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(200)).until(() -> Tools.run(List.of(kubectl, "--kubeconfig",
                lab.adminKubeconfig().toString(), "create", "--dry-run=server", "-n", "default", "-f", "-"), """
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                metadata:
                  name: admitted
                spec:
                  runtimeRef:
                    name: torch-distributed
                """).exitCode() == 0);
        double operatorReady = seconds(start);

        List<DynamicTest> cases = suite.value().get().run(work.resolve("pytest"),
            Map.of("KUBECONFIG", lab.adminKubeconfig().toString(), "TRAINER_SDK_TARGET", "lab"), SUITE_TIMEOUT,
            () -> tail(operator.log(), 60) + "\n" + PytestSuite.tail(lab.logs().resolve("jobset.log"), 20));
        System.out.printf("Kubeflow SDK suite on Kubernetes %s: lab ready %.1f s, chart installed %.1f s, operator "
                + "ready and admitting %.1f s, pytest %.1f s (%d cases), in all %.1f s%n",
            lab.versions().get("kubernetes"), labReady, installed - labReady, operatorReady - installed,
            suite.value().get().seconds(), cases.size(), seconds(start));
        return cases.stream();
      }
    }
  }

  private static void helm(String helm, String command, List<String> values, String... more) throws IOException {
    List<String> args = new ArrayList<>(List.of(helm, command, "kubeflow-trainer", Deploy.chart().toString()));
    args.addAll(values);
    args.addAll(List.of(more));
    Tools.run(args, null).success();
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  private static String tail(Path log, int lines) {
    return PytestSuite.tail(log, lines);
  }
}
