package io.kftrainer.operator.webhook;

import io.kftrainer.operator.cert.Pem;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * What the API server checks when it calls a webhook Service: the server's chain must verify against the
 * configuration's {@code caBundle} and nothing else, and the certificate must name the Service's host
 * {@code <svc>.<ns>.svc}. Tests connect to 127.0.0.1, so the host check is made here, against the certificate's DNS
 * names, instead of against the address dialled (which the JDK's own check would use).
 */
public final class ServiceTrust extends X509ExtendedTrustManager {

  private final X509TrustManager caBundle;
  private final String host;

  private ServiceTrust(X509TrustManager caBundle, String host) {
    this.caBundle = caBundle;
    this.host = host;
  }

  /** A TLS client context trusting only the CAs of {@code caBundlePem}, for servers named {@code host}. */
  public static SSLContext context(String caBundlePem, String host) throws GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      trusted.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
    List<X509Certificate> cas = Pem.certificates(caBundlePem);
    for (int i = 0; i < cas.size(); i++) {
      trusted.setCertificateEntry("ca-" + i, cas.get(i));
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init(trusted);
    X509TrustManager pkix = (X509TrustManager) factory.getTrustManagers()[0];
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {new ServiceTrust(pkix, host)}, null);
    return context;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    caBundle.checkServerTrusted(chain, authType);
    List<String> names = dnsNames(chain[0]);
    if (!names.contains(host)) {
      throw new CertificateException("the certificate is for " + names + ", not " + host);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("a client trust manager only");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return caBundle.getAcceptedIssuers();
  }

  private static List<String> dnsNames(X509Certificate certificate) throws CertificateException {
    var names = certificate.getSubjectAlternativeNames();
    return names == null ? List.of() : names.stream()
        .filter(name -> Integer.valueOf(2).equals(name.get(0)))
        .map(name -> String.valueOf(name.get(1)))
        .toList();
  }
}
