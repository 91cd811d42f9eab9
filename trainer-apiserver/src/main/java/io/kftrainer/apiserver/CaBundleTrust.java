package io.kftrainer.apiserver;

import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS trust for one webhook call, as the API server sets it up: the server's chain must lead to a certificate of
 * the webhook's {@code caBundle} (and nothing else: not the JVM's default roots), and its leaf must be issued for
 * {@code serverName}, which is the Service's DNS name {@code <service>.<namespace>.svc} for a {@code service}
 * reference and the URL's host for a {@code url}, whatever address the call actually goes to.
 *
 * <p>Differs from the API server in one case: an empty {@code caBundle} trusts nothing here, where the API server
 * falls back to its system roots; a webhook served with a self-signed certificate fails either way.
 *
 * <p>Used by local mode's webhook calls and by the tests that play the API server.
 */
public final class CaBundleTrust {

  private CaBundleTrust() {
  }

  /**
   * A TLS context trusting only the certificates of {@code caBundle} (base64 of PEM, as in a webhook
   * configuration) for {@code serverName}.
   *
   * @throws GeneralSecurityException if {@code caBundle} is not base64-encoded PEM certificates
   */
  public static SSLContext sslContext(String caBundle, String serverName) throws GeneralSecurityException {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {new BundleTrustManager(anchors(caBundle), serverName)}, null);
    return context;
  }

  private static X509TrustManager anchors(String caBundle) throws GeneralSecurityException {
    if (caBundle == null || caBundle.isBlank()) {
      return null;
    }
    byte[] pem;
    try {
      pem = Base64.getMimeDecoder().decode(caBundle);
    } catch (IllegalArgumentException e) {
      throw new CertificateException("caBundle is not base64: " + e.getMessage(), e);
    }
    Collection<? extends Certificate> certificates =
        CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
    if (certificates.isEmpty()) {
      return null;
    }
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException(e);
    }
    int index = 0;
    for (Certificate certificate : certificates) {
      store.setCertificateEntry("ca-" + index++, certificate);
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager");
  }

  /** Checks the chain against the bundle, then the leaf's names against the expected server name. */
  private static final class BundleTrustManager extends X509ExtendedTrustManager {

    private final X509TrustManager anchors;
    private final String serverName;

    BundleTrustManager(X509TrustManager anchors, String serverName) {
      this.anchors = anchors;
      this.serverName = serverName;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      if (anchors == null) {
        throw new CertificateException("the webhook configuration has no caBundle to verify the server with");
      }
      anchors.checkServerTrusted(chain, authType);
      verifyName(chain[0]);
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
      throw new CertificateException("client certificates are not accepted");
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
      return anchors == null ? new X509Certificate[0] : anchors.getAcceptedIssuers();
    }

    private void verifyName(X509Certificate leaf) throws CertificateException {
      List<String> names = subjectAlternativeNames(leaf);
      boolean ipLiteral = isIpLiteral(serverName);
      for (String name : names) {
        if (ipLiteral ? sameAddress(name, serverName) : dnsMatches(name, serverName)) {
          return;
        }
      }
      throw new CertificateException("x509: certificate is valid for " + String.join(", ", names) + ", not "
          + serverName);
    }
  }

  /** The DNS and IP subject alternative names of {@code certificate}. */
  static List<String> subjectAlternativeNames(X509Certificate certificate) throws CertificateParsingException {
    List<String> names = new ArrayList<>();
    Collection<List<?>> entries = certificate.getSubjectAlternativeNames();
    if (entries != null) {
      for (List<?> entry : entries) {
        int type = (Integer) entry.get(0);
        if (type == 2 || type == 7) {
          names.add(String.valueOf(entry.get(1)));
        }
      }
    }
    return names;
  }

  /** Exact, case-insensitive, or a wildcard {@code *.} for exactly the leftmost label. */
  static boolean dnsMatches(String pattern, String host) {
    String p = pattern.toLowerCase(Locale.ROOT);
    String h = host.toLowerCase(Locale.ROOT);
    if (p.startsWith("*.")) {
      int dot = h.indexOf('.');
      return dot > 0 && h.substring(dot).equals(p.substring(1));
    }
    return p.equals(h);
  }

  private static boolean isIpLiteral(String host) {
    return host.contains(":") || host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
  }

  private static boolean sameAddress(String a, String b) {
    if (!isIpLiteral(a)) {
      return false;
    }
    try {
      return InetAddress.getByName(a).equals(InetAddress.getByName(b.replace("[", "").replace("]", "")));
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }
}
