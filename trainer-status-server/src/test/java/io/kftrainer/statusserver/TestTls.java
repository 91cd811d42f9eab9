package io.kftrainer.statusserver;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed certificate for 127.0.0.1: the server's TLS context, and a client's that trusts only it. */
record TestTls(SSLContext server, SSLContext client) {

  static TestTls create() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256);
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=status-server-test");
      Instant now = Instant.now();
      X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
          new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now.toEpochMilli()),
              Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(Duration.ofDays(1))), subject,
              keys.getPublic())
              .addExtension(Extension.subjectAlternativeName, false,
                  new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")))
              .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      char[] password = new char[0];
      KeyStore keyStore = KeyStore.getInstance("PKCS12");
      keyStore.load(null, null);
      keyStore.setKeyEntry("server", keys.getPrivate(), password, new X509Certificate[] {certificate});
      KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keyStore, password);
      SSLContext server = SSLContext.getInstance("TLS");
      server.init(keyManagers.getKeyManagers(), null, null);
      KeyStore trustStore = KeyStore.getInstance("PKCS12");
      trustStore.load(null, null);
      trustStore.setCertificateEntry("ca", certificate);
      TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trustStore);
      SSLContext client = SSLContext.getInstance("TLS");
      client.init(null, trustManagers.getTrustManagers(), null);
      return new TestTls(server, client);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create a test certificate", e);
    }
  }
}
