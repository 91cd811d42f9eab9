package io.kftrainer.webhook.cert;


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

  /** How many times a certificate could not be read (and the one served was kept); 0 for sources that never read. */
  default long failedReads() {
    return 0;
  }
}
