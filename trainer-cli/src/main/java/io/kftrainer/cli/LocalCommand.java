package io.kftrainer.cli;

import io.kftrainer.local.LocalMode;
import ch.qos.logback.classic.Level;
import io.kftrainer.apiserver.RequestFilter;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.operator.command.BehaviourOptions;
import io.kftrainer.operator.command.Logging;
import io.kftrainer.operator.command.PluginsDirOption;
import io.kftrainer.operator.command.RunCommand;
import io.kftrainer.operator.command.Streams;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code trainer-operator local}: the operator on an embedded Kubernetes API server ({@link LocalMode}), with the
 * same wiring and components as {@code run}. Prints how to point kubectl at it, then one line per TrainJob
 * transition, and runs until Ctrl-C or SIGTERM.
 *
 * <p>Exit codes: 0 after Ctrl-C or SIGTERM (a clean stop is the normal end: the shutdown hook stops local mode and
 * then ends the process with 0, where the JVM would report the signal), 1 when it cannot start or the operator
 * stops on its own.
 */
@Command(name = "local", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
    description = {"Run the operator on an embedded Kubernetes API server: no cluster needed.",
        "Installs the CRDs, webhook configurations and default runtimes, writes a kubeconfig for kubectl, and runs "
            + "until Ctrl-C. JobSets become Jobs, Pods and processes of this machine (images are not pulled: "
            + "commands run with this machine's tools); --no-execute leaves JobSets as the operator created them."})
public final class LocalCommand implements Callable<Integer> {

  static final String EXAMPLE = "examples/torch-trainjob.yaml";
  /** A TrainJob on a shipped runtime that runs anywhere: no Python package needed. */
  static final String INLINE_EXAMPLE = "{\"apiVersion\": \"trainer.kubeflow.org/v1alpha1\", \"kind\": \"TrainJob\", "
      + "\"metadata\": {\"name\": \"hello\"}, \"spec\": {\"runtimeRef\": {\"name\": \"torch-distributed\"}, "
      + "\"trainer\": {\"numNodes\": 1, \"command\": [\"echo\", \"hello from a TrainJob\"]}}}";
  /** The data directory's name when none is given: beside the kubeconfig, in the working directory by default. */
  static final String DEFAULT_DATA_DIR = "trainer-local-data";
  /** The pods' directory made under the system's temporary directory ({@code --ephemeral}), deleted at the end. */
  private Path temporaryRunDir;

  private final Streams streams;

  @Option(names = "--port", paramLabel = "N",
      description = "Port of the API server on 127.0.0.1; 0 for any free port (default: " + LocalMode.DEFAULT_PORT
          + " if free, else any free port).")
  private Integer port;

  @Option(names = "--ui-port", paramLabel = "N",
      description = "Port of the web UI on 127.0.0.1; 0 for any free port (default: " + LocalMode.DEFAULT_UI_PORT
          + " if free, else any free port).")
  private Integer uiPort;

  @Option(names = "--no-ui", description = "Serve no web UI.")
  private boolean noUi;

  @Option(names = "--kubeconfig-out", paramLabel = "FILE", defaultValue = LocalMode.DEFAULT_KUBECONFIG,
      description = "Where to write the kubeconfig for kubectl (default: ./${DEFAULT-VALUE}).")
  private Path kubeconfigOut;

  @Option(names = "--apply", paramLabel = "PATH", arity = "1..*",
      description = "YAML files (multi-document) or directories of objects to create once the operator is ready, "
          + "through the admission webhooks; a failing object is reported and skipped. Repeatable.")
  private List<Path> apply = new ArrayList<>();

  @Mixin
  private PluginsDirOption pluginsDir;

  @Option(names = "--webhook-port", paramLabel = "N", defaultValue = "0",
      description = "HTTPS port of the admission webhooks on --bind-address; 0 for any free port "
          + "(default: ${DEFAULT-VALUE}).")
  private int webhookPort;

  @Option(names = "--bind-address", paramLabel = "ADDRESS", defaultValue = OperatorConfig.LOOPBACK_ADDRESS,
      description = "Address the webhook, health and metrics servers listen on (default: ${DEFAULT-VALUE}, this "
          + "machine only).")
  private String bindAddress;

  @Option(names = "--metrics-port", paramLabel = "N", defaultValue = "0",
      description = "Port of the operator's Prometheus /metrics on --bind-address; 0 for any free port, which the "
          + "log line 'Serving /metrics on port N' names (default: ${DEFAULT-VALUE}).")
  private int metricsPort;

