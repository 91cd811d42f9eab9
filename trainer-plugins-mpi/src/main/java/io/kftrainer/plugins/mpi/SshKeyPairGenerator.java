package io.kftrainer.plugins.mpi;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECPoint;
import java.util.Base64;

/**
 * Generates the MPI SSH key pair as upstream does: ECDSA on NIST P-521, the private key as an SEC 1
 * {@code EC PRIVATE KEY} PEM (RFC 5915, what OpenSSH reads as {@code id_rsa}) and the public key as an
 * {@code ecdsa-sha2-nistp521} {@code authorized_keys} line (RFC 5656), without a comment.
 *
 * <p>Uses only the JDK's {@code SunEC} provider and a fresh {@link SecureRandom}; thread-safe.
 */
final class SshKeyPairGenerator {

  static final String KEY_TYPE = "ecdsa-sha2-nistp521";
  private static final String CURVE = "secp521r1";
  private static final String CURVE_IDENTIFIER = "nistp521";
  /** OID 1.3.132.0.35 (secp521r1), content octets. */
  private static final byte[] CURVE_OID = {0x2B, (byte) 0x81, 0x04, 0x00, 0x23};
  /** Bytes of one P-521 field element or scalar: ceil(521 / 8). */
  private static final int FIELD_BYTES = 66;
  private static final int SEC1_VERSION = 1;
  private static final byte UNCOMPRESSED_POINT = 0x04;

  private SshKeyPairGenerator() {
  }

  /**
   * A fresh key pair.
   *
   * @throws IllegalStateException if the JDK cannot generate P-521 keys; the message carries no key material
   */
  static SshKeyPair generate() {
    KeyPair keyPair;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE), new SecureRandom());
      keyPair = generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("failed to build SSH Auth secret: cannot generate an ECDSA " + CURVE
          + " key pair: " + e.getClass().getSimpleName(), e);
    }
    ECPrivateKey privateKey = (ECPrivateKey) keyPair.getPrivate();
    ECPublicKey publicKey = (ECPublicKey) keyPair.getPublic();
    byte[] point = uncompressedPoint(publicKey.getW());
    return new SshKeyPair(KEY_TYPE, pem(sec1(privateKey.getS(), point)), authorizedKey(point));
  }

  /** {@code ECPrivateKey ::= SEQUENCE { version 1, privateKey, [0] namedCurve, [1] publicKey }} (RFC 5915). */
  private static byte[] sec1(BigInteger privateScalar, byte[] publicPoint) {
    return Der.sequence(
        Der.integer(SEC1_VERSION),
        Der.octetString(fixedLength(privateScalar)),
        Der.explicit(0, Der.objectIdentifier(CURVE_OID)),
        Der.explicit(1, Der.bitString(publicPoint)));
  }

  private static byte[] pem(byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return ("-----BEGIN EC PRIVATE KEY-----\n" + body + "\n-----END EC PRIVATE KEY-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code ecdsa-sha2-nistp521 <base64(string type, string curve, string Q)>\n} (RFC 5656 section 3.1). */
  private static byte[] authorizedKey(byte[] publicPoint) {
    ByteArrayOutputStream blob = new ByteArrayOutputStream();
    writeString(blob, KEY_TYPE.getBytes(StandardCharsets.US_ASCII));
    writeString(blob, CURVE_IDENTIFIER.getBytes(StandardCharsets.US_ASCII));
    writeString(blob, publicPoint);
    String line = KEY_TYPE + " " + Base64.getEncoder().encodeToString(blob.toByteArray()) + "\n";
    return line.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] uncompressedPoint(ECPoint point) {
    byte[] encoded = new byte[1 + 2 * FIELD_BYTES];
    encoded[0] = UNCOMPRESSED_POINT;
    System.arraycopy(fixedLength(point.getAffineX()), 0, encoded, 1, FIELD_BYTES);
    System.arraycopy(fixedLength(point.getAffineY()), 0, encoded, 1 + FIELD_BYTES, FIELD_BYTES);
    return encoded;
  }

  /** The unsigned big-endian value, left-padded to {@value #FIELD_BYTES} bytes. */
  private static byte[] fixedLength(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] fixed = new byte[FIELD_BYTES];
    int length = Math.min(bytes.length, FIELD_BYTES);
    System.arraycopy(bytes, bytes.length - length, fixed, FIELD_BYTES - length, length);
    return fixed;
  }

  private static void writeString(ByteArrayOutputStream out, byte[] value) {
    int length = value.length;
    out.write(length >>> 24);
    out.write(length >>> 16);
    out.write(length >>> 8);
    out.write(length);
    out.writeBytes(value);
  }
}
