package io.kftrainer.webhook.cert;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The webhook server's TLS identity: its certificate, private key, and the CA bundle clients (the API server) trust
 * it through, i.e. the {@code caBundle} of the webhook configurations. {@link #toString()} and every other text
 * this class produces for logs name certificates by subject, serial, expiry and fingerprint; only
 * {@link #keyPem()} returns key material.
 *
 * @param chain the certificate the server presents, followed by intermediates if any
 * @param key the certificate's private key
 * @param caBundle the CA certificates that may have signed it (usually one; two while a new CA is phased in)
 */
public record ServingCertificate(List<X509Certificate> chain, PrivateKey key, List<X509Certificate> caBundle) {

  private static final int SAN_DNS_NAME = 2;

  public ServingCertificate {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("no certificate");
    }
    Objects.requireNonNull(key, "key");
    caBundle = List.copyOf(caBundle);
  }

  /** The certificate itself (the first of the chain). */
  public X509Certificate certificate() {
    return chain.get(0);
  }

  /** The DNS names of the certificate's subject alternative names. */
  public List<String> dnsNames() {
    return dnsNames(certificate());
  }

  public Instant notBefore() {
    return certificate().getNotBefore().toInstant();
  }

  public Instant notAfter() {
    return certificate().getNotAfter().toInstant();
  }

  /** The CA of the bundle whose key signed the certificate, if any. */
  public Optional<X509Certificate> issuer() {
    X509Certificate signed = chain.get(chain.size() - 1);
    return caBundle.stream().filter(ca -> isSignedBy(signed, ca.getPublicKey())).findFirst();
  }

  /** Whether {@link #key()} is the private key of the certificate's public key. */
  public boolean keyMatchesCertificate() {
    return keyPairMatches(key, certificate().getPublicKey());
  }

  public String certificatePem() {
    return Pem.encode(chain);
  }

  public String keyPem() {
    return Pem.encode(key);
  }

  /** The CA bundle as PEM: the webhook configurations' {@code caBundle} (before base64). */
  public String caBundlePem() {
    return Pem.encode(caBundle);
  }

  /** {@link #caBundlePem()} as bytes: fabric8 base64-encodes them into {@code caBundle}. */
  public byte[] caBundleBytes() {
    return caBundlePem().getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public String toString() {
    return describe(certificate());
  }

  /** A certificate for logs: subject, serial, validity end, SHA-256 fingerprint prefix. */
  static String describe(X509Certificate certificate) {
    return certificate.getSubjectX500Principal().getName() + " (serial " + certificate.getSerialNumber().toString(16)
        + ", valid until " + certificate.getNotAfter().toInstant() + ", sha256 " + fingerprint(certificate) + ")";
  }

  static String fingerprint(X509Certificate certificate) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (GeneralSecurityException e) {
      return "?";
    }
  }

  static List<String> dnsNames(X509Certificate certificate) {
    try {
      Collection<List<?>> names = certificate.getSubjectAlternativeNames();
      if (names == null) {
        return List.of();
      }
      return names.stream()
          .filter(name -> name.size() == 2 && Integer.valueOf(SAN_DNS_NAME).equals(name.get(0)))
          .map(name -> String.valueOf(name.get(1)))
          .toList();
    } catch (CertificateParsingException e) {
      return List.of();
    }
  }

  static boolean isSignedBy(X509Certificate certificate, PublicKey issuerKey) {
    try {
      certificate.verify(issuerKey);
      return true;
    } catch (GeneralSecurityException | RuntimeException e) {
      return false;
    }
  }

  /** Signs a random challenge with {@code key} and verifies it with {@code publicKey}. */
  static boolean keyPairMatches(PrivateKey key, PublicKey publicKey) {
    if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) {
      return false;
    }
    String algorithm = "EC".equals(key.getAlgorithm()) ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
    try {
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      return false;
    }
  }
}
