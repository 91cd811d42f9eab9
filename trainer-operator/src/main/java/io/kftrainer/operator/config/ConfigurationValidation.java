package io.kftrainer.operator.config;

import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.webhook.TlsOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The checks of a defaulted {@link Configuration}, each reported as a field error with its path, all of them at
 * once. First upstream's ({@code pkg/config/validation.go}: ports, rates, concurrency, status server), in its
 * order and words; then what upstream leaves to controller-runtime and client-go to fail on at start-up (bind
 * addresses, leader-election durations, the lock type, TLS settings, feature gates, ports used twice), and one
 * safety rule of ours: {@code metrics.auth} needs {@code secureServing}, since it asks clients for bearer tokens.
 */
public final class ConfigurationValidation {

  /** client-go's {@code leaderelection.JitterFactor}: renewDeadline must exceed retryPeriod times this. */
  static final double JITTER_FACTOR = 1.2;
  /** kubebuilder's limit on the endpoint names of upstream's type. */
  private static final int MAX_ENDPOINT_NAME = 63;
  private static final int MAX_NAME = 253;
  private static final Pattern ENDPOINT_NAME = Pattern.compile("/?[A-Za-z0-9._~-]+");
  /** Group kinds of the runtime controllers, which reconcile one at a time. */
  private static final Set<String> RUNTIME_GROUP_KINDS = Set.of("TrainingRuntime.trainer.kubeflow.org",
      "ClusterTrainingRuntime.trainer.kubeflow.org");
  /** Group kinds of the controllers this operator runs; other keys of groupKindConcurrency have no effect. */
  static final Set<String> CONTROLLER_GROUP_KINDS = Stream.concat(Stream.of(Configuration.TRAINJOB_GROUP_KIND),
      RUNTIME_GROUP_KINDS.stream()).collect(Collectors.toUnmodifiableSet());

  private ConfigurationValidation() {
  }

  /** Every problem of {@code config} (defaulted), in field order; empty when it is valid. */
  public static List<FieldError> validate(Configuration config) {
    List<FieldError> errors = new ArrayList<>();
    upstreamChecks(config, errors);
    Map<String, Optional<BindAddress>> servers = new LinkedHashMap<>();
    servers.put("health.healthProbeBindAddress",
        bindAddress(FieldPath.of("health", "healthProbeBindAddress"), config.health().healthProbeBindAddress(), errors));
    servers.put("metrics.bindAddress",
        bindAddress(FieldPath.of("metrics", "bindAddress"), config.metrics().bindAddress(), errors));
    servers.put("webhook.port", Optional.of(new BindAddress(config.webhook().host().isEmpty() ? BindAddress.ANY_HOST
        : config.webhook().host(), config.webhook().port())));
    portsUsedOnce(servers, errors);
    health(config.health(), errors);
    if (config.metrics().auth().enabled() && !config.metrics().secureServing()) {
      errors.add(FieldError.invalid(FieldPath.of("metrics", "auth", "enabled"), true,
          "requires metrics.secureServing: true (clients send bearer tokens)"));
    }
    maxLength(FieldPath.of("webhook", "host"), config.webhook().host(), errors);
    leaderElection(config.leaderElection(), errors);
    maxLength(FieldPath.of("certManagement", "webhookServiceName"), config.certManagement().webhookServiceName(),
        errors);
    maxLength(FieldPath.of("certManagement", "webhookSecretName"), config.certManagement().webhookSecretName(),
        errors);
    featureGates(config.featureGates(), errors);
    tls(config.tls(), errors);
    return errors;
  }

  /**
   * What is valid but will not do what the file seems to ask, for the start-up log: concurrency for controllers
   * this operator does not run, TLS versions the JVM refuses, HTTP/2.
   */
  public static List<String> warnings(Configuration config) {
    List<String> warnings = new ArrayList<>();
    new TreeMap<>(config.controller().groupKindConcurrency()).forEach((groupKind, concurrency) -> {
      if (!CONTROLLER_GROUP_KINDS.contains(groupKind)) {
        warnings.add("controller.groupKindConcurrency[" + groupKind + "]: no controller of this operator "
            + "reconciles " + groupKind + "; ignored");
      } else if (RUNTIME_GROUP_KINDS.contains(groupKind) && concurrency != null && concurrency != 1) {
        warnings.add("controller.groupKindConcurrency[" + groupKind + "]: " + concurrency + ": runtimes are "
            + "reconciled one at a time (a reconcile only removes an older version's finalizer); 1 is used");
      }
    });
    String minVersion = config.tls().minVersion();
    if ("1.0".equals(minVersion) || "1.1".equals(minVersion)) {
      warnings.add("tls.minVersion: " + minVersion + ": the JVM refuses TLS 1.0 and 1.1 unless "
          + "jdk.tls.disabledAlgorithms allows them; the servers negotiate TLS 1.2 or later");
    }
    List<String> nextProtos = config.tls().nextProtos();
    if (nextProtos != null && nextProtos.stream().anyMatch(protocol -> !TlsOptions.HTTP_1_1.equals(protocol))) {
      warnings.add("tls.nextProtos: the servers speak " + TlsOptions.HTTP_1_1 + " only; "
          + nextProtos.stream().filter(protocol -> !TlsOptions.HTTP_1_1.equals(protocol))
          .collect(Collectors.joining(", ")) + " not served");
    }
    return warnings;
  }

