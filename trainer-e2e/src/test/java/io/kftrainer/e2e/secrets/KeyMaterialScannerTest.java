package io.kftrainer.e2e.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The scanner finds a planted key in every form the suite can meet it, and nothing in clean text. */
class KeyMaterialScannerTest {

  private static final String KEY = pem("PRIVATE KEY", privateKey());
  private static final String OTHER_KEY = pem("EC PRIVATE KEY", privateKey());

  private final KeyMaterialScanner scanner = new KeyMaterialScanner();

  KeyMaterialScannerTest() {
    scanner.addKey("planted", KEY);
  }

  @Test
  void findsTheKeyAsTextAsJsonAndAsSecretData() {
    String base64 = Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.US_ASCII));

    scanner.scan("log", "INFO reconciled\n" + KEY);
    scanner.scan("json", "{\"message\":\"" + KEY.replace("\n", "\\n") + "\"}");
    scanner.scan("secret data", "{\"data\":{\"ssh-privatekey\":\"" + base64 + "\"}}");
    scanner.scan("part of a body line", "error: " + KEY.lines().toList().get(1).substring(3, 50));
    scanner.scan("part of the base64", "value " + base64.substring(100, 190) + " rejected");

    assertThat(scanner.findings()).extracting(KeyMaterialScanner.Finding::source)
        .contains("log", "json", "secret data", "part of a body line", "part of the base64");
    assertThat(scanner.findings()).filteredOn(finding -> finding.source().equals("secret data"))
        .extracting(KeyMaterialScanner.Finding::what).contains("planted (base64)");
  }

  @Test
  void findsAnUnknownKeyByItsMarkersPlainAndInBase64() {
    for (String prefix : new String[] {"", "a", "ab"}) {
      scanner.scan("base64 " + prefix.length(), Base64.getEncoder()
          .encodeToString((prefix + OTHER_KEY).getBytes(StandardCharsets.US_ASCII)));
    }
    scanner.scan("pem", OTHER_KEY);
    scanner.scan("openssh", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ");

    assertThat(scanner.findings()).extracting(KeyMaterialScanner.Finding::source).containsOnly("base64 0",
        "base64 1", "base64 2", "pem", "openssh");
  }

  @Test
  void certificatesPublicKeysAndCleanTextAreNoFinding() {
    String certificate = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUc29tZSBjZXJ0aWZpY2F0ZSBib2R5\n"
        + "-----END CERTIFICATE-----\n";

    scanner.scan("certificate", certificate);
    scanner.scan("caBundle", Base64.getEncoder().encodeToString(certificate.getBytes(StandardCharsets.US_ASCII)));
    scanner.scan("public key", "ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjE user@host");
    scanner.scan("log", "TrainJob default/mpi: created Secret mpi-mpi-ssh-auth, ConfigMap mpi-mpi-hostfile");

    assertThat(scanner.findings()).isEmpty();
    assertThat(scanner.sources()).isEqualTo(4);
    assertThat(scanner.bytes()).isPositive();
  }

  private static byte[] privateKey() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256);
      return generator.generateKeyPair().getPrivate().getEncoded();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
