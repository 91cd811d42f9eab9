package io.kftrainer.operator.command;

import ch.qos.logback.classic.spi.ThrowableProxy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.operator.app.WebhookComponent;
import io.kftrainer.operator.config.Configuration;
import io.kftrainer.operator.config.ConfigurationLoader;
import io.kftrainer.operator.config.ConfigurationValidation;
import io.kftrainer.operator.config.FeatureGates;
import io.kftrainer.operator.ops.MetricsServer;
import io.kftrainer.operator.ops.OpsServer;
import io.kftrainer.operator.status.StatusServerComponent;
import io.kftrainer.operator.ui.UiComponent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code trainer-operator run}: the operator in a cluster. Parses the options into an {@link OperatorConfig},
 * connects ({@link KubernetesClients}), starts a {@link TrainerOperator} with the webhook, health and metrics
 * servers, and runs until SIGTERM (exit 0) or a fatal stop such as the loss of leadership (exit 1, so that the
 * kubelet restarts the container as a follower).
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
    description = "Run the operator: reconcile TrainJobs in a cluster and serve the admission webhooks.",
    footer = {"",
        "--config FILE reads upstream's Configuration (config.trainer.kubeflow.org/v1alpha1, strictly: an unknown "
            + "field is an error). An option given on the command line wins over the file, and the file over the "
            + "options' defaults; --feature-gates is applied on top of the file's featureGates. The plugin options "
            + "(--plugins-dir, --plugin-config, --plugin-call-timeout, --created-condition, "
            + "--allow-plugin-load-failures) and --namespaces have no place in the file. See docs/configuration.md."})
