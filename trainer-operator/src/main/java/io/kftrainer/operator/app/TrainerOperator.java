package io.kftrainer.operator.app;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PluginCalls;
import io.kftrainer.operator.controller.CacheObjectLookup;
import io.kftrainer.operator.controller.CachedRuntimeResolver;
import io.kftrainer.operator.controller.CompactObjects;
import io.kftrainer.operator.controller.LegacyFinalizerReconciler;
import io.kftrainer.operator.controller.JobSetRestarts;
import io.kftrainer.operator.controller.ObjectsCreated;
import io.kftrainer.operator.controller.RetriedFailureLogFilter;
import io.kftrainer.operator.controller.ServedKinds;
import io.kftrainer.operator.controller.TrainJobEventSources;
import io.kftrainer.operator.controller.TrainJobEvents;
import io.kftrainer.operator.controller.TrainJobReconciler;
import io.kftrainer.operator.metrics.ControllerRuntimeMetrics;
import io.kftrainer.operator.metrics.LintFilters;
import io.kftrainer.operator.metrics.OperatorInfoMetrics;
import io.kftrainer.operator.metrics.PluginCallMetrics;
import io.kftrainer.operator.metrics.TrainJobLifecycleMetrics;
import io.kftrainer.operator.metrics.TrainJobStateMetrics;
import io.kftrainer.operator.optimization.OptimizationJobReconciler;
import io.kftrainer.operator.plugins.OperatorPlugins;
import io.kftrainer.statusserver.history.ConfigMapMetricHistory;
import io.kftrainer.statusserver.history.MetricHistory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator process, wired explicitly from an {@link OperatorConfig} and a {@link KubernetesClient}: the plugins
 * and their {@link PhaseRunner}, the informer caches, the TrainJob reconciler, the OptimizationJob reconciler (when
 * its CRD is installed), the Java Operator SDK {@link Operator} around them, and the {@link OperatorComponent}s next to it. {@code run} builds one with a client
 * for the cluster, {@code local} mode one with a client for its embedded API server: the same wiring.
 *
 * <p>JOSDK provides the reconcile loop: per-TrainJob serialization, {@code --trainjob-concurrency} reconciles in
 * parallel, exponential back-off after failures ({@link OperatorConfig.Timings}), generation-aware filtering of
 * TrainJob events, informers, and leader election on the Lease {@code --leader-election-lease-name} in
 * {@code --operator-namespace}. Its metrics go to the {@link MeterRegistry} given here: controller-runtime's names
 * for JOSDK's reconciles, and the {@code kubeflow_trainer_*} ones of TrainJobs, plugins and runtimes (package
 * {@code metrics}).
 *
 * <p>Termination. {@link #stop()} shuts down gracefully (components last); it is what the shutdown hook calls.
 * JOSDK would call {@code System.exit} when this process loses leadership or an informer dies; here both instead
 * stop the operator and end {@link #awaitTermination()} with a fatal {@link Termination}, and the command decides
 * the exit code. A process that lost its Lease must not go on reconciling: it stops before another leader starts.
 */
public final class TrainerOperator {

  /** How often the status server's metric history is written into the TrainJobs' ConfigMaps, on a cluster. */
  public static final Duration METRIC_HISTORY_FLUSH = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(TrainerOperator.class);

  /** Why the operator stopped. */
  public record Termination(boolean fatal, String reason) {
  }

  private final OperatorConfig config;
  private final KubernetesClient client;
  private final OperatorPlugins plugins;
  private final PhaseRunner runner;
  private final MeterRegistry meterRegistry;
  private final TrainJobLifecycleMetrics lifecycle;
  private TrainJobStateMetrics states;
  private final Clock clock;
  private final ObjectsCreated objectsCreated;
  private final JobSetRestarts.Listener restartsListener;
  private final String identity;
  private final CacheObjectLookup cache = new CacheObjectLookup();
  private final CachedRuntimeResolver runtimes;
  private final HealthChecks readiness = new HealthChecks();
  private final HealthChecks liveness = new HealthChecks();
  private final List<OperatorComponent> components = new ArrayList<>();
  private final List<OperatorComponent> started = new ArrayList<>();
  private final AtomicBoolean leader = new AtomicBoolean();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private volatile Termination termination;
  private volatile LeaseTakeover takeover;
  private Operator operator;

  private TrainerOperator(Builder builder) {
    this.config = builder.config;
    this.client = builder.client;
    this.plugins = builder.plugins != null ? builder.plugins
        : OperatorPlugins.load(config.pluginsDir(), Optional.empty(), config.statusConditions(),
            TrainJobStatusFeature.pluginSections(config));
    plugins.checkLoaded(config.allowPluginLoadFailures());
    this.meterRegistry = builder.meterRegistry != null ? builder.meterRegistry : new SimpleMeterRegistry();
    LintFilters.install(meterRegistry);
    this.runner = plugins.runner().withCalls(PluginCalls.withTimeout(config.pluginCallTimeout(),
        new PluginCallMetrics(meterRegistry)));
    this.lifecycle = new TrainJobLifecycleMetrics(meterRegistry, this::isLeader);
    this.clock = builder.clock;
    this.objectsCreated = builder.objectsCreated;
    this.restartsListener = builder.restartsListener;
    this.identity = builder.identity != null ? builder.identity : "trainer-operator_" + UUID.randomUUID();
    this.runtimes = new CachedRuntimeResolver(cache, client.getKubernetesSerialization());
    OperatorContext context = new OperatorContext(config, client, plugins, runner, cache, runtimes, meterRegistry,
        readiness, liveness, this::isLeader, WebhookComponent.certificates(config, client, clock),
        builder.metricHistory != null ? builder.metricHistory : new ConfigMapMetricHistory(client,
            (namespace, name) -> cache.get(TrainJob.class, namespace, name).map(t -> t.getMetadata().getUid()),
            METRIC_HISTORY_FLUSH,
            MetricHistory.POINTS_PER_SERIES));
    builder.componentFactories.forEach(factory -> components.add(factory.create(context)));
  }

  public static Builder builder(OperatorConfig config, KubernetesClient client) {
    return new Builder(config, client);
  }

  /**
   * Starts the components (in order, on a thread of their own) and, beside them, the controller: its informers at
   * once, its reconciles at once without leader election, else once this process holds the Lease. Returns once the
   * components have started; a component that fails stops everything and is rethrown.
   *
   * @throws IllegalStateException if a required CRD is not installed, or the operator was started before
   * @throws io.javaoperatorsdk.operator.OperatorException if the controller cannot start
   */
  public synchronized void start() {
    if (operator != null) {
      throw new IllegalStateException("the operator was started before");
    }
    TrainJobEventSources eventSources = TrainJobEventSources.plan(runner.watches(), client, cache);
    TrainJobEvents events = new TrainJobEvents(client, identity, clock);
    TrainJobReconciler reconciler = new TrainJobReconciler(runner, eventSources, cache, runtimes, client, events,
        clock, objectsCreated, (trainJob, restart, maxRestarts, failure) -> {
          lifecycle.restarted(trainJob);
          restartsListener.restarted(trainJob, restart, maxRestarts, failure);
        }, lifecycle);
    RetriedFailureLogFilter.install();
    operator = new Operator(this::configure);
    register(reconciler);
    Optional<OptimizationJobReconciler> optimizationJobs = registerOptimizationJobs(events);
    registerRuntimeControllers();
    OperatorInfoMetrics.register(meterRegistry, OperatorVersion.get());
    states = new TrainJobStateMetrics(meterRegistry, () -> cache.list(TrainJob.class, null),
        () -> optimizationJobs.map(OptimizationJobReconciler::cached).orElse(List.of()));
    states.start(TrainJobStateMetrics.DEFAULT_PERIOD);
    Operator running = operator;
    readiness.register("controller", () -> running.getRuntimeInfo().isStarted()
        && running.getRuntimeInfo().allEventSourcesAreHealthy());
    // An informer whose watch has stopped for good leaves the controller blind: a restart is the cure. One that is
    // reconnecting is unhealthy for a moment, which the probe's failure threshold (3 x 20 s in the chart) absorbs.
    liveness.register("informers", () -> !running.getRuntimeInfo().isStarted()
        || running.getRuntimeInfo().allEventSourcesAreHealthy());
    if (config.leaderElection().enabled()) {
      // client-go's leader-election gauge, which controller-runtime serves: 1 while this process holds the Lease
      Gauge.builder("leader.election.master.status", this, operator -> operator.isLeader() ? 1 : 0)
          .description("Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 "
              + "indicates master. 'name' is the string used to identify the lease. Please make sure to group by "
              + "name.")
          .tag("name", config.leaderElection().leaseName()).register(meterRegistry);
    } else {
      leader.set(true);
    }
    // The components (the webhook server, whose certificate takes the longest) and the controller's informers start
    // side by side: neither needs the other, and readiness waits for both.
    CompletableFuture<Void> components = CompletableFuture.runAsync(this::startComponents, TrainerOperator::starter);
    LOG.info("Starting the TrainJob controller as {} ({}, {} reconciles at once, leader election {})", identity,
        config.watchesAllNamespaces() ? "all namespaces" : "namespaces " + config.namespaces(),
        config.trainJobConcurrency(), config.leaderElection().enabled() ? "on" : "off");
    try {
      operator.start();
      if (config.leaderElection().enabled()) {
        takeover = new LeaseTakeover(client, config.leaseNamespace(), config.leaderElection().leaseName(), identity,
            config.timings().leaseDuration(), clock, () -> !leader.get() && !stopping.get(), this::tookReleasedLease);
        takeover.start();
        if (leader.get()) {
          takeover.close(); // the elector's first poll took the Lease
        }
      }
    } catch (RuntimeException e) {
      components.exceptionally(ignored -> null).join();
      stop();
      throw e;
    }
    try {
      components.join();
    } catch (CompletionException e) {
      stop();
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  /** Upstream's runtime controllers, which only remove a finalizer of older versions (see the reconciler). */
  private void registerRuntimeControllers() {
    operator.register(LegacyFinalizerReconciler.trainingRuntimes(client), controller -> {
      LegacyFinalizerReconciler.configure(controller, TrainerConstants.TRAINING_RUNTIME_KIND);
      if (config.watchesAllNamespaces()) {
        controller.watchingAllNamespaces();
      } else {
        controller.settingNamespaces(config.namespaces());
      }
    });
    operator.register(LegacyFinalizerReconciler.clusterTrainingRuntimes(client), controller ->
        LegacyFinalizerReconciler.configure(controller, TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND));
  }

  /**
   * The OptimizationJob controller, beside the TrainJob one and configured like it. Without the OptimizationJob CRD
   * (an installation that predates it) the operator runs without, and says so.
   */
  private Optional<OptimizationJobReconciler> registerOptimizationJobs(TrainJobEvents events) {
    if (!ServedKinds.isServed(OptimizationJob.class, client)) {
      LOG.warn("OptimizationJobs are not served (CRD optimizationjobs.trainer.kubeflow.org not installed): the "
          + "OptimizationJob controller is off");
      return Optional.empty();
    }
    OptimizationJobReconciler reconciler = new OptimizationJobReconciler(client, events, clock);
    register(reconciler);
    return Optional.of(reconciler);
  }

  /**
   * Registers a controller with the operator's settings: the configured namespaces, generation-aware events, the
   * retry back-off, the resync period, the field manager of every write, compacted cached objects.
   */
  private <R extends HasMetadata> void register(Reconciler<R> reconciler) {
    operator.register(reconciler, controller -> {
      if (config.watchesAllNamespaces()) {
        controller.watchingAllNamespaces();
      } else {
        controller.settingNamespaces(config.namespaces());
      }
      controller.withGenerationAware(true)
          .withRetry(retry())
          .withReconciliationMaxInterval(config.timings().resyncPeriod())
          .withFieldManager(TrainJobReconciler.FIELD_MANAGER)
          .withItemStore(CompactObjects.itemStore());
    });
  }

  private static void starter(Runnable startComponents) {
    Thread thread = new Thread(startComponents, "trainer-components-start");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops the controller, then the components; idempotent, and safe from any thread. */
  public void stop() {
    terminate(new Termination(false, "stopped"));
  }

  /** Blocks until the operator has stopped, by {@link #stop()} or fatally. */
  public Termination awaitTermination() throws InterruptedException {
    terminated.await();
    return termination;
  }

  /** Like {@link #awaitTermination()}, for at most {@code timeout}; empty if still running. */
  public Optional<Termination> awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit) ? Optional.of(termination) : Optional.empty();
  }

  public boolean isLeader() {
    return leader.get() && !stopping.get();
  }

  public HealthChecks readiness() {
    return readiness;
  }

  public HealthChecks liveness() {
    return liveness;
  }

  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  public PhaseRunner runner() {
    return runner;
  }

  public OperatorPlugins plugins() {
    return plugins;
  }

  /** The controller's informer caches, as plugins see them. */
  public CacheObjectLookup cache() {
    return cache;
  }

  /** This process's leader-election identity, also the {@code reportingInstance} of its Events. */
  public String identity() {
    return identity;
  }

  /** The TrainJob and OptimizationJob controllers share JOSDK's threads; runtime controllers limit themselves. */
  private int maxConcurrentReconciles(String controller) {
    return LegacyFinalizerReconciler.isRuntimeController(controller)
        ? LegacyFinalizerReconciler.MAX_CONCURRENT_RECONCILES
        : config.trainJobConcurrency();
  }

  private void configure(ConfigurationServiceOverrider overrider) {
    overrider.withKubernetesClient(client)
        .withCloseClientOnStop(false)
        .withConcurrentReconciliationThreads(config.trainJobConcurrency())
        .withMetrics(new ControllerRuntimeMetrics(meterRegistry, MicrometerMetrics.withoutPerResourceMetrics(
            meterRegistry), this::maxConcurrentReconciles, lifecycle::received))
        .withUseSSAToPatchPrimaryResource(false)
        .withStopOnInformerErrorDuringStartup(true)
        .withInformerStoppedHandler((informer, error) -> {
          if (error != null && informer.hasSynced()) {
            terminate(new Termination(true, "an informer stopped: " + error.getMessage()));
          }
        });
    if (config.leaderElection().enabled()) {
      overrider.withLeaderElectionConfiguration(leaderElection());
    }
  }

  private LeaderElectionConfiguration leaderElection() {
    OperatorConfig.Timings timings = config.timings();
    LeaderCallbacks callbacks = new LeaderCallbacks(
        this::becameLeader,
        () -> {
          leader.set(false);
          if (!stopping.get()) {
            terminate(new Termination(true, "lost the leadership of Lease " + config.leaseNamespace() + "/"
                + config.leaderElection().leaseName()));
          }
        },
        newLeader -> LOG.info("The leader is {}", newLeader));
    // exitOnStopLeading false: JOSDK would call System.exit; the callback above stops this operator instead
    return new LeaderElectionConfiguration(config.leaderElection().leaseName(), config.leaseNamespace(),
        timings.leaseDuration(), timings.renewDeadline(), timings.retryPeriod(), identity, callbacks, false);
  }

  private void becameLeader() {
    if (leader.compareAndSet(false, true)) {
      LOG.info("{} became the leader", identity);
    }
    LeaseTakeover watching = takeover;
    if (watching != null) {
      watching.close();
    }
  }

  /**
   * The Lease taken at once on its release ({@link LeaseTakeover}): the controllers start processing now rather than
   * at the elector's next poll. Under the monitor of {@link #shutDown}: a process stopping meanwhile gives it back.
   */
  private synchronized void tookReleasedLease() {
    if (stopping.get()) {
      LeaseRelease.release(client, config.leaseNamespace(), config.leaderElection().leaseName(), identity, clock);
      return;
    }
    becameLeader();
    for (RegisteredController<?> controller : operator.getRegisteredControllers()) {
      ((Controller<?>) controller).startEventProcessing();
    }
  }

  private GenericRetry retry() {
    return new GenericRetry()
        .setInitialInterval(config.timings().retryInitialInterval().toMillis())
        .setIntervalMultiplier(2)
        .setMaxInterval(config.timings().retryMaxInterval().toMillis())
        .withoutMaxAttempts();
  }

  /** Starts the components in order; the caller stops the ones {@link #started} when one fails. */
  private void startComponents() {
    for (OperatorComponent component : components) {
      try {
        LOG.info("Starting {}", component.name());
        component.start();
        started.add(component);
      } catch (Exception e) {
        throw new IllegalStateException("cannot start " + component.name() + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * Stops everything once; the first caller's reason is the termination. A fatal stop runs on a thread of its own,
   * since it is called from JOSDK's leader-election or informer threads, which stopping the operator waits for.
   */
  private void terminate(Termination reason) {
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    if (reason.fatal()) {
      LOG.error("Stopping the operator: {}", reason.reason());
      Thread stopper = new Thread(() -> shutDown(reason), "trainer-operator-stop");
      stopper.setDaemon(false);
      stopper.start();
    } else {
      shutDown(reason);
    }
  }

  private synchronized void shutDown(Termination reason) {
    boolean wasLeader = leader.get();
    if (takeover != null) {
      takeover.close();
    }
    try {
      if (operator != null) {
        operator.stop();
      }
      if (wasLeader && config.leaderElection().enabled()) {
        LeaseRelease.release(client, config.leaseNamespace(), config.leaderElection().leaseName(), identity, clock);
      }
    } catch (RuntimeException e) {
      LOG.warn("Error while stopping the controller", e);
    } finally {
      if (states != null) {
        states.close();
      }
      for (int i = started.size() - 1; i >= 0; i--) {
        stopQuietly(started.get(i));
      }
      started.clear();
      leader.set(false);
      termination = reason;
      terminated.countDown();
      LOG.info("The operator has stopped ({})", reason.reason());
    }
  }

  private static void stopQuietly(OperatorComponent component) {
    try {
      component.stop();
    } catch (RuntimeException e) {
      LOG.warn("Error while stopping {}", component.name(), e);
    }
  }

  /** Options of a {@link TrainerOperator}; only the configuration and client are required. */
  public static final class Builder {
    private final OperatorConfig config;
    private final KubernetesClient client;
    private final List<OperatorComponent.Factory> componentFactories = new ArrayList<>();
    private OperatorPlugins plugins;
    private MeterRegistry meterRegistry;
    private Clock clock = Clock.systemUTC();
    private String identity;
    private ObjectsCreated objectsCreated = ObjectsCreated.NONE;
    private JobSetRestarts.Listener restartsListener = JobSetRestarts.Listener.NONE;
    private MetricHistory metricHistory;

    private Builder(OperatorConfig config, KubernetesClient client) {
      this.config = Objects.requireNonNull(config, "config");
      this.client = Objects.requireNonNull(client, "client");
    }

    /** Where metrics go (the ops server exposes it); default a registry of its own. */
    public Builder meterRegistry(MeterRegistry registry) {
      this.meterRegistry = registry;
      return this;
    }

    /** A component to start beside the controller and stop after it, in the order added. */
    public Builder component(OperatorComponent.Factory factory) {
      componentFactories.add(Objects.requireNonNull(factory, "factory"));
      return this;
    }

    /** The leader-election identity; default {@code trainer-operator_<random>}. */
    public Builder identity(String identity) {
      this.identity = identity;
      return this;
    }

    /** The plugins; default the built-in ones plus those of {@code --plugins-dir}. */
    public Builder plugins(OperatorPlugins loaded) {
      this.plugins = loaded;
      return this;
    }

    /** Told what each reconcile created for a TrainJob ({@code local}'s progress line); default no one. */
    public Builder objectsCreated(ObjectsCreated listener) {
      this.objectsCreated = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Told of each JobSet restart the TrainJob controller reports ({@code local}'s progress line). */
    public Builder restartsListener(JobSetRestarts.Listener listener) {
      this.restartsListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Where the status server keeps the metrics reported ({@code local}'s database); default the TrainJobs'
     * ConfigMaps, written every {@link #METRIC_HISTORY_FLUSH}.
     */
    public Builder metricHistory(MetricHistory history) {
      this.metricHistory = Objects.requireNonNull(history, "history");
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Loads the plugins and wires the operator; nothing contacts the API server before {@link #start()}.
     *
     * @throws io.kftrainer.framework.runner.PluginSetupException if the plugins cannot run together
     */
    public TrainerOperator build() {
      return new TrainerOperator(this);
    }
  }
}
