package io.kftrainer.webhook;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The {@code tls} section of upstream's Configuration, applied to every HTTPS server of the operator (webhook,
 * metrics, status server) in one place, {@link #configure} (through {@link #httpsConfigurator} for the JDK's HTTPS
 * server), as upstream's {@code tlsconfig.Apply} does for Go's servers:
 *
 * <ul>
 *   <li>{@code minVersion} ({@code 1.0} to {@code 1.3}, default {@code 1.2}, Go's default): that version and every
 *       later one. The JVM refuses TLS 1.0 and 1.1 unless {@code jdk.tls.disabledAlgorithms} is relaxed, whatever
 *       this says.</li>
 *   <li>{@code cipherSuites}: IANA names (Go's names; Go's short aliases of the ChaCha20 suites too). As in Go they
 *       restrict TLS 1.2 and below only: TLS 1.3's suites are not configurable and stay the JVM's.</li>
 *   <li>{@code nextProtos}: the JDK's HTTP server speaks HTTP/1.1 only, which is what Go's servers negotiate by
 *       default (HTTP/2 off against CVE-2023-44487); {@code h2} in the list is accepted and not served.</li>
 * </ul>
 *
 * @param minVersion {@code 1.0}, {@code 1.1}, {@code 1.2} or {@code 1.3}; empty: {@code 1.2}
 * @param cipherSuites the allowed TLS 1.2 (and below) suites; empty: the JVM's defaults
 * @param nextProtos the ALPN protocols of the file, kept to report them; only {@code http/1.1} is served
 */
public record TlsOptions(Optional<String> minVersion, List<String> cipherSuites, List<String> nextProtos) {

  /** Go's default minimum version for servers. */
  public static final String DEFAULT_MIN_VERSION = "1.2";
  public static final TlsOptions DEFAULTS = new TlsOptions(Optional.empty(), List.of(), List.of());
  public static final String HTTP_1_1 = "http/1.1";

  /** Configuration versions to JSSE protocol names. */
  static final Map<String, String> PROTOCOLS = Map.of("1.0", "TLSv1", "1.1", "TLSv1.1", "1.2", "TLSv1.2",
      "1.3", "TLSv1.3");
  /** The versions {@code minVersion} may name, oldest first. */
  public static final List<String> VERSIONS = List.of("1.0", "1.1", "1.2", "1.3");
  /** Go's legacy names of the ChaCha20 suites ({@code crypto/tls} constants without the hash). */
  private static final Map<String, String> GO_ALIASES = Map.of(
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256");

  public TlsOptions {
    Objects.requireNonNull(minVersion, "minVersion");
    cipherSuites = List.copyOf(cipherSuites);
    nextProtos = List.copyOf(nextProtos);
  }

  /** The JSSE protocols from {@code minVersion} up, newest first. */
  public String[] protocols() {
    int first = VERSIONS.indexOf(minVersion.orElse(DEFAULT_MIN_VERSION));
    List<String> protocols = new ArrayList<>();
    for (int i = VERSIONS.size() - 1; i >= Math.max(first, 0); i--) {
      protocols.add(PROTOCOLS.get(VERSIONS.get(i)));
    }
    return protocols.toArray(String[]::new);
  }

  /**
   * Sets the protocols and, when {@code cipherSuites} is given, the suites on a server's parameters: the listed
   * suites (by their JSSE names) plus {@code parameters}' TLS 1.3 suites.
   */
  public void configure(SSLParameters parameters) {
    parameters.setProtocols(protocols());
    if (!cipherSuites.isEmpty()) {
      Set<String> suites = new LinkedHashSet<>();
      cipherSuites.stream().map(TlsOptions::jsseName).forEach(suites::add);
      Arrays.stream(parameters.getCipherSuites()).filter(TlsOptions::isTls13Suite).forEach(suites::add);
      parameters.setCipherSuites(suites.toArray(String[]::new));
    }
    parameters.setApplicationProtocols(new String[] {HTTP_1_1});
  }

  /**
   * The JDK HTTPS server's configurator for a server with these options: {@link #configure} on each handshake's
   * parameters, no client certificate asked. Every HTTPS server of the operator uses it.
   */
  public HttpsConfigurator httpsConfigurator(SSLContext context) {
    return new HttpsConfigurator(context) {
      @Override
      public void configure(HttpsParameters parameters) {
        SSLParameters ssl = context.getDefaultSSLParameters();
        TlsOptions.this.configure(ssl);
        ssl.setNeedClientAuth(false);
        parameters.setSSLParameters(ssl);
      }
    };
  }

  /** The JSSE name of a suite named as in Go. */
  static String jsseName(String goName) {
    return GO_ALIASES.getOrDefault(goName, goName);
  }

  /** Whether the JVM can use the suite named {@code goName}. */
  public static boolean isSupportedCipherSuite(String goName) {
    return supportedCipherSuites().contains(jsseName(goName));
  }

  private static boolean isTls13Suite(String suite) {
    // TLS 1.3 suites name no key exchange: TLS_AES_128_GCM_SHA256, TLS_CHACHA20_POLY1305_SHA256...
    return suite.startsWith("TLS_") && !suite.contains("_WITH_");
  }

  private static Set<String> supportedCipherSuites() {
    try {
      return Set.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no TLS implementation", e);
    }
  }
}
