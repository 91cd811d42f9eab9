package io.kftrainer.apiserver;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server side of TLS with one key and its certificate, handed to the JDK as they are. The usual route, a
 * {@code PKCS12} key store and a {@code KeyManagerFactory}, encrypts the key into the store and decrypts it again
 * (PBKDF2, 10,000 rounds of HMAC-SHA256 each way): a quarter of a second of {@code local}'s start-up on C1, for a
 * key that never leaves memory. The webhook server's {@code SwappableKeyManager} answers the JDK alike for a
 * rotating key; the two modules share no main-scope dependency for one to live in (the operator's image carries no
 * API server).
 */
final class SingleKeyManager extends X509ExtendedKeyManager {

  private static final String ALIAS = "server";

  private final PrivateKey key;
  private final X509Certificate[] chain;

  SingleKeyManager(PrivateKey key, X509Certificate certificate) {
    this.key = Objects.requireNonNull(key, "key");
    this.chain = new X509Certificate[] {Objects.requireNonNull(certificate, "certificate")};
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
    return ALIAS.equals(alias) ? chain.clone() : null;
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return ALIAS.equals(alias) ? key : null;
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

  /** The alias for a key type the JDK asks for ({@code EC}, {@code EC_EC}, {@code RSA}...), if the key is of it. */
  private String alias(String keyType) {
    if (keyType == null) {
      return null;
    }
    int separator = keyType.indexOf('_');
    String algorithm = separator < 0 ? keyType : keyType.substring(0, separator);
    return key.getAlgorithm().equals(algorithm) ? ALIAS : null;
  }
}
