package io.kftrainer.operator.app;

import java.util.List;
import org.bouncycastle.util.IPAddress;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.operator.controller.CacheObjectLookup;
import io.kftrainer.operator.metrics.AdmissionMetrics;
import io.kftrainer.operator.metrics.CertificateMetrics;
import io.kftrainer.operator.metrics.WebhookRequestMetrics;
import io.kftrainer.webhook.AdmissionHandler;
import io.kftrainer.webhook.WebhookPaths;
import io.kftrainer.webhook.WebhookServer;
import io.kftrainer.webhook.cert.GeneratedCertificates;
import io.kftrainer.webhook.cert.MountedCertificates;
import io.kftrainer.webhook.cert.RotationPolicy;
import io.kftrainer.webhook.cert.WebhookCertificates;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The admission webhook server as a component of the operator: the four webhooks over the operator's runner,
 * runtime resolver and caches, on {@code --webhook-port} of {@code --bind-address}, with the certificates
 * {@code --webhook-cert-dir} (or its absence) asks for, with the {@code tls} options; registers the readiness check
 * {@value WebhookServer#READINESS_CHECK}.
 */
public final class WebhookComponent implements OperatorComponent {

  private final WebhookServer server;

  private WebhookComponent(WebhookServer server) {
    this.server = server;
  }

  public static OperatorComponent.Factory factory() {
    return context -> create(context, Clock.systemUTC());
  }

  static WebhookComponent create(OperatorContext context, Clock clock) {
    var serialization = context.client().getKubernetesSerialization();
    Map<String, AdmissionHandler> handlers = new AdmissionMetrics(context.meterRegistry()).observe(
        WebhookPaths.handlers(context.runner(), new AdmissionRuntimeResolver(context.runtimes(), context.client()),
            context.cluster(), clock, serialization), WebhookPaths.VALIDATED_KINDS);
    WebhookServer server = new WebhookServer(
        new InetSocketAddress(context.config().bindAddress(), context.config().webhook().port()),
        context.webhookCertificates(), handlers,
        serialization, context.cluster() instanceof CacheObjectLookup cache ? cache::isSynced : () -> true,
        context.config().tls(),
        Optional.of(new WebhookRequestMetrics(context.meterRegistry(), handlers.keySet())));
    CertificateMetrics.register(context.meterRegistry(), context.webhookCertificates());
    context.readiness().register(WebhookServer.READINESS_CHECK, server::isServing);
    context.liveness().register(WebhookServer.LIVENESS_CHECK, () -> server.isAlive(clock.instant()));
    return new WebhookComponent(server);
  }

  /**
   * The certificate source {@code config} asks for: a mounted directory, or generated and kept in a Secret. The
   * operator makes one ({@link OperatorContext#webhookCertificates()}), which the status server presents too.
   */
  public static WebhookCertificates certificates(OperatorConfig config, KubernetesClient client, Clock clock) {
    OperatorConfig.Webhook webhook = config.webhook();
    if (webhook.certDir().isPresent()) {
      return new MountedCertificates(webhook.certDir().get(), MountedCertificates.DEFAULT_POLL_INTERVAL);
    }
    return new GeneratedCertificates(client, config.operatorNamespace(), webhook.secretName(), webhook.serviceName(),
        boundAddress(config.bindAddress()), clock, new RotationPolicy(), GeneratedCertificates.DEFAULT_CHECK_INTERVAL);
  }

  /**
   * The servers' address when they listen on one IP address (local mode's 127.0.0.1), which clients then call
   * directly (the status server's training code); none for every interface ({@code 0.0.0.0}, a cluster's default).
   */
  private static List<String> boundAddress(String bindAddress) {
    boolean wildcard = bindAddress.equals("0.0.0.0") || bindAddress.equals("::");
    return !wildcard && IPAddress.isValid(bindAddress) ? List.of(bindAddress) : List.of();
  }

  /** The server, for tests that talk to it. */
  public WebhookServer server() {
    return server;
  }

  @Override
  public String name() {
    return "webhook-server";
  }

  @Override
  public void start() throws Exception {
    server.start();
  }

  @Override
  public void stop() {
    server.stop();
  }
}
