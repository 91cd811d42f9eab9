package io.kftrainer.webhook.cert;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * A CA certificate with its private key: what signs the webhook's serving certificates. {@link #toString()} shows
 * the certificate only, never the key.
 */
public record CertificateAuthority(X509Certificate certificate, PrivateKey key) {

  public CertificateAuthority {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(key, "key");
  }

  @Override
  public String toString() {
    return ServingCertificate.describe(certificate);
  }
}
