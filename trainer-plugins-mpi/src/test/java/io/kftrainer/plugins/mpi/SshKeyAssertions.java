package io.kftrainer.plugins.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Reads the generated keys independently of the plugin's encoder: the PEM with Bouncy Castle, the
 * {@code authorized_keys} line by RFC 5656; and proves that they form one pair by signing with the private key and
 * verifying with the public one.
 */
final class SshKeyAssertions {

  static final String PEM_HEADER = "-----BEGIN EC PRIVATE KEY-----\n";
  static final String PEM_FOOTER = "-----END EC PRIVATE KEY-----\n";

  private SshKeyAssertions() {
  }

  static void assertMatchingPair(String privateKeyPem, String authorizedKey) {
    KeyPair fromPem = parsePem(privateKeyPem);
    ECPublicKey authorized = parseAuthorizedKey(authorizedKey);
    assertThat(((ECPublicKey) fromPem.getPublic()).getW())
        .as("public key inside the PEM equals the authorized key")
        .isEqualTo(authorized.getW());
    assertThat(signsAndVerifies(fromPem, authorized)).as("private key signs what the authorized key verifies")
        .isTrue();
  }

  /** The key pair of an SEC 1 {@code EC PRIVATE KEY} PEM, read by Bouncy Castle. */
  static KeyPair parsePem(String pem) {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object object = parser.readObject();
      assertThat(object).as("PEM content").isInstanceOf(PEMKeyPair.class);
      return new JcaPEMKeyConverter().getKeyPair((PEMKeyPair) object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The P-521 public key of an {@code ecdsa-sha2-nistp521 <base64>} line, with its fields checked. */
  static ECPublicKey parseAuthorizedKey(String line) {
    assertThat(line).startsWith("ecdsa-sha2-nistp521 ").endsWith("\n");
    String[] fields = line.strip().split(" ");
    assertThat(fields).as("type and key, no comment").hasSize(2);
    try (DataInputStream blob = new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(fields[1])))) {
      assertThat(new String(readString(blob), StandardCharsets.US_ASCII)).isEqualTo("ecdsa-sha2-nistp521");
      assertThat(new String(readString(blob), StandardCharsets.US_ASCII)).isEqualTo("nistp521");
      byte[] point = readString(blob);
      assertThat(blob.available()).as("bytes after the point").isZero();
      assertThat(point).hasSize(133);
      assertThat(point[0]).as("uncompressed point").isEqualTo((byte) 0x04);
      BigInteger x = new BigInteger(1, Arrays.copyOfRange(point, 1, 67));
      BigInteger y = new BigInteger(1, Arrays.copyOfRange(point, 67, 133));
      return (ECPublicKey) KeyFactory.getInstance("EC")
          .generatePublic(new ECPublicKeySpec(new ECPoint(x, y), p521()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  static ECParameterSpec p521() throws GeneralSecurityException {
    AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
    parameters.init(new ECGenParameterSpec("secp521r1"));
    return parameters.getParameterSpec(ECParameterSpec.class);
  }

  private static boolean signsAndVerifies(KeyPair signer, ECPublicKey verifier) {
    byte[] message = "mpirun".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature sign = Signature.getInstance("SHA512withECDSA");
      sign.initSign(signer.getPrivate());
      sign.update(message);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance("SHA512withECDSA");
      verify.initVerify(verifier);
      verify.update(message);
      return verify.verify(signature);
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] readString(DataInputStream in) throws IOException {
    byte[] value = new byte[in.readInt()];
    in.readFully(value);
    return value;
  }
}
