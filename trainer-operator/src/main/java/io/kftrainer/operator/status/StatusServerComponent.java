package io.kftrainer.operator.status;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.OperatorContext;
import io.kftrainer.webhook.cert.WebhookCertificates;
import io.kftrainer.operator.controller.CacheObjectLookup;
import io.kftrainer.operator.metrics.StatusServerMetrics;
import io.kftrainer.statusserver.JwksTokenAuthenticator;
import io.kftrainer.statusserver.StatusServer;
import io.kftrainer.statusserver.TokenAuthenticator;
import io.kftrainer.statusserver.TokenReviewAuthenticator;
import io.kftrainer.statusserver.history.ConfigMapMetricHistory;
import java.net.InetSocketAddress;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status server in the operator process, with upstream's {@code TrainJobStatus} feature gate on
 * ({@link OperatorConfig#trainJobStatusEnabled()}; off, this component does nothing). It runs on every replica,
 * leader or not: the Service sends training code to any of them.
 *
 * <ul>
 *   <li>TLS: the webhook's certificate, through the same key manager as the webhook server, so a renewal reaches
 *       both; it must be added after the webhook server, which starts the certificates.</li>
 *   <li>Tokens: verified with the cluster's OIDC issuer and JWKS ({@link JwksTokenAuthenticator}), or with
 *       TokenReview ({@link TokenReviewAuthenticator}) where the API server's discovery document cannot be
 *       read.</li>
 *   <li>Writes: server-side apply with the operator's client; an unchanged status is compared with the
 *       controller's TrainJob cache and not written.</li>
 *   <li>The webhook certificate Secret, whose {@code ca.crt} the TrainJobStatus plugin copies into each TrainJob's
 *       {@code <trainjob>-tls-config}, is cached (that one Secret, watched by name) and served to the plugins.</li>
 *   <li>Metrics: every accepted report's into {@link OperatorContext#metricHistory()}; the TrainJobs' ConfigMaps
 *       ({@link ConfigMapMetricHistory}) are written in batches while the server runs, and once more when it
 *       stops.</li>
 *   <li>Readiness check {@value #READINESS_CHECK}: the server listens.</li>
 * </ul>
 */
public final class StatusServerComponent implements OperatorComponent {

  public static final String READINESS_CHECK = "status-server";
  private static final Logger LOG = LoggerFactory.getLogger(StatusServerComponent.class);

  private final OperatorContext context;
  private StatusServer server;
  private ConfigMapMetricHistory batches;
  private SharedIndexInformer<Secret> caSecret;

  private StatusServerComponent(OperatorContext context) {
    this.context = context;
  }

  public static OperatorComponent.Factory factory() {
    return context -> {
      StatusServerComponent component = new StatusServerComponent(context);
      if (context.config().trainJobStatusEnabled()) {
        context.readiness().register(READINESS_CHECK, component::isServing);
      }
      return component;
    };
  }

  @Override
  public String name() {
    return "status-server";
  }

  @Override
  public synchronized void start() throws Exception {
    OperatorConfig config = context.config();
    if (!config.trainJobStatusEnabled()) {
      LOG.info("The status server is off (feature gate TrainJobStatus)");
      return;
    }
    WebhookCertificates certificates = context.webhookCertificates();
    if (certificates.keyManager().current().isEmpty()) {
      throw new IllegalStateException("the status server is served with the webhook's certificate, which is not "
          + "there yet: start it after the webhook server");
    }
    watchCaSecret(config);
    if (context.metricHistory() instanceof ConfigMapMetricHistory history) {
      batches = history;
      batches.start();
    }
    server = new StatusServer(
        new StatusServer.Settings(new InetSocketAddress(config.bindAddress(), config.statusServerPort()),
            config.statusServerQps(), config.statusServerBurst()),
        certificates.keyManager().serverContext(),
        authenticator(),
        context.client(),
        (namespace, name) -> context.cluster().get(TrainJob.class, namespace, name),
        new StatusServerMetrics(context.meterRegistry()),
        context.metricHistory());
    server.start();
  }

  /** Upstream's OIDC verification; TokenReview where the API server's discovery document cannot be read. */
  private TokenAuthenticator authenticator() {
    try {
      return JwksTokenAuthenticator.discover(context.client());
    } catch (IllegalStateException e) {
      LOG.warn("Verifying the status server's tokens with TokenReview: {}", e.getMessage());
      return new TokenReviewAuthenticator(context.client());
    }
  }

  private void watchCaSecret(OperatorConfig config) {
    if (!(context.cluster() instanceof CacheObjectLookup cache)) {
      return;
    }
    String namespace = config.operatorNamespace();
    String name = config.webhook().secretName();
    caSecret = context.client().secrets().inNamespace(namespace).withName(name).inform();
    cache.registerObject(Secret.class, namespace, name,
        () -> Optional.ofNullable(caSecret.getStore().getByKey(namespace + "/" + name)));
  }

  public boolean isServing() {
    StatusServer running = server;
    return running != null && running.isServing() && (caSecret == null || caSecret.hasSynced());
  }

  /** The port listened on. */
  public int port() {
    return server.port();
  }

  @Override
  public synchronized void stop() {
    if (server != null) {
      server.close();
    }
    if (batches != null) {
      batches.close();
    }
    if (caSecret != null) {
      caSecret.close();
    }
  }
}
