package io.kftrainer.operator.command;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.controller.ApplyFailureMessages;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The chart's runtimes installer, the Job upstream's chart runs for the same reason: at the install that brings the
 * CRDs, helm maps a release's objects with discovery read before the CRDs existed, and kube-apiserver serves a new
 * CRD's kind a moment after it marks the CRD Established, so helm cannot be the one to create the runtimes (it
 * fails with {@code no matches for kind "ClusterTrainingRuntime"} now and then). This command waits until the kind is
 * served, then applies each runtime server-side, under helm's field manager: the release's first upgrade adopts
 * them (they carry its ownership metadata) and owns their fields as if it had applied them itself.
 */
@Command(name = "install-runtimes", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
    description = "Apply the ClusterTrainingRuntimes of a directory once kube-apiserver serves their kind (the "
        + "chart's installer Job, at the install that brings the CRDs).")
public final class InstallRuntimesCommand implements Callable<Integer> {

  static final String API_VERSION = "trainer.kubeflow.org/v1alpha1";
  static final String KIND = "ClusterTrainingRuntime";
  private static final long POLL_MILLIS = 500;

  @Spec
  private CommandSpec spec;

  @Option(names = "--dir", paramLabel = "DIR", required = true,
      description = "A directory of ClusterTrainingRuntime manifests, one per *.yaml file (a mounted ConfigMap).")
  private Path dir;

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "Kubeconfig file; default: KUBECONFIG, ~/.kube/config, else the pod's service account.")
  private Path kubeconfig;

  @Option(names = "--wait-seconds", paramLabel = "SECONDS", defaultValue = "300",
      description = "How long to wait for kube-apiserver to serve the kind (default: ${DEFAULT-VALUE}).")
  private int waitSeconds;

  @Option(names = "--field-manager", paramLabel = "NAME", defaultValue = "helm",
      description = "The field manager of the apply: helm's, so that the release owns the fields (default: "
          + "${DEFAULT-VALUE}).")
  private String fieldManager;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<GenericKubernetesResource> runtimes;
    OperatorConfig config = kubeconfig == null ? OperatorConfig.defaults()
        : OperatorConfig.defaults().withKubeconfig(kubeconfig);
    Config connection = KubernetesClients.connection(config);
    // this command tries again itself, within its deadline: fabric8's own backoff (10 tries) would overrun it
    connection.setRequestRetryBackoffLimit(0);
    try (KubernetesClient client = KubernetesClients.unlimited(connection, "installer")) {
      try {
        runtimes = read(client);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        err.println("Error: " + e.getMessage());
        return CommandLine.ExitCode.USAGE;
      }
      long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
      try {
        if (!served(client, deadline, out)) {
          err.printf("Error: kube-apiserver did not serve %s %s within %d s: are the CRDs installed "
              + "(crds.enabled)?%n", API_VERSION, KIND, waitSeconds);
          return CommandLine.ExitCode.SOFTWARE;
        }
        for (GenericKubernetesResource runtime : runtimes) {
          apply(client, runtime, deadline);
          out.printf("%s %s applied%n", KIND, runtime.getMetadata().getName());
        }
      } catch (Failed failed) {
        err.println("Error: " + failed.getMessage());
        return CommandLine.ExitCode.SOFTWARE;
      }
    }
    return CommandLine.ExitCode.OK;
  }

  private List<GenericKubernetesResource> read(KubernetesClient client) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("--dir " + dir + " is not a directory");
    }
    List<GenericKubernetesResource> runtimes = new ArrayList<>();
    // a mounted ConfigMap also holds ..data and ..<timestamp> entries: only the files it names
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".yaml")
          && !f.getFileName().toString().startsWith(".")).sorted().toList()) {
        GenericKubernetesResource runtime = client.getKubernetesSerialization()
            .unmarshal(Files.readString(file), GenericKubernetesResource.class);
        if (runtime == null || !API_VERSION.equals(runtime.getApiVersion()) || !KIND.equals(runtime.getKind())
            || runtime.getMetadata() == null || runtime.getMetadata().getName() == null) {
          throw new IllegalArgumentException(file + ": not a named " + API_VERSION + " " + KIND);
        }
        runtimes.add(runtime);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
    }
    if (runtimes.isEmpty()) {
      throw new IllegalArgumentException("--dir " + dir + " holds no *.yaml file");
    }
    return runtimes;
  }

  /** Waits until discovery lists the kind: helm's mapping fails exactly where this would wait. */
  private static boolean served(KubernetesClient client, long deadline, PrintWriter out) throws InterruptedException {
    boolean said = false;
    while (true) {
      try {
        if (client.supports(API_VERSION, KIND)) {
          return true;
        }
      } catch (KubernetesClientException e) {
        if (!transientFailure(e) || System.nanoTime() > deadline) {
          throw new Failed("discovery of " + API_VERSION + " at " + client.getMasterUrl() + ": "
              + ApplyFailureMessages.causeOf(e));
        }
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      if (!said) {
        out.printf("waiting for kube-apiserver to serve %s %s%n", API_VERSION, KIND);
        said = true;
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /**
   * Applies {@code runtime}, forcing conflicts (the runtime is the chart's to define). Discovery and the API server's
   * handler are updated apart: a 404 right after the kind is served is tried again until the deadline.
   */
  private void apply(KubernetesClient client, GenericKubernetesResource runtime, long deadline)
      throws InterruptedException {
    while (true) {
      try {
        client.resource(runtime).fieldManager(fieldManager).forceConflicts().serverSideApply();
        return;
      } catch (KubernetesClientException e) {
        if (!(transientFailure(e) || e.getCode() == 404) || System.nanoTime() > deadline) {
          throw new Failed("apply " + KIND + " " + runtime.getMetadata().getName() + ": "
              + ApplyFailureMessages.causeOf(e));
        }
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** No answer (fabric8's code -1), or the API server's own trouble: worth another try. */
  private static boolean transientFailure(KubernetesClientException e) {
    return e.getCode() <= 0 || e.getCode() == 429 || e.getCode() >= 500;
  }

  /** A failure said in one line. */
  private static final class Failed extends RuntimeException {
    Failed(String message) {
      super(message, null, false, false);
    }
  }
}
