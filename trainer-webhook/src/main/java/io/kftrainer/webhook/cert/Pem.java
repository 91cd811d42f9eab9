package io.kftrainer.webhook.cert;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * PEM text of certificates and private keys, as Kubernetes TLS Secrets hold them ({@code tls.crt}, {@code tls.key},
 * {@code ca.crt}). Keys are written as PKCS#8 ({@code PRIVATE KEY}); PKCS#8, PKCS#1 ({@code RSA PRIVATE KEY}) and
 * SEC 1 ({@code EC PRIVATE KEY}) are read, since cert-manager writes either depending on its settings.
 *
 * <p>Error messages never include the text that failed to parse: it may be key material.
 */
public final class Pem {

  private static final Base64.Encoder ENCODER = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));

  private Pem() {
  }

  /** Every certificate of {@code pem}, in order. */
  public static List<X509Certificate> certificates(String pem) throws CertificateException {
    var parsed = CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    if (parsed.isEmpty()) {
      throw new CertificateException("no certificate in the PEM text");
    }
    return parsed.stream().map(X509Certificate.class::cast).toList();
  }

  /** The one private key of {@code pem}. */
  public static PrivateKey privateKey(String pem) throws CertificateException {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object object = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (object instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      if (object instanceof PEMKeyPair pair) {
        return converter.getPrivateKey(pair.getPrivateKeyInfo());
      }
      throw new CertificateException("no unencrypted private key in the PEM text"
          + (object == null ? "" : " (found " + object.getClass().getSimpleName() + ")"));
    } catch (IOException e) {
      throw new CertificateException("unreadable private key: " + e.getClass().getSimpleName());
    }
  }

  /** The certificates as concatenated {@code CERTIFICATE} blocks. */
  public static String encode(List<X509Certificate> certificates) {
    StringBuilder pem = new StringBuilder();
    for (X509Certificate certificate : certificates) {
      try {
        pem.append(block("CERTIFICATE", certificate.getEncoded()));
      } catch (CertificateException e) {
        throw new IllegalStateException("cannot encode certificate " + certificate.getSubjectX500Principal(), e);
      }
    }
    return pem.toString();
  }

  /** The key as a PKCS#8 {@code PRIVATE KEY} block. */
  public static String encode(PrivateKey key) {
    if (!"PKCS#8".equals(key.getFormat())) {
      throw new IllegalArgumentException("not a PKCS#8 key: " + key.getFormat());
    }
    return block("PRIVATE KEY", key.getEncoded());
  }

  private static String block(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + ENCODER.encodeToString(der) + "\n-----END " + type + "-----\n";
  }
}
