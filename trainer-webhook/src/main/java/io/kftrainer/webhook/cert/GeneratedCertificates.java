package io.kftrainer.webhook.cert;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's own webhook PKI: a self-signed CA and a serving certificate for the webhook Service's DNS names
 * ({@link #dnsNames}), kept in a Secret of the operator namespace and published as the {@code caBundle} of the
 * webhook configurations ({@link CaBundleInjector}).
 *
 * <p>{@link #reconcile()} runs at start-up and then every {@code checkInterval}: it reads the Secret, lets the
 * {@link RotationPolicy} decide, writes new certificates when it says so, publishes the bundle, and serves what the
 * Secret holds. Replicas therefore share one certificate: a replica that starts while the Secret is valid reuses
 * it, and one that finds the Secret renewed by another (its next check) serves the new certificate. Writes carry
 * the Secret's {@code resourceVersion}: when two replicas renew at once, one write fails with a conflict, and that
 * replica re-reads the Secret and adopts the winner's certificate.
 *
 * <p>Order on renewal: Secret, then {@code caBundle}, then the key manager, so that the API server trusts a new
 * CA before it is presented. A serving-only renewal keeps the CA (its key is in the Secret), so the bundle does
 * not change at all.
 *
 * <p>Only certificates' subjects, serials, expiry and fingerprints are logged.
 */
public final class GeneratedCertificates implements WebhookCertificates {

  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(GeneratedCertificates.class);
  private static final Map<String, String> SECRET_LABELS = Map.of(
      "app.kubernetes.io/name", "kubeflow-trainer",
      "app.kubernetes.io/component", "webhook-certificate",
      "app.kubernetes.io/managed-by", "trainer-operator");

  private final KubernetesClient client;
  private final String namespace;
  private final String secretName;
  private final List<String> dnsNames;
  private final Clock clock;
  private final RotationPolicy policy;
  private final Duration checkInterval;
  private final CertificateIssuer issuer;
  private final CaBundleInjector injector;
  private final SwappableKeyManager keyManager = new SwappableKeyManager();
  private ScheduledExecutorService scheduler;

  /**
   * @param namespace the operator namespace, where the Secret lives (and the Service)
   * @param secretName {@code --webhook-secret-name}
   * @param serviceName {@code --webhook-service-name}: the certificate is for its DNS names
   * @param checkInterval how often the Secret is checked after start-up
   */
  public GeneratedCertificates(KubernetesClient client, String namespace, String secretName, String serviceName,
      Clock clock, RotationPolicy policy, Duration checkInterval) {
    this(client, namespace, secretName, serviceName, List.of(), clock, policy, checkInterval);
  }

  /**
   * @param addresses IP addresses the certificate also names: those the servers presenting it are reached at
   *     directly (local mode's 127.0.0.1), besides the Service
   */
  public GeneratedCertificates(KubernetesClient client, String namespace, String secretName, String serviceName,
      List<String> addresses, Clock clock, RotationPolicy policy, Duration checkInterval) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.secretName = Objects.requireNonNull(secretName, "secretName");
    List<String> names = new ArrayList<>(dnsNames(serviceName, namespace));
    names.addAll(addresses);
    this.dnsNames = List.copyOf(names);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.checkInterval = Objects.requireNonNull(checkInterval, "checkInterval");
    this.issuer = new CertificateIssuer(clock);
    this.injector = new CaBundleInjector(client, this.dnsNames);
  }

  /** The names the API server uses for a Service: {@code <svc>.<ns>.svc} and {@code <svc>.<ns>.svc.cluster.local}. */
  public static List<String> dnsNames(String serviceName, String namespace) {
    String name = serviceName + "." + namespace + ".svc";
    return List.of(name, name + ".cluster.local");
  }

  @Override
  public synchronized void start() {
    if (scheduler != null) {
      throw new IllegalStateException("already started");
    }
    reconcile();
    scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "webhook-certificates");
      thread.setDaemon(true);
      return thread;
    });
    long interval = checkInterval.toMillis();
    scheduler.scheduleWithFixedDelay(this::reconcileQuietly, interval, interval, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  @Override
  public SwappableKeyManager keyManager() {
    return keyManager;
  }

  @Override
  public String description() {
    return "self-signed, in Secret " + namespace + "/" + secretName + " for " + dnsNames;
  }

  public List<String> dnsNames() {
    return dnsNames;
  }

  /**
   * One check: makes the Secret hold valid certificates (renewing them if the policy says so), publishes their CA
   * bundle, and serves them.
   *
   * @return the certificates now served
   * @throws KubernetesClientException if the Secret or a webhook configuration cannot be read or written
   */
  public synchronized StoredCertificates reconcile() {
    Secret secret = readSecret();
    Optional<StoredCertificates> stored = parse(secret);
    RotationPolicy.Decision decision = policy.decide(stored, dnsNames, clock.instant());
    StoredCertificates current = decision.action() == RotationPolicy.Action.KEEP ? stored.orElseThrow()
        : renew(decision, stored, secret);
    List<String> written = injector.inject(current.serving().caBundleBytes());
    if (!written.isEmpty()) {
      LOG.info("Published the webhook CA bundle ({}) in {}", caNames(current.serving().caBundle()), written);
    }
    Optional<ServingCertificate> served = keyManager.current();
    if (served.isEmpty() || !served.get().certificate().equals(current.serving().certificate())) {
      keyManager.swap(current.serving());
      LOG.info("Serving webhook certificate {}", current.serving());
    }
    return current;
  }

  private void reconcileQuietly() {
    try {
      reconcile();
    } catch (RuntimeException e) {
      LOG.warn("Cannot check the webhook certificate in Secret {}/{}; retrying in {}: {}", namespace, secretName,
          checkInterval, e.getMessage());
    }
  }

  private StoredCertificates renew(RotationPolicy.Decision decision, Optional<StoredCertificates> stored,
      Secret secret) {
    StoredCertificates fresh = issue(decision, stored);
    LOG.info("Renewing the webhook certificate ({}): {}", decision.action(), decision.reason());
    try {
      write(secret, fresh);
      return fresh;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      Secret winner = readSecret();
      Optional<StoredCertificates> theirs = parse(winner);
      if (policy.decide(theirs, dnsNames, clock.instant()).action() != RotationPolicy.Action.KEEP) {
        throw e;
      }
      LOG.info("Another replica wrote Secret {}/{} first: using its certificate", namespace, secretName);
      return theirs.orElseThrow();
    }
  }

  private StoredCertificates issue(RotationPolicy.Decision decision, Optional<StoredCertificates> stored) {
    if (decision.action() == RotationPolicy.Action.RENEW_SERVING) {
      CertificateAuthority ca = stored.orElseThrow().authority().orElseThrow();
      List<X509Certificate> bundle = stored.get().serving().caBundle();
      return StoredCertificates.of(issuer.issue(ca, dnsNames, bundle), ca);
    }
    CertificateAuthority ca = issuer.newAuthority();
    List<X509Certificate> bundle = new ArrayList<>();
    bundle.add(ca.certificate());
    bundle.addAll(decision.previousCas());
    return StoredCertificates.of(issuer.issue(ca, dnsNames, bundle), ca);
  }

  private void write(Secret existing, StoredCertificates certificates) {
    if (existing == null) {
      Secret secret = new SecretBuilder()
          .withMetadata(new ObjectMeta())
          .editMetadata().withName(secretName).withNamespace(namespace).withLabels(SECRET_LABELS).endMetadata()
          .withType(StoredCertificates.SECRET_TYPE)
          .withData(certificates.secretData())
          .build();
      client.secrets().inNamespace(namespace).resource(secret).create();
      LOG.info("Created Secret {}/{}", namespace, secretName);
      return;
    }
    // Keeps the existing type (immutable), labels and other keys; the resourceVersion guards against a concurrent
    // writer.
    Secret updated = new SecretBuilder(existing).build();
    Map<String, String> data = new LinkedHashMap<>(existing.getData() == null ? Map.of() : existing.getData());
    data.putAll(certificates.secretData());
    updated.setData(data);
    client.secrets().inNamespace(namespace).resource(updated).update();
    LOG.info("Updated Secret {}/{}", namespace, secretName);
  }

  private Secret readSecret() {
    return client.secrets().inNamespace(namespace).withName(secretName).get();
  }

  private Optional<StoredCertificates> parse(Secret secret) {
    if (secret == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(StoredCertificates.fromSecret(secret));
    } catch (CertificateException e) {
      LOG.warn("Secret {}/{} holds no usable webhook certificate ({}): replacing it", namespace, secretName,
          e.getMessage());
      return Optional.empty();
    }
  }

  private static List<String> caNames(List<X509Certificate> bundle) {
    return bundle.stream().map(ServingCertificate::describe).toList();
  }
}
