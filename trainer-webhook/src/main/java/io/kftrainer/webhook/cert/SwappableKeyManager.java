package io.kftrainer.webhook.cert;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server side of a TLS listener whose certificate can be replaced while it listens: each handshake picks the
 * certificate current at that moment. An {@link SSLContext} built with {@link #serverContext()} never needs
 * rebuilding, so a rotation drops no connection and no listener.
 *
 * <p>Every {@link #swap} gets a new alias; the previous certificate stays reachable under its alias, so that a
 * handshake that chose it just before a swap still finds the matching key.
 */
public final class SwappableKeyManager extends X509ExtendedKeyManager {

  private static final String ALIAS_PREFIX = "webhook-";

  private record Entry(String alias, ServingCertificate certificate) {
  }

  private final AtomicLong generation = new AtomicLong();
  private final AtomicReference<Entry> current = new AtomicReference<>();
  private final AtomicReference<Entry> previous = new AtomicReference<>();

  /** Serves {@code certificate} from the next handshake on. */
  public synchronized void swap(ServingCertificate certificate) {
    Objects.requireNonNull(certificate, "certificate");
    Entry next = new Entry(ALIAS_PREFIX + generation.incrementAndGet(), certificate);
    previous.set(current.getAndSet(next));
  }

  /** How many certificates were set since this key manager was made. */
  public long swaps() {
    return generation.get();
  }

  /** The certificate served now, if any was set. */
  public Optional<ServingCertificate> current() {
    return Optional.ofNullable(current.get()).map(Entry::certificate);
  }

  /**
   * A TLS server context on this key manager and the JDK's default randomness, without trust managers: the server
   * asks for no client certificate, and the JDK's default ones would read its cacerts file at start-up.
   */
  public SSLContext serverContext() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {this}, new TrustManager[0], null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS implementation", e);
    }
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return alias(keyType);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return alias(keyType);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    String alias = alias(keyType);
    return alias == null ? null : new String[] {alias};
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return find(alias).map(entry -> entry.certificate().chain().toArray(X509Certificate[]::new)).orElse(null);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return find(alias).map(entry -> entry.certificate().key()).orElse(null);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return null;
  }

  private String alias(String keyType) {
    Entry entry = current.get();
    if (entry == null || !entry.certificate().key().getAlgorithm().equals(baseKeyType(keyType))) {
      return null;
    }
    return entry.alias();
  }

  private Optional<Entry> find(String alias) {
    return List.of(Optional.ofNullable(current.get()), Optional.ofNullable(previous.get())).stream()
        .flatMap(Optional::stream)
        .filter(entry -> entry.alias().equals(alias))
        .findFirst();
  }

  /** The key algorithm of a key type the JDK asks for: {@code EC}, {@code EC_EC}, {@code RSA}... */
  private static String baseKeyType(String keyType) {
    if (keyType == null) {
      return "";
    }
    int separator = keyType.indexOf('_');
    return separator < 0 ? keyType : keyType.substring(0, separator);
  }
}
