package io.kftrainer.operator.cert;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.operator.app.OperatorConfig;
import java.time.Clock;

/**
 * Where the admission webhook server's certificate comes from, and how it is kept current: generated and kept in
 * a Secret ({@link GeneratedCertificates}, the default) or read from a mounted directory
 * ({@link MountedCertificates}, {@code --webhook-cert-dir}). Either way the certificate is served through one
 * {@link SwappableKeyManager}, which a renewal updates in place.
 */
public interface WebhookCertificates {

  /**
   * Obtains a certificate and serves it through {@link #keyManager()}, then keeps it current in the background.
   * Returns once a certificate is served.
   *
   * @throws Exception if no usable certificate can be had; the operator then fails to start
   */
  void start() throws Exception;

  /** Stops the background work; the last certificate stays in the key manager. */
  void stop();

  SwappableKeyManager keyManager();

  /** For logs, e.g. {@code self-signed, in Secret kubeflow-system/kubeflow-trainer-webhook-cert}. */
  String description();

  /** The source {@code config} asks for. */
  static WebhookCertificates forConfig(OperatorConfig config, KubernetesClient client, Clock clock) {
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
  private static java.util.List<String> boundAddress(String bindAddress) {
    boolean wildcard = bindAddress.equals("0.0.0.0") || bindAddress.equals("::");
    return !wildcard && org.bouncycastle.util.IPAddress.isValid(bindAddress) ? java.util.List.of(bindAddress)
        : java.util.List.of();
  }
}
