package io.kftrainer.operator.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.operator.controller.CacheObjectLookup;
import io.kftrainer.webhook.WebhookPaths;
import io.kftrainer.webhook.WebhookServer;
import io.kftrainer.webhook.cert.GeneratedCertificates;
import io.kftrainer.webhook.cert.MountedCertificates;
import io.kftrainer.webhook.cert.RotationPolicy;
import io.kftrainer.webhook.cert.WebhookCertificates;
import java.net.InetSocketAddress;
import java.time.Clock;

/**
 * The admission webhook server as a component of the operator: the four webhooks over the operator's runner,
 * runtime resolver and caches, on {@code --webhook-port} of {@code --bind-address}, with the certificates
 * {@code --webhook-cert-dir} (or its absence) asks for; registers the readiness check
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
    WebhookServer server = new WebhookServer(
        new InetSocketAddress(context.config().bindAddress(), context.config().webhook().port()),
        certificates(context.config(), context.client(), clock),
        WebhookPaths.handlers(context.runner(), context.runtimes(), context.cluster(), clock, serialization),
        serialization, context.cluster() instanceof CacheObjectLookup cache ? cache::isSynced : () -> true);
    context.readiness().register(WebhookServer.READINESS_CHECK, server::isServing);
    return new WebhookComponent(server);
  }

  /** The certificate source {@code config} asks for: a mounted directory, or generated and kept in a Secret. */
  static WebhookCertificates certificates(OperatorConfig config, KubernetesClient client, Clock clock) {
    OperatorConfig.Webhook webhook = config.webhook();
    if (webhook.certDir().isPresent()) {
      return new MountedCertificates(webhook.certDir().get(), MountedCertificates.DEFAULT_POLL_INTERVAL);
    }
    return new GeneratedCertificates(client, config.operatorNamespace(), webhook.secretName(), webhook.serviceName(),
        clock, new RotationPolicy(), GeneratedCertificates.DEFAULT_CHECK_INTERVAL);
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
