package io.kftrainer.plugins.mpi;

import java.nio.charset.StandardCharsets;

/**
 * An SSH key pair as the MPI pods use it: the private key as a PEM text and the public key as an
 * {@code authorized_keys} line.
 *
 * <p>Holds secret material: {@link #toString()} names the key type only, and nothing in this plugin logs a key or
 * puts one in an exception message.
 */
final class SshKeyPair {

  private final String keyType;
  private final byte[] privateKeyPem;
  private final byte[] authorizedKey;

  SshKeyPair(String keyType, byte[] privateKeyPem, byte[] authorizedKey) {
    this.keyType = keyType;
    this.privateKeyPem = privateKeyPem.clone();
    this.authorizedKey = authorizedKey.clone();
  }

  /** The SSH key type, e.g. {@code ecdsa-sha2-nistp521}. */
  String keyType() {
    return keyType;
  }

  /** The private key, PEM-encoded (US-ASCII). */
  byte[] privateKeyPem() {
    return privateKeyPem.clone();
  }

  /** The public key as one {@code authorized_keys} line, newline included (US-ASCII). */
  byte[] authorizedKey() {
    return authorizedKey.clone();
  }

  /** The public key line as text; public, so safe to show. */
  String authorizedKeyText() {
    return new String(authorizedKey, StandardCharsets.US_ASCII);
  }

  @Override
  public String toString() {
    return "SshKeyPair{" + keyType + ", keys redacted}";
  }
}
