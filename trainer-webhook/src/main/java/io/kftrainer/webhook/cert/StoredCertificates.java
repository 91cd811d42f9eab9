package io.kftrainer.webhook.cert;

import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The generated webhook certificates as the operator keeps them in its Secret (type {@code kubernetes.io/tls}, so
 * that tools recognise it): {@value #TLS_CRT} and {@value #TLS_KEY}, the serving certificate and key;
 * {@value #CA_CRT}, the CA bundle published as {@code caBundle}; {@value #CA_KEY}, the key of the CA that signs
 * serving certificates, so that a renewal keeps the CA and the published bundle does not change. The same four keys
 * as upstream's cert-controller.
 *
 * @param serving the serving certificate, with the CA bundle
 * @param authority the CA that signs renewals; empty if {@value #CA_KEY} is absent or matches no bundle certificate
 */
public record StoredCertificates(ServingCertificate serving, Optional<CertificateAuthority> authority) {

  public static final String SECRET_TYPE = "kubernetes.io/tls";
  public static final String TLS_CRT = "tls.crt";
  public static final String TLS_KEY = "tls.key";
  public static final String CA_CRT = "ca.crt";
  public static final String CA_KEY = "ca.key";

  public StoredCertificates {
    Objects.requireNonNull(serving, "serving");
    Objects.requireNonNull(authority, "authority");
  }

  public static StoredCertificates of(ServingCertificate serving, CertificateAuthority authority) {
    return new StoredCertificates(serving, Optional.of(authority));
  }

  /**
   * The certificates of a Secret's data.
   *
   * @throws CertificateException if {@value #TLS_CRT}, {@value #TLS_KEY} or {@value #CA_CRT} is missing or not
   *     parseable (the message names the key, never its content)
   */
  public static StoredCertificates fromSecret(Secret secret) throws CertificateException {
    Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
    List<X509Certificate> chain = Pem.certificates(decoded(data, TLS_CRT));
    PrivateKey key = Pem.privateKey(decoded(data, TLS_KEY));
    List<X509Certificate> bundle = Pem.certificates(decoded(data, CA_CRT));
    ServingCertificate serving = new ServingCertificate(chain, key, bundle);
    Optional<CertificateAuthority> authority = Optional.empty();
    if (data.containsKey(CA_KEY)) {
      PrivateKey caKey = Pem.privateKey(decoded(data, CA_KEY));
      authority = bundle.stream()
          .filter(ca -> ServingCertificate.keyPairMatches(caKey, ca.getPublicKey()))
          .findFirst()
          .map(ca -> new CertificateAuthority(ca, caKey));
    }
    return new StoredCertificates(serving, authority);
  }

  /** The Secret's {@code data}, base64-encoded as the API expects. */
  public Map<String, String> secretData() {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(TLS_CRT, encoded(serving.certificatePem()));
    data.put(TLS_KEY, encoded(serving.keyPem()));
    data.put(CA_CRT, encoded(serving.caBundlePem()));
    authority.ifPresent(ca -> data.put(CA_KEY, encoded(Pem.encode(ca.key()))));
    return data;
  }

  @Override
  public String toString() {
    return "serving " + serving + authority.map(ca -> ", CA " + ca).orElse(", no CA key");
  }

  private static String decoded(Map<String, String> data, String key) throws CertificateException {
    String value = data.get(key);
    if (value == null || value.isEmpty()) {
      throw new CertificateException(key + " is missing");
    }
    try {
      return new String(Base64.getDecoder().decode(value), StandardCharsets.US_ASCII);
    } catch (IllegalArgumentException e) {
      throw new CertificateException(key + " is not base64");
    }
  }

  private static String encoded(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