  /** {@code pkg/config/validation.go}. */
  private static void upstreamChecks(Configuration config, List<FieldError> errors) {
    port(FieldPath.of("webhook", "port"), config.webhook().port(), errors);
    nonNegative(FieldPath.of("clientConnection", "qps"), config.clientConnection().qps(), errors);
    nonNegative(FieldPath.of("clientConnection", "burst"), config.clientConnection().burst(), errors);
    new TreeMap<>(config.controller().groupKindConcurrency()).forEach((groupKind, concurrency) -> {
      if (concurrency == null || concurrency < 1) {
        errors.add(FieldError.invalid(FieldPath.of("controller", "groupKindConcurrency").key(groupKind), concurrency,
            "must be greater than 0"));
      }
    });
    port(FieldPath.of("statusServer", "port"), config.statusServer().port(), errors);
    nonNegative(FieldPath.of("statusServer", "qps"), config.statusServer().qps(), errors);
    nonNegative(FieldPath.of("statusServer", "burst"), config.statusServer().burst(), errors);
  }

  private static void port(FieldPath field, int port, List<FieldError> errors) {
    if (port < 1 || port > 65535) {
      errors.add(FieldError.invalid(field, port, "must be between 1 and 65535"));
    }
  }

  private static void nonNegative(FieldPath field, Number value, List<FieldError> errors) {
    if (value.doubleValue() < 0) {
      errors.add(FieldError.invalid(field, value, "must be greater than or equal to 0"));
    }
  }

  private static Optional<BindAddress> bindAddress(FieldPath field, String text, List<FieldError> errors) {
    try {
      return BindAddress.parse(text);
    } catch (IllegalArgumentException e) {
      errors.add(FieldError.invalid(field, text, e.getMessage()));
      return Optional.empty();
    }
  }

  /** Two servers on one port of one interface would fail to listen; say which fields clash. */
  private static void portsUsedOnce(Map<String, Optional<BindAddress>> servers, List<FieldError> errors) {
    List<Map.Entry<String, Optional<BindAddress>>> entries = new ArrayList<>(servers.entrySet());
    for (int i = 0; i < entries.size(); i++) {
      for (int j = 0; j < i; j++) {
        Optional<BindAddress> a = entries.get(i).getValue();
        Optional<BindAddress> b = entries.get(j).getValue();
        if (a.isPresent() && b.isPresent() && a.get().port() != 0 && a.get().port() == b.get().port()
            && sameInterface(a.get().host(), b.get().host())) {
          errors.add(FieldError.invalid(new FieldPath(entries.get(i).getKey()), a.get().port(),
              "the port is also used by " + entries.get(j).getKey()));
        }
      }
    }
  }

  private static boolean sameInterface(String a, String b) {
    return a.equals(b) || BindAddress.ANY_HOST.equals(a) || BindAddress.ANY_HOST.equals(b);
  }

  private static void health(Configuration.ControllerHealth health, List<FieldError> errors) {
    endpointName(FieldPath.of("health", "readinessEndpointName"), health.readinessEndpointName(), errors);
    endpointName(FieldPath.of("health", "livenessEndpointName"), health.livenessEndpointName(), errors);
    if (stripSlash(health.readinessEndpointName()).equals(stripSlash(health.livenessEndpointName()))) {
      errors.add(FieldError.invalid(FieldPath.of("health", "livenessEndpointName"), health.livenessEndpointName(),
          "must differ from health.readinessEndpointName"));
    }
  }

  private static void endpointName(FieldPath field, String name, List<FieldError> errors) {
    if (!ENDPOINT_NAME.matcher(name).matches() || stripSlash(name).length() > MAX_ENDPOINT_NAME) {
      errors.add(FieldError.invalid(field, name, "must be one path segment of at most " + MAX_ENDPOINT_NAME
          + " letters, digits, '-', '.', '_' or '~'"));
    }
  }