public final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

  @Spec
  private CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Upstream's Configuration file (health, metrics, webhook, leaderElection, controller, "
          + "certManagement, clientConnection, statusServer, featureGates, tls); options given on the command line "
          + "win over it (default: none: the options' defaults, which are upstream's).")
  private Path configFile;

  @Option(names = "--feature-gates", paramLabel = "NAME=BOOLEAN,...",
      description = "Feature gates, on top of the file's featureGates: TrainJobStatus (alpha, default false); "
          + "AllAlpha and AllBeta set every gate of that stage. An unknown gate is an error.")
  private String featureGates;

  @Mixin
  private LogOptions logging = new LogOptions();

  @Mixin
  private TlsFlags tls = new TlsFlags();

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "Kubeconfig of the cluster (default: $KUBECONFIG, then ~/.kube/config, then the in-cluster "
          + "service account).")
  private Path kubeconfig;

  @Mixin
  private PluginsDirOption plugins;

  @Option(names = "--namespaces", paramLabel = "NS", split = ",",
      description = "Comma-separated namespaces whose TrainJobs to reconcile (default: all namespaces).")
  private List<String> namespaces = List.of();

  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "" + OperatorConfig.DEFAULT_WEBHOOK_PORT,
      description = "HTTPS port of the admission webhooks (default: ${DEFAULT-VALUE}).")
  private int webhookPort;

  @Option(names = "--webhook-cert-dir", paramLabel = "DIR",
      description = "Directory with tls.crt, tls.key and ca.crt for the webhook server, e.g. from cert-manager "
          + "(default: none: the operator generates a self-signed CA, keeps it in --webhook-secret-name and "
          + "injects it into its webhook configurations).")
  private Path webhookCertDir;

  @Option(names = "--webhook-secret-name", paramLabel = "NAME",
      defaultValue = OperatorConfig.DEFAULT_WEBHOOK_SECRET_NAME,
      description = "Secret in --operator-namespace holding the generated webhook certificate "
          + "(default: ${DEFAULT-VALUE}).")
  private String webhookSecretName;

  @Option(names = "--webhook-service-name", paramLabel = "NAME",
      defaultValue = OperatorConfig.DEFAULT_WEBHOOK_SERVICE_NAME,
      description = "Service in front of the webhook server; the generated certificate is for its DNS names "
          + "(default: ${DEFAULT-VALUE}).")
  private String webhookServiceName;

  @Option(names = "--operator-namespace", paramLabel = "NS",
      defaultValue = "${env:POD_NAMESPACE:-" + OperatorConfig.DEFAULT_OPERATOR_NAMESPACE + "}",
      description = "Namespace of the operator's own objects: leader-election Lease, webhook Secret "
          + "(default: $POD_NAMESPACE, else " + OperatorConfig.DEFAULT_OPERATOR_NAMESPACE + "; now: ${DEFAULT-VALUE}).")
  private String operatorNamespace;

  @Option(names = "--health-port", paramLabel = "PORT", defaultValue = "" + OperatorConfig.DEFAULT_HEALTH_PORT,
      description = "HTTP port of /healthz and /readyz (default: ${DEFAULT-VALUE}).")
  private int healthPort;

  @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "" + OperatorConfig.DEFAULT_METRICS_PORT,
      description = "Port of the Prometheus /metrics: HTTPS with the webhook's serving certificate unless the "
          + "file's metrics.secureServing is false (default: ${DEFAULT-VALUE}).")
  private int metricsPort;

  @Option(names = "--leader-elect", paramLabel = "BOOLEAN", arity = "0..1", defaultValue = "true",
      fallbackValue = "true",
      description = "Reconcile only while holding the leader-election Lease, so that replicas never reconcile at "
          + "once; --leader-elect=false turns it off (default: ${DEFAULT-VALUE}).")
  private boolean leaderElect;

  @Option(names = "--leader-election-lease-name", paramLabel = "NAME", defaultValue = OperatorConfig.DEFAULT_LEASE_NAME,
      description = "Name of the leader-election Lease in --operator-namespace (default: ${DEFAULT-VALUE}).")
  private String leaseName;

  @Option(names = "--kube-api-qps", paramLabel = "QPS", defaultValue = "50",
      description = "Sustained requests per second to the API server; 0 for no limit (default: ${DEFAULT-VALUE}).")
  private double kubeApiQps;

  @Option(names = "--kube-api-burst", paramLabel = "N", defaultValue = "" + OperatorConfig.DEFAULT_KUBE_API_BURST,
      description = "Requests to the API server allowed in a burst above --kube-api-qps, and at most in flight "
          + "(default: ${DEFAULT-VALUE}).")
  private int kubeApiBurst;

  @Option(names = "--trainjob-concurrency", paramLabel = "N",
      defaultValue = "" + OperatorConfig.DEFAULT_TRAINJOB_CONCURRENCY,
      description = "TrainJobs reconciled in parallel (default: ${DEFAULT-VALUE}).")
  private int trainJobConcurrency;

  @Option(names = "--ui-port", paramLabel = "PORT", defaultValue = "0",
      description = "HTTPS port of the web UI on --bind-address, with the webhook's certificate; each user signs "
          + "in with a bearer token of their own and sees what their RBAC allows (default: ${DEFAULT-VALUE}, off).")
  private int uiPort;

  @Option(names = "--bind-address", paramLabel = "ADDRESS", defaultValue = OperatorConfig.DEFAULT_BIND_ADDRESS,
      description = "Address the webhook, health and metrics servers listen on (default: ${DEFAULT-VALUE}, every "
          + "interface).")
  private String bindAddress;

  @Mixin
  private BehaviourOptions behaviour = new BehaviourOptions();

  /**
   * The configuration: the defaults, then the {@code --config} file, then the options given on the command line.
   *
   * @throws io.kftrainer.operator.config.ConfigurationException if the file cannot be used, naming every problem
   * @throws IllegalArgumentException if {@code --feature-gates} names an unknown gate or is malformed
   */
  public OperatorConfig config() {
    OperatorConfig config = OperatorConfig.defaults();
    FeatureGates gates = FeatureGates.defaults();
    if (configFile != null) {
      Configuration file = ConfigurationLoader.load(configFile);
      LOG.info("Read the configuration {}", configFile);
      ConfigurationValidation.warnings(file).forEach(warning -> LOG.warn("{}: {}", configFile, warning));
      config = ConfigurationMapping.apply(file, config);
      gates = gates.with(file.featureGates());
    }
    if (featureGates != null) {
      try {
        gates = gates.with(FeatureGates.parse(featureGates));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--feature-gates: " + e.getMessage(), e);
      }
    }
    config = commandLine(config);
    config = config.withStatusServer(gates.enabled(FeatureGates.TRAIN_JOB_STATUS), config.statusServerPort(),
        config.statusServerQps(), config.statusServerBurst());
    LOG.info("Feature gates: {}", gates);
    gates.enabledPreRelease().forEach(gate -> LOG.warn("Feature gate {} is on: it is not GA and may change or go "
        + "away in a future release", gate));
    return behaviour.applyTo(config);
  }

  /** {@code config} with the options of the command line: all the options without a place in the file, and those
   * with one only when given. */
  private OperatorConfig commandLine(OperatorConfig config) {
    Set<String> watched = new LinkedHashSet<>();
    namespaces.stream().map(String::trim).filter(ns -> !ns.isEmpty()).forEach(watched::add);
    config = config.withPluginsDir(plugins.pluginsDir()).withNamespaces(watched)
        .withOperatorNamespace(operatorNamespace);
    if (kubeconfig != null) {
      config = config.withKubeconfig(kubeconfig);
    }
    OperatorConfig.Webhook webhook = config.webhook();
    config = config.withWebhook(new OperatorConfig.Webhook(given("--webhook-port") ? webhookPort : webhook.port(),
        given("--webhook-cert-dir") ? Optional.of(webhookCertDir) : webhook.certDir(),
        given("--webhook-secret-name") ? webhookSecretName : webhook.secretName(),
        given("--webhook-service-name") ? webhookServiceName : webhook.serviceName()));
    if (given("--bind-address")) {
      config = config.withBindAddress(bindAddress);
    }
    if (given("--health-port")) {
      config = config.withHealthPort(healthPort).withHealth(new OperatorConfig.Health(true, config.health().host(),
          config.health().livenessPath(), config.health().readinessPath()));
    }
    if (given("--metrics-port")) {
      OperatorConfig.Metrics metrics = config.metrics();
      config = config.withMetricsPort(metricsPort).withMetrics(new OperatorConfig.Metrics(true, metrics.host(),
          metrics.secureServing(), metrics.authEnabled()));
    }
    OperatorConfig.LeaderElection election = config.leaderElection();
    config = config.withLeaderElection(new OperatorConfig.LeaderElection(
        given("--leader-elect") ? leaderElect : election.enabled(),
        given("--leader-election-lease-name") ? leaseName : election.leaseName(), election.leaseNamespace()));
    config = config.withKubeApi(given("--kube-api-qps") ? kubeApiQps : config.kubeApiQps(),
        given("--kube-api-burst") ? kubeApiBurst : config.kubeApiBurst());
    config = config.withTls(tls.applyTo(config.tls()));
    return given("--trainjob-concurrency") ? config.withTrainJobConcurrency(trainJobConcurrency) : config;
  }

  /** Whether {@code option} was given on the command line (not only defaulted). */
  private boolean given(String option) {
    ParseResult parsed = spec == null ? null : spec.commandLine().getParseResult();
    return parsed != null && parsed.hasMatchedOption(option);
  }

  @Override
  public Integer call() throws InterruptedException {
    logging.apply();
    OperatorConfig config = config();
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (KubernetesClient client = KubernetesClients.create(config, metrics)) {
      TrainerOperator.Builder builder = TrainerOperator.builder(config, client)
          .meterRegistry(metrics)
          .identity(identity())
          .plugins(plugins.load(config));
      components().forEach(builder::component);
      if (uiPort > 0) {
        builder.component(UiComponent.factory(uiPort));
      }
      TrainerOperator operator = builder.build();
      AtomicBoolean running = new AtomicBoolean(true);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        if (running.getAndSet(false)) {
          operator.stop();
          // SIGTERM is how Kubernetes stops the operator, a success: exit 0 (the JVM would exit 143, 128 + SIGTERM)
          Runtime.getRuntime().halt(0);
        }
      }, "trainer-operator-shutdown"));
      TrainerOperator.Termination termination;
      try {
        operator.start();
        termination = operator.awaitTermination();
      } catch (RuntimeException e) {
        // JOSDK wraps the reason (a Lease the RBAC does not cover) in "Error starting operator": the line names it
        LOG.error("The operator could not start: {}", StacktraceLevel.summary(new ThrowableProxy(e)), e);
        return 1;
      } finally {
        // from here on the JVM exits with the code returned: the hook, which would make it 0, is for SIGTERM only
        running.set(false);
      }
      if (termination.fatal()) {
        LOG.error("The operator stopped: {}", termination.reason());
        return 1;
      }
      return 0;
    }
  }

  /**
   * The servers that run next to the controller, in start order: health probes first (the kubelet probes the
   * process while the webhook certificate is being set up), then the admission webhooks, then the metrics, served
   * with the webhook server's certificate once it has one (as upstream's manager starts its metrics server once
   * the certificates are ready), then the status server (with feature gate TrainJobStatus), which presents the
   * webhook's certificate too.
   */
  public static List<OperatorComponent.Factory> components() {
    AtomicReference<WebhookComponent> webhook = new AtomicReference<>();
    return List.of(OpsServer.factory(),
        context -> {
          WebhookComponent component = (WebhookComponent) WebhookComponent.factory().create(context);
          webhook.set(component);
          return component;
        },
        MetricsServer.factory(() -> webhook.get().server().certificates().keyManager().serverContext()),
        StatusServerComponent.factory());
  }

  /** The pod name (HOSTNAME in a pod) plus a random part, as client-go's leader-election identities. */
  private static String identity() {
    String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElse("trainer-operator");
    return host + "_" + UUID.randomUUID();
  }
}