  @Option(names = "--metrics-auth",
      description = "Serve /metrics as a cluster's operator with metrics.auth.enabled: HTTPS with the webhook's "
          + "certificate (CA in the Secret kubeflow-trainer-webhook-cert), to bearer tokens this API server accepts "
          + "for users allowed get on /metrics (default: plain HTTP, no token).")
  private boolean metricsAuth;

  @Mixin
  private BehaviourOptions behaviour = new BehaviourOptions();
  @Option(names = "--no-execute", description = "Run no pods: JobSets stay as the operator created them.")
  private boolean noExecute;

  @Option(names = "--max-pods", paramLabel = "N",
      description = "The node's pods capacity: pods that run at once; the others stay Pending, reason "
          + "Unschedulable (default: twice the number of CPUs).")
  private Integer maxPods;

  @Option(names = "--gpus", paramLabel = "auto|none|N", defaultValue = "auto",
      description = "The node's nvidia.com/gpu: auto asks nvidia-smi on PATH (none without it), none offers none, "
          + "N the first N GPUs (default: ${DEFAULT-VALUE}).")
  private String gpus;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Where the state is kept across restarts: the API server's objects and Events (a SQLite "
          + "database) and the pods' directories and logs; one local at a time per directory (default: "
          + DEFAULT_DATA_DIR + " beside the kubeconfig). Delete it to start afresh.")
  private Path dataDir;

  @Option(names = "--ephemeral", description = "Keep the state in memory only: it ends with local (no --data-dir).")
  private boolean ephemeral;

  @Option(names = "--run-dir", paramLabel = "DIR",
      description = "Where pods' volumes, working directories and logs go (default: pods in the data directory; "
          + "with --ephemeral, a new directory under the system's temporary directory).")
  private Path runDir;

  @Option(names = "--inject-faults", paramLabel = "SPEC", converter = FaultsOption.class,
      description = FaultsOption.DESCRIPTION)
  private RequestFilter faults;

  @Option(names = {"-v", "--verbose"}, description = "Log at INFO level (default: warnings and errors only).")
  private boolean verbose;

  public LocalCommand(Streams streams) {
    this.streams = streams;
  }

  /**
   * Starts local mode as the options say, prints how to use it, and applies the {@code --apply} files: everything
   * {@link #call()} does before waiting for Ctrl-C.
   */
  LocalMode start() throws InterruptedException {
    long started = System.nanoTime();
    PrintWriter out = streams.out();
    PrintWriter err = streams.err();
    LocalMode.Builder builder = LocalMode.builder()
        .webhookPort(webhookPort)
        .configure(config -> behaviour.applyTo(config.withBindAddress(bindAddress).withMetricsPort(metricsPort)
            .withMetrics(new OperatorConfig.Metrics(true, bindAddress, metricsAuth, metricsAuth))))
        .pluginsDir(pluginsDir.pluginsDir())
        .pluginConfig(pluginsDir.pluginConfig())
        .kubeconfig(kubeconfigOut)
        .components(RunCommand.components())
        .out(line -> println(out, line))
        .err(line -> println(err, line));
    if (port != null) {
      builder.port(port);
    }
    if (!noUi) {
      builder.ui(uiPort != null ? uiPort : LocalMode.DEFAULT_UI_PORT);
    }
    if (faults != null) {
      builder.requestFilter(faults);
    }
    if (ephemeral && dataDir != null) {
      throw new IllegalArgumentException("--ephemeral and --data-dir exclude each other: the state is either in "
          + "memory or in a directory");
    }
    Path data = ephemeral ? null : dataDir != null ? dataDir
        : kubeconfigOut.toAbsolutePath().resolveSibling(DEFAULT_DATA_DIR);
    if (data != null) {
      builder.dataDir(data);
    }
    if (!noExecute) {
      // the GPUs first: a wrong --gpus is refused before anything is created
      List<io.kftrainer.executor.Gpu> nodeGpus = io.kftrainer.executor.Gpu.fromOption(gpus, System.getenv("PATH"));
      if (runDir == null && data == null) {
        temporaryRunDir = defaultRunDir();
      }
      builder.execute(runDir != null ? runDir : data != null ? data.resolve("pods") : temporaryRunDir,
          maxPods != null ? maxPods : 2 * Runtime.getRuntime().availableProcessors()).gpus(nodeGpus);
    }
    LocalMode local = builder.start();
    printBanner(local, (System.nanoTime() - started) / 1_000_000);
    if (!apply.isEmpty()) {
      apply(local, apply);
    }
    return local;
  }

  /**
   * Creates or updates the objects of YAML files and directories through {@code local}'s API, as {@code --apply}
   * does ({@link ManifestApplier}); each object's outcome goes to this command's output or error stream.
   *
   * @return whether every object was applied
   */
  boolean apply(LocalMode local, List<Path> paths) {
    ManifestApplier applier = new ManifestApplier(local.client(), line -> println(streams.out(), line),
        line -> println(streams.err(), line));
    return applier.apply(paths).stream().allMatch(ManifestApplier.Outcome::applied);
  }

  @Override
  public Integer call() throws InterruptedException {
    Logging.setLevel(verbose ? Level.INFO : Level.WARN);
    LocalMode local = start();
    AtomicBoolean running = new AtomicBoolean(true);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (running.getAndSet(false)) {
        stop(local);
        println(streams.out(), "Stopped.");
        Runtime.getRuntime().halt(0);
      }
    }, "trainer-local-shutdown"));
    TrainerOperator.Termination termination = local.awaitTermination();
    if (running.getAndSet(false)) {
      stop(local);
      println(streams.err(), "Error: the operator stopped: " + termination.reason());
      return 1;
    }
    return 0;
  }

  /**
   * Stops {@code local}, then deletes the pods' directory it made under the system's temporary directory for
   * {@code --ephemeral} (the pods' logs, files and Secrets end with it, as its state does); a directory the user
   * named is kept.
   */
  void stop(LocalMode local) {
    local.close();
    if (temporaryRunDir != null) {
      try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(temporaryRunDir)) {
        for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          java.nio.file.Files.deleteIfExists(path);
        }
      } catch (java.io.IOException | java.io.UncheckedIOException e) {
        println(streams.err(), "Warning: cannot delete " + temporaryRunDir + ": " + e.getMessage());
      }
    }
  }

  private static Path defaultRunDir() {
    try {
      return java.nio.file.Files.createTempDirectory("trainer-local-");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void printBanner(LocalMode local, long millis) {
    PrintWriter out = streams.out();
    out.println("Kubeflow Trainer is running locally (started in " + millis + " ms):");
    out.println("  API server   " + local.url() + " (the kubeconfig's token is cluster-admin: keep it private)");
    local.uiLoginLink().ifPresent(link ->
        out.println("  UI           " + link + " (signs one browser in, once; keep it private)"));
    out.println("  runtimes     " + String.join(", ", local.runtimes()));
    out.println("  kubeconfig   " + local.kubeconfig());
    out.println("  data         " + local.dataDir().map(d -> d + " (kept across restarts; delete it to start "
        + "afresh)").orElse("in memory only (--ephemeral)"));
    local.executor().ifPresentOrElse(
        e -> {
          out.println("  pods         run as processes of this machine, under " + e.runDir() + ", "
              + e.containment());
          out.println("  node         local: " + e.node().describe() + " (kubectl describe node local)");
        },
        () -> out.println("  pods         not run (--no-execute)"));
    out.println();
    out.println("Use it with kubectl:");
    out.println("  export KUBECONFIG=" + local.kubeconfig());
    out.println("  " + exampleCommand(Path.of("").toAbsolutePath(), checkout()));
    out.println("  kubectl get trainjobs");
    out.println();
    out.println("Or with the Kubeflow SDK (pip install kubeflow), in Python started with that KUBECONFIG:");
    out.println("  from kubeflow.trainer import TrainerClient");
    out.println("  client = TrainerClient()");
    out.println();
    out.println("TrainJob progress is shown below. Press Ctrl-C to stop" + local.dataDir()
        .map(d -> " (a later local on " + d + " goes on from here).").orElse(" (all state is in memory)."));
    out.println();
    out.flush();
  }

  /**
   * The banner's command that creates an example TrainJob: {@value #EXAMPLE} where it exists, in the working
   * directory or in the checkout this jar was built in, else a small TrainJob inline (a jar copied elsewhere).
   */
  static String exampleCommand(Path workingDir, Optional<Path> checkout) {
    if (Files.isRegularFile(workingDir.resolve(EXAMPLE))) {
      return "kubectl create -f " + EXAMPLE;
    }
    return checkout.map(root -> root.resolve(EXAMPLE)).filter(Files::isRegularFile)
        .map(example -> "kubectl create -f " + example)
        .orElse("echo '" + INLINE_EXAMPLE + "' | kubectl create -f -");
  }

  /** The checkout whose {@code trainer-cli/target} holds this jar (or its classes), if it is one. */
  private static Optional<Path> checkout() {
    try {
      Path location = Path.of(LocalCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      // trainer-cli/target/trainer.jar or trainer-cli/target/classes
      return Optional.ofNullable(location.getParent()).map(Path::getParent).map(Path::getParent);
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void println(PrintWriter writer, String line) {
    synchronized (writer) {
      writer.println(line);
      writer.flush();
    }
  }
}
