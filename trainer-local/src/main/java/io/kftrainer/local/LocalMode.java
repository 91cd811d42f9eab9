package io.kftrainer.local;

import io.kftrainer.apiserver.WebhookDispatcher;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.apiserver.RequestFilter;
import io.kftrainer.apiserver.PodLogSource;
import io.kftrainer.executor.LocalExecutor;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.operator.plugins.OperatorPlugins;
import io.kftrainer.operator.app.TrainJobStatusFeature;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.ui.PassthroughUserApi;
import io.kftrainer.ui.UiServer;
import io.kftrainer.ui.UserApi;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code trainer-operator local}: the operator and a Kubernetes API of its own in one process, for trying the
 * operator, developing plugins and end-to-end tests without a cluster.
 *
 * <p>{@link Builder#start()} does what installing the operator into a cluster does, then runs it:
 * <ol>
 *   <li>starts an {@link EmbeddedApiServer} on 127.0.0.1 (HTTPS and the kubeconfig's token for users; this
 *       process's own clients, the operator's and the executor's, on its loopback listener);</li>
 *   <li>installs the CRDs, the namespaces {@code default} and {@value OperatorConfig#DEFAULT_OPERATOR_NAMESPACE},
 *       and the webhook configurations of {@code manifests/base} ({@link EmbeddedCluster}, shared with
 *       {@code apiserver});</li>
 *   <li>registers the {@link WebhookDispatcher}, the API server's admission webhook machinery, with the
 *       operator's webhook Service routed to the webhook server's port on 127.0.0.1 ({@link ServiceRoutes});</li>
 *   <li>installs the default ClusterTrainingRuntimes;</li>
 *   <li>builds and starts a {@link TrainerOperator} exactly as {@code run} does, with the same components (webhook
 *       server with generated certificates, health and metrics, status server), leader election off, every
 *       namespace watched, the health and metrics servers on ephemeral ports, the feature gate
 *       {@code TrainJobStatus} on (the status server on a free port of 127.0.0.1), and a client of the embedded
 *       server;</li>
 *   <li>waits until the operator's certificate manager has published its CA bundle in the webhook configurations
 *       (the webhooks are callable) and the operator is ready;</li>
 *   <li>reports TrainJob and OptimizationJob progress ({@link TrainJobProgress}, {@link OptimizationJobProgress})
 *       and runs pods ({@link LocalExecutor}, with {@link Builder#execute}): both started beside the operator, each
 *       on a thread of its own, and awaited with it;</li>
 *   <li>keeps the metrics the trainings report in its data directory ({@link SqliteMetricHistory}) and, with
 *       {@link Builder#ui}, serves the web UI on 127.0.0.1, reading with each signed-in user's own token;</li>
 *   <li>writes the kubeconfig. The server itself
 *       defaults custom resources from their CRDs' schemas and collects the children of deleted TrainJobs
 *       (ownerReferences), as kube-apiserver and its garbage collector do.</li>
 * </ol>
 *
 * <p>{@link #apply} then creates objects through the API, webhooks included ({@code --apply}).
 *
 * <p>{@link #close()} stops it all (operator, webhooks, API server). The state lives in memory only, unless a data
 * directory is given ({@link Builder#dataDir}): then the API server keeps its objects there, a later start on the
 * same directory goes on from them, and the pods an earlier run had started are {@code Failed}, as after a node's
 * reboot.
 */
public final class LocalMode implements AutoCloseable {

  /** The API server's port when none is asked for, if free (else an ephemeral port). */
  public static final int DEFAULT_PORT = 8001;
  /** The UI's port when none is asked for, if free (else an ephemeral port). */
  public static final int DEFAULT_UI_PORT = 8002;
  public static final String DEFAULT_KUBECONFIG = "trainer-local.kubeconfig";
  /** The field manager of what local mode applies: its own objects and the files of {@code --apply}. */
  public static final String FIELD_MANAGER = ClusterBootstrap.FIELD_MANAGER;
  static final String IDENTITY = "trainer-operator-local";
  private static final String LOCALHOST = OperatorConfig.LOOPBACK_ADDRESS;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(LocalMode.class);

  private final List<AutoCloseable> resources = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private EmbeddedApiServer server;
  private KubernetesClient client;
  private TrainerOperator operator;
  private OperatorConfig config;
  private Path kubeconfig;
  private List<String> runtimes = List.of();
  private SqliteMetricHistory metricHistory;
  private UiServer ui;
  // volatile: the API server reads it from its request threads to serve pod logs
  private volatile LocalExecutor executor;

  private LocalMode() {
  }

  public static Builder builder() {
    return new Builder();
  }

  private void start(Builder options) throws InterruptedException {
    long started = System.nanoTime();
    config = operatorConfig(options, webhookPort(options.webhookPort));
    // the plugins first: a jar that cannot be loaded, or plugins that cannot run together, stop local before it
    // listens on any port (the operator warns about the jars it starts without)
    OperatorPlugins plugins = OperatorPlugins.load(options.pluginsDir, options.pluginConfig,
        config.statusConditions(), TrainJobStatusFeature.pluginSections(config));
    if (!config.allowPluginLoadFailures()) {
      plugins.loadError().ifPresent(error -> {
        throw error;
      });
    }
    plugins.setupError().ifPresent(error -> {
      throw error;
    });
    SchemaWarmUp.start();
    // kubectl logs: the executor's captured output, once it runs (none with --no-execute)
    server = startServer(options, (namespace, pod, container, request) -> executor == null ? Optional.empty()
        : executor.openLog(namespace, pod, container, new LocalExecutor.LogOptions(request.follow(),
            request.tailLines(), request.sinceTime(), request.timestamps(), request.previous())));
    resources.add(server);
    client = KubernetesClients.unlimited(server.loopbackConfig(), "local");
    resources.add(client);
    LOG.info("API server listening on {} ({} ms)", server.url(), millisSince(started));
    OperatorConfig.Webhook webhook = config.webhook();
    EmbeddedCluster cluster = EmbeddedCluster.install(server, client, config.operatorNamespace(),
        webhook.serviceName(), () -> new InetSocketAddress(webhookHost(config.bindAddress()), webhook.port()));
    resources.add(cluster);
    WebhookDispatcher dispatcher = cluster.dispatcher();
    List<String> webhookConfigurations = cluster.webhookConfigurations();
    runtimes = cluster.runtimes();
    LOG.info("Installed the CRDs {}, the webhook configurations {} and the ClusterTrainingRuntimes {} ({} ms)",
        cluster.crds(), webhookConfigurations, runtimes, millisSince(started));
    CompletableFuture<LocalExecutor> executorStart = options.execute ? startExecutor(options) : null;

    // with a request filter (injected faults) the server's errors are no longer deterministic: the operator retries
    // as on a cluster
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    KubernetesClient operatorClient = KubernetesClients.create(options.requestFilter == null
        ? server.loopbackConfig() : withDefaultRetries(server.loopbackConfig()), config, metrics);
    resources.add(operatorClient);
    TrainJobProgress progress = new TrainJobProgress(options.out);
    metricHistory = SqliteMetricHistory.open(server.dataDirectory(), MetricHistory.POINTS_PER_SERIES);
    resources.add(metricHistory);
    TrainerOperator.Builder builder = TrainerOperator.builder(config, operatorClient)
        .metricHistory(metricHistory)
        .meterRegistry(metrics)
        .identity(IDENTITY)
        .plugins(plugins)
        .objectsCreated(progress::created)
        .restartsListener(progress::restarted);
    options.components.forEach(builder::component);
    operator = builder.build();
    resources.add(this::stopOperator);
    operator.start();
    List<AutoCloseable> progressWatches = Collections.synchronizedList(new ArrayList<>());
    resources.add(() -> closeInReverse(progressWatches));
    CompletableFuture<Void> progressStart = startBeside("progress-start", () -> {
      startProgress(options, progress, progressWatches);
      return null;
    });
    if (!dispatcher.awaitCallable(webhookConfigurations, READY_TIMEOUT)) {
      throw new IllegalStateException("the webhook configurations " + webhookConfigurations + " did not get a "
          + "caBundle within " + READY_TIMEOUT.toSeconds() + "s: is the webhook server among the components?");
    }
    awaitReady();
    LOG.info("The operator is ready, its webhooks on port {} ({} ms)", webhook.port(), millisSince(started));

    await(progressStart);
    if (executorStart != null) {
      executor = await(executorStart);
      LOG.info("The local executor runs pods under {} on node {} ({} ms)", options.runDir,
          executor.node().describe(), millisSince(started));
    }

    if (options.requestFilter != null) {
      options.requestFilter.enable(true);
      LOG.info("Filtering the API server's requests: {}", options.requestFilter);
    }
    if (options.uiPort.isPresent()) {
      ui = startUi(options.uiPort.get());
      resources.add(ui);
    }
    kubeconfig = server.writeKubeconfig(options.kubeconfig).toAbsolutePath();
  }

  /**
   * The web UI on 127.0.0.1: every read made with the signed-in user's own token on the API server's loopback
   * listener, so the API server's RBAC decides what each user sees.
   */
  private UiServer startUi(int port) {
    ExecutorService relayThreads = uiClientThreads();
    resources.add(relayThreads::shutdownNow);
    UserApi users = new PassthroughUserApi(URI.create(server.loopbackConfig().getMasterUrl()),
        HttpClient.newBuilder().executor(relayThreads).build());
    for (int attempt : port == 0 ? List.of(0) : List.of(port, 0)) {
      UiServer starting = new UiServer(UiServer.Settings.loopback(attempt), users, metricHistory);
      try {
        starting.start();
        return starting;
      } catch (IOException e) {
        if (attempt == 0 || !isInUse(port)) {
          throw new IllegalStateException("cannot serve the UI on " + LOCALHOST + ":" + attempt + ": " + e, e);
        }
        LOG.info("Port {} is in use: serving the UI on an ephemeral port", port);
      }
    }
    throw new IllegalStateException("unreachable");
  }

  /** The UI's client copies watches and logs to browsers on these threads, not one per stream. */
  private static ExecutorService uiClientThreads() {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(2, runnable -> {
      Thread thread = new Thread(runnable, "ui-relay-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Starts the watches that print TrainJob and OptimizationJob progress ({@link TrainJobProgress},
   * {@link OptimizationJobProgress}): a client of the API like kubectl, started beside the operator's own start.
   * The objects a reconcile created come from the operator ({@link TrainJobProgress#created}).
   */
  private void startProgress(Builder options, TrainJobProgress progress, List<AutoCloseable> watches) {
    SharedIndexInformer<TrainJob> trainJobs = client.resources(TrainJob.class).inAnyNamespace().runnableInformer(0);
    OptimizationJobProgress optimizationProgress = new OptimizationJobProgress(options.out);
    // what an earlier run left (a data directory keeps it) is summed up once, not replayed line by line
    String kept = Stream.of(progress.remember(client.resources(TrainJob.class).inAnyNamespace().list().getItems()),
            optimizationProgress.remember(client.resources(OptimizationJob.class).inAnyNamespace().list()
                .getItems()))
        .filter(summary -> !summary.isEmpty()).collect(Collectors.joining(" and "));
    if (!kept.isEmpty()) {
      options.out.accept("kept from the previous run: " + kept);
    }
    trainJobs.addEventHandler(progress);
    MetricHistoryCleanup cleanup = new MetricHistoryCleanup(metricHistory);
    trainJobs.addEventHandler(cleanup);
    watches.add(trainJobs::close);
    trainJobs.start().toCompletableFuture().join();
    cleanup.synced();
    SharedIndexInformer<OptimizationJob> optimizationJobs = client.resources(OptimizationJob.class).inAnyNamespace()
        .runnableInformer(0);
    optimizationJobs.addEventHandler(optimizationProgress);
    watches.add(optimizationJobs::close);
    optimizationJobs.start().toCompletableFuture().join();
  }

  /**
   * Starts the executor on a thread of its own, beside the operator's start, as a kubelet starts beside the control
   * plane: it is a client like any controller (its own client, no access to the operator), and much of its start is
   * waiting (its informers' lists, the bubblewrap probe).
   */
  private CompletableFuture<LocalExecutor> startExecutor(Builder options) {
    KubernetesClient executorClient = KubernetesClients.unlimited(server.loopbackConfig(), "executor");
    resources.add(executorClient);
    LocalExecutor starting = new LocalExecutor(executorClient, new LocalExecutor.Options(options.runDir,
        options.maxPods, options.out).withGpus(options.gpus));
    resources.add(starting);
    return startBeside("executor-start", starting::start);
  }

  /**
   * Runs {@code task} on a daemon thread named {@code name}. Closing local mode waits for it first (resources close
   * in reverse order), so what it started is closed only once it has returned or failed.
   */
  private <T> CompletableFuture<T> startBeside(String name, Supplier<T> task) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        result.complete(task.get());
      } catch (RuntimeException | Error e) {
        result.completeExceptionally(e);
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
    resources.add(() -> result.handle((value, failure) -> value).join());
    return result;
  }

  private static <T> T await(CompletableFuture<T> future) throws InterruptedException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    }
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static Config withDefaultRetries(Config config) {
    Config defaults = Config.empty();
    config.setRequestRetryBackoffLimit(defaults.getRequestRetryBackoffLimit());
    config.setRequestRetryBackoffInterval(defaults.getRequestRetryBackoffInterval());
    return config;
  }

  private static EmbeddedApiServer startServer(Builder options, PodLogSource podLogs) {
    int port = options.port.orElse(DEFAULT_PORT);
    EmbeddedApiServer.Builder server = EmbeddedApiServer.builder().host(LOCALHOST).podLogs(podLogs);
    options.dataDir.ifPresent(server::dataDirectory);
    if (options.requestFilter != null) {
      options.requestFilter.enable(false);
      server.requestFilter(options.requestFilter);
    }
    try {
      return server.port(port).start();
    } catch (UncheckedIOException e) {
      // cannot listen; what else fails (a data directory in use or of a newer schema) is said as it is
      if (options.port.isPresent() || !isInUse(port)) {
        throw new IllegalStateException("cannot serve the API on " + LOCALHOST + ":" + port + ": " + e.getMessage(),
            e);
      }
      LOG.info("Port {} is in use: serving the API on an ephemeral port", port);
      return server.port(0).start();
    }
  }

  private static boolean isInUse(int port) {
    try (ServerSocket probe = new ServerSocket(port, 1, java.net.InetAddress.getByName(LOCALHOST))) {
      return !probe.isBound();
    } catch (IOException e) {
      return true;
    }
  }

  /** Where the API server calls the webhook server listening on {@code bindAddress}. */
  private static String webhookHost(String bindAddress) {
    return bindAddress.equals("0.0.0.0") || bindAddress.equals("::") ? LOCALHOST : bindAddress;
  }

  /** The webhook server's port: the one asked for, or a free one for 0 (the server must know it up front). */
  private static int webhookPort(int asked) {
    return asked != 0 ? asked : freePort();
  }

  /** A port free at the time of the call, for a server that must know its port before it starts. */
  public static int freePort() {
    try (ServerSocket probe = new ServerSocket(0)) {
      return probe.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port", e);
    }
  }

  private static OperatorConfig operatorConfig(Builder options, int webhookPort) {
    OperatorConfig defaults = OperatorConfig.defaults();
    return options.configure.apply(defaults
        .withPluginsDir(options.pluginsDir)
        .withNamespaces(Set.of())
        .withLeaderElection(new OperatorConfig.LeaderElection(false, defaults.leaderElection().leaseName()))
        .withWebhook(new OperatorConfig.Webhook(webhookPort, Optional.empty(), defaults.webhook().secretName(),
            defaults.webhook().serviceName()))
        .withPorts(0, 0)
        .withBindAddress(OperatorConfig.LOOPBACK_ADDRESS)
        // on this machine only: Prometheus text over plain HTTP, as curl reads it
        .withMetrics(OperatorConfig.Metrics.plainHttp(OperatorConfig.LOOPBACK_ADDRESS))
        // the API server is in this process and serves no one else: no client-side rate limit to protect it
        .withKubeApi(0, defaults.kubeApiBurst())
        // training progress: the TrainJobStatus gate is on in local mode (upstream's default is off), on a free port
        .withTrainJobStatusEnabled(true)
        .withStatusServer(freePort(), defaults.statusServerQps(), defaults.statusServerBurst()));
  }

  private void awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!operator.readiness().isReady()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the operator is not ready after " + READY_TIMEOUT.toSeconds() + "s: "
            + operator.readiness().failing());
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  /** The executor that runs pods, if local mode runs them ({@link Builder#execute}). */
  public Optional<LocalExecutor> executor() {
    return Optional.ofNullable(executor);
  }

  /** The web UI, unless it is off ({@link Builder#ui}). */
  public Optional<UiServer> ui() {
    return Optional.ofNullable(ui);
  }

  /**
   * A link that signs a browser into the UI with the kubeconfig's token, once (as Jupyter's banner link does);
   * empty when the UI is off.
   */
  public Optional<String> uiLoginLink() {
    return ui().map(running -> running.loginLink(server.bearerToken()));
  }

  /** Every metric the trainings reported, kept beside the API server's state. */
  public MetricHistory metricHistory() {
    return metricHistory;
  }

  /** The embedded API server. */
  public EmbeddedApiServer apiServer() {
    return server;
  }

  /** A client of the embedded API server (closed with local mode). */
  public KubernetesClient client() {
    return client;
  }

  /** The base URL of the API, e.g. {@code http://127.0.0.1:8001}. */
  public String url() {
    return server.url();
  }

  /** Where the API server keeps its state; empty when it is in memory only. */
  public Optional<Path> dataDir() {
    return server.dataDirectory();
  }

  /** The kubeconfig written for kubectl, as an absolute path. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The configuration the operator runs with. */
  public OperatorConfig config() {
    return config;
  }

  public TrainerOperator operator() {
    return operator;
  }

  /** The names of the installed default ClusterTrainingRuntimes. */
  public List<String> runtimes() {
    return runtimes;
  }

  /** Blocks until the operator stops: by {@link #close()} (not fatal) or on its own (fatal). */
  public TrainerOperator.Termination awaitTermination() throws InterruptedException {
    return operator.awaitTermination();
  }

  /** Stops the operator (webhooks and ops servers with it), then the API server; idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closeInReverse(resources);
    resources.clear();
  }

  private static void closeInReverse(List<AutoCloseable> closeables) {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      try {
        closeables.get(i).close();
      } catch (Exception e) {
        LOG.warn("Error while stopping local mode", e);
      }
    }
  }

  private void stopOperator() throws InterruptedException {
    operator.stop();
    operator.awaitTermination(30, TimeUnit.SECONDS);
  }

  /** Options of local mode. */
  public static final class Builder {
    private Optional<Integer> port = Optional.empty();
    private int webhookPort;
    private Path pluginsDir = Path.of(OperatorPlugins.DEFAULT_PLUGINS_DIR);
    private Optional<Path> pluginConfig = Optional.empty();
    private Path kubeconfig = Path.of(DEFAULT_KUBECONFIG);
    private List<OperatorComponent.Factory> components = List.of();
    private UnaryOperator<OperatorConfig> configure = UnaryOperator.identity();
    private Consumer<String> out = line -> { };
    private Consumer<String> err = line -> { };
    private boolean execute;
    private Path runDir;
    private int maxPods = Runtime.getRuntime().availableProcessors();
    private List<io.kftrainer.executor.Gpu> gpus = List.of();
    private RequestFilter requestFilter;
    private Optional<Path> dataDir = Optional.empty();
    private Optional<Integer> uiPort = Optional.empty();

    private Builder() {
    }

    /**
     * Serve the web UI on 127.0.0.1: {@code port} if free ({@link #DEFAULT_UI_PORT} by {@code local}'s default),
     * else any free port; 0 for any free port. Default off.
     */
    public Builder ui(int port) {
      this.uiPort = Optional.of(port);
      return this;
    }

    /**
     * Keep the API server's state in {@code directory} (a SQLite database, created if needed, locked while local
     * runs) and start from what it holds: objects, Events, resourceVersions. Default: in memory only.
     */
    public Builder dataDir(Path directory) {
      this.dataDir = Optional.of(Objects.requireNonNull(directory, "directory"));
      return this;
    }

    /**
     * A filter in front of the API server's requests, on once local mode has started: the test fixtures' fault
     * injector ({@code --inject-faults}); default none.
     */
    public Builder requestFilter(RequestFilter filter) {
      this.requestFilter = Objects.requireNonNull(filter, "filter");
      return this;
    }

    /**
     * Run pods: JobSets become Jobs, Pods and local processes ({@link LocalExecutor}), pods' directories under
     * {@code runDir}, at most {@code maxPods} pods at once. Default off (JobSets stay as the operator made them).
     */
    public Builder execute(Path runDir, int maxPods) {
      this.execute = true;
      this.runDir = Objects.requireNonNull(runDir, "runDir");
      this.maxPods = maxPods;
      return this;
    }

    /** The GPUs the node offers pods ({@code io.kftrainer.executor.Gpu#fromOption}); default none. */
    public Builder gpus(List<io.kftrainer.executor.Gpu> value) {
      this.gpus = List.copyOf(value);
      return this;
    }

    /** The API server's port, 0 for an ephemeral one; default {@link #DEFAULT_PORT} if free, else ephemeral. */
    public Builder port(int value) {
      this.port = Optional.of(value);
      return this;
    }

    /** The webhook server's port; default 0, a free port. */
    public Builder webhookPort(int value) {
      this.webhookPort = value;
      return this;
    }

    public Builder pluginsDir(Path directory) {
      this.pluginsDir = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** The plugin configuration file ({@code --plugin-config}); default none. */
    public Builder pluginConfig(Optional<Path> file) {
      this.pluginConfig = Objects.requireNonNull(file, "file");
      return this;
    }

    /** Where to write the kubeconfig; default {@value #DEFAULT_KUBECONFIG} in the working directory. */
    public Builder kubeconfig(Path file) {
      this.kubeconfig = Objects.requireNonNull(file, "file");
      return this;
    }

    /**
     * Changes the operator's configuration after local mode's own settings (servers on loopback, leader election
     * off, every namespace).
     */
    public Builder configure(UnaryOperator<OperatorConfig> change) {
      this.configure = Objects.requireNonNull(change, "change");
      return this;
    }

    /** The components to run next to the controller: {@code run}'s. */
    public Builder components(List<OperatorComponent.Factory> factories) {
      this.components = List.copyOf(factories);
      return this;
    }

    /** Where progress lines and the outcome of {@link LocalMode#apply applied} objects go. */
    public Builder out(Consumer<String> lines) {
      this.out = Objects.requireNonNull(lines, "lines");
      return this;
    }

    /** Where the failures of {@link LocalMode#apply applied} objects go. */
    public Builder err(Consumer<String> lines) {
      this.err = Objects.requireNonNull(lines, "lines");
      return this;
    }

    /**
     * Starts everything and returns once the operator is ready.
     *
     * @throws IllegalStateException if something cannot start; what had started is stopped
     * @throws io.kftrainer.framework.runner.PluginSetupException if a plugin jar cannot be loaded (unless
     *     {@code --allow-plugin-load-failures}) or the plugins cannot run together, before anything starts
     */
    public LocalMode start() throws InterruptedException {
      LocalMode local = new LocalMode();
      try {
        local.start(this);
        return local;
      } catch (RuntimeException | Error | InterruptedException e) {
        local.close();
        throw e;
      }
    }
  }
}
