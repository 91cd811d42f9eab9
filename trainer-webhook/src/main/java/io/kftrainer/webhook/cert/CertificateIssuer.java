package io.kftrainer.webhook.cert;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates the self-signed CA and the serving certificates it signs, with Bouncy Castle's certificate builder over
 * the JDK's own crypto providers (no provider is registered globally). Keys are ECDSA P-256, signatures
 * SHA256withECDSA.
 *
 * <p>Validity starts one hour before {@code clock}'s now, so that API servers whose clocks run a little behind
 * accept a certificate made a moment ago. A serving certificate never outlives its CA.
 */
public final class CertificateIssuer {

  /** How long a new CA is valid. */
  public static final Duration CA_VALIDITY = Duration.ofDays(3650);
  /** How long a new serving certificate is valid (at most). */
  public static final Duration SERVING_VALIDITY = Duration.ofDays(365);

  static final String CA_COMMON_NAME = "kubeflow-trainer-webhook-ca";
  private static final Duration BACKDATE = Duration.ofHours(1);
  private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";

  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public CertificateIssuer(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A new CA: its own issuer, allowed to sign leaf certificates only. */
  public CertificateAuthority newAuthority() {
    KeyPair keys = newKeyPair();
    Instant now = clock.instant();
    X500Principal subject = new X500Principal("CN=" + CA_COMMON_NAME);
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
          Date.from(now.minus(BACKDATE)), Date.from(now.plus(CA_VALIDITY)), subject, keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false,
              extensions.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(sign(builder, keys), keys.getPrivate());
    } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot create the webhook CA", e);
    }
  }

  /**
   * A serving certificate for {@code dnsNames} (the first is also its common name), signed by {@code ca}, trusted
   * through {@code caBundle} (which must contain {@code ca}'s certificate).
   */
  public ServingCertificate issue(CertificateAuthority ca, List<String> dnsNames, List<X509Certificate> caBundle) {
    if (dnsNames.isEmpty()) {
      throw new IllegalArgumentException("a serving certificate needs a DNS name");
    }
    if (!caBundle.contains(ca.certificate())) {
      throw new IllegalArgumentException("the CA bundle does not contain the issuing CA");
    }
    KeyPair keys = newKeyPair();
    Instant now = clock.instant();
    Instant notAfter = now.plus(SERVING_VALIDITY);
    Instant caNotAfter = ca.certificate().getNotAfter().toInstant();
    if (caNotAfter.isBefore(notAfter)) {
      notAfter = caNotAfter;
    }
    GeneralName[] names = dnsNames.stream().map(n -> new GeneralName(GeneralName.dNSName, n))
        .toArray(GeneralName[]::new);
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca.certificate(), serial(),
          Date.from(now.minus(BACKDATE)), Date.from(notAfter), new X500Principal("CN=" + dnsNames.get(0)),
          keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names))
          .addExtension(Extension.subjectKeyIdentifier, false,
              extensions.createSubjectKeyIdentifier(keys.getPublic()))
          .addExtension(Extension.authorityKeyIdentifier, false,
              extensions.createAuthorityKeyIdentifier(ca.certificate()));
      X509Certificate certificate = sign(builder, new KeyPair(ca.certificate().getPublicKey(), ca.key()));
      return new ServingCertificate(List.of(certificate), keys.getPrivate(), caBundle);
    } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot create the webhook serving certificate", e);
    }
  }

  private X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws OperatorCreationException, GeneralSecurityException {
    ContentSigner contentSigner = new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(signer.getPrivate());
    return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
  }

  private KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), random);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no ECDSA P-256 key generator", e);
    }
  }

  private BigInteger serial() {
    return new BigInteger(127, random).add(BigInteger.ONE);
  }
}