  /** {@code readyz} and {@code /readyz} name the same path. */
  public static String stripSlash(String endpointName) {
    return endpointName.startsWith("/") ? endpointName.substring(1) : endpointName;
  }

  private static void maxLength(FieldPath field, String value, List<FieldError> errors) {
    if (value.length() > MAX_NAME) {
      errors.add(FieldError.invalid(field, value, "must be no more than " + MAX_NAME + " characters"));
    }
  }

  /** What client-go's leader elector and controller-runtime would refuse at start-up. */
  private static void leaderElection(Configuration.LeaderElectionConfiguration election, List<FieldError> errors) {
    FieldPath path = new FieldPath("leaderElection");
    Optional<Duration> lease = positiveDuration(path.child("leaseDuration"), election.leaseDuration(), errors);
    Optional<Duration> renew = positiveDuration(path.child("renewDeadline"), election.renewDeadline(), errors);
    Optional<Duration> retry = positiveDuration(path.child("retryPeriod"), election.retryPeriod(), errors);
    if (lease.isPresent() && renew.isPresent() && lease.get().compareTo(renew.get()) <= 0) {
      errors.add(FieldError.invalid(path.child("leaseDuration"), election.leaseDuration(),
          "must be greater than leaderElection.renewDeadline"));
    }
    if (renew.isPresent() && retry.isPresent()
        && renew.get().toNanos() <= retry.get().toNanos() * JITTER_FACTOR) {
      errors.add(FieldError.invalid(path.child("renewDeadline"), election.renewDeadline(),
          "must be greater than leaderElection.retryPeriod times " + JITTER_FACTOR));
    }
    if (!Configuration.DEFAULT_RESOURCE_LOCK.equals(election.resourceLock())) {
      errors.add(FieldError.notSupported(path.child("resourceLock"), election.resourceLock(),
          "supported values: \"" + Configuration.DEFAULT_RESOURCE_LOCK + "\""));
    }
    maxLength(path.child("resourceName"), election.resourceName(), errors);
  }

  private static Optional<Duration> positiveDuration(FieldPath field, String text, List<FieldError> errors) {
    try {
      Duration duration = GoDurations.parse(text);
      if (duration.isNegative() || duration.isZero()) {
        errors.add(FieldError.invalid(field, text, "must be greater than zero"));
        return Optional.empty();
      }
      return Optional.of(duration);
    } catch (IllegalArgumentException e) {
      errors.add(FieldError.invalid(field, text, e.getMessage()));
      return Optional.empty();
    }
  }

  private static void featureGates(Map<String, Boolean> gates, List<FieldError> errors) {
    String known = FeatureGates.KNOWN.keySet().stream().map(name -> "\"" + name + "\"")
        .collect(Collectors.joining(", "));
    for (String unknown : FeatureGates.unknown(gates.keySet())) {
      errors.add(FieldError.notSupported(FieldPath.of("featureGates").key(unknown), unknown,
          "unknown feature gate; supported values: " + known));
    }
    new TreeMap<>(gates).forEach((name, value) -> {
      if (value == null) {
        errors.add(FieldError.required(FieldPath.of("featureGates").key(name), "must be true or false"));
      }
    });
  }

  private static void tls(Configuration.Tls tls, List<FieldError> errors) {
    FieldPath path = new FieldPath("tls");
    if (tls.minVersion() != null && !tls.minVersion().isEmpty() && !TlsOptions.VERSIONS.contains(tls.minVersion())) {
      errors.add(FieldError.notSupported(path.child("minVersion"), tls.minVersion(), "supported values: "
          + TlsOptions.VERSIONS.stream().map(version -> "\"" + version + "\"").collect(Collectors.joining(", "))));
    }
    List<String> suites = tls.cipherSuites() != null ? tls.cipherSuites() : List.of();
    for (int i = 0; i < suites.size(); i++) {
      if (suites.get(i) == null || !TlsOptions.isSupportedCipherSuite(suites.get(i))) {
        errors.add(FieldError.notSupported(path.child("cipherSuites").index(i), suites.get(i),
            "not a cipher suite this JVM supports (IANA names, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)"));
      }
    }
    List<String> protocols = tls.nextProtos() != null ? tls.nextProtos() : List.of();
    if (!protocols.isEmpty() && !protocols.contains(TlsOptions.HTTP_1_1)) {
      errors.add(FieldError.invalid(path.child("nextProtos"), protocols, "must include \"" + TlsOptions.HTTP_1_1
          + "\", the only protocol the servers speak"));
    }
  }
}
