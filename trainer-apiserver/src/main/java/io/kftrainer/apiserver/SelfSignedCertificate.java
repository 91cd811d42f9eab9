package io.kftrainer.apiserver;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * A throw-away TLS identity for {@link EmbeddedApiServer.Builder#https}: an EC key and a self-signed certificate
 * (its own CA, so that kubeconfigs can name it as {@code certificate-authority-data} and clients verify the server).
 *
 * @param serverContext the server's TLS context
 * @param certificate   the certificate, to trust
 */
record SelfSignedCertificate(SSLContext serverContext, X509Certificate certificate) {

  static SelfSignedCertificate create(String host) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256);
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=embedded-apiserver");
      Instant now = Instant.now();
      GeneralNames names = new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.dNSName, "localhost"),
          new GeneralName(host.matches("[0-9.]+|.*:.*") ? GeneralName.iPAddress : GeneralName.dNSName, host)});
      X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
          new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now.toEpochMilli()),
              Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(Duration.ofDays(365))), subject,
              keys.getPublic())
              .addExtension(Extension.subjectAlternativeName, false, names)
              .addExtension(Extension.basicConstraints, true, new org.bouncycastle.asn1.x509.BasicConstraints(true))
              .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      SSLContext context = SSLContext.getInstance("TLS");
      // no trust managers: the server asks for no client certificate, and the JDK's default ones read cacerts
      context.init(new KeyManager[] {new SingleKeyManager(keys.getPrivate(), certificate)}, new TrustManager[0],
          null);
      return new SelfSignedCertificate(context, certificate);
    } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
      throw new IllegalStateException("cannot create a self-signed certificate", e);
    }
  }

  /** The certificate in PEM. */
  String pem() {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + java.util.Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
              .encodeToString(certificate.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A client context that trusts this certificate only. */
  SSLContext clientContext() {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("embedded-apiserver", certificate);
      javax.net.ssl.TrustManagerFactory trustManagers =
          javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trustManagers.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot trust the self-signed certificate", e);
    }
  }
}
