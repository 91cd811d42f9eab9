package io.kftrainer.webhook.cert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.interfaces.ECPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificates from a mounted directory laid out as the kubelet lays out a Secret volume: each file a symlink
 * through {@code ..data}, which an update swaps atomically.
 */
class MountedCertificatesTest {

  private static final List<String> NAMES = List.of("webhook.ns.svc");

  private final CertificateIssuer issuer = new CertificateIssuer(new TestingClock(Instant.now()));
  private final CertificateAuthority ca = issuer.newAuthority();
  private MountedCertificates certificates;

  @TempDir
  Path directory;

  @AfterEach
  void stop() {
    if (certificates != null) {
      certificates.stop();
    }
  }

  @Test
  void theMountedCertificateIsServedAndAnUpdateOfTheVolumeIsPickedUp() throws Exception {
    ServingCertificate first = issue();
    ServingCertificate second = issue();
    mount("..2026_01", first.certificatePem(), first.keyPem(), first.caBundlePem());
    certificates = new MountedCertificates(directory, Duration.ofMinutes(5));

    certificates.start();
    assertThat(certificates.keyManager().current().orElseThrow().certificate()).isEqualTo(first.certificate());

    mount("..2026_02", second.certificatePem(), second.keyPem(), second.caBundlePem());

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        certificates.keyManager().current().orElseThrow().certificate()).isEqualTo(second.certificate()));
    assertThat(certificates.keyManager().current().get().caBundle()).containsExactly(ca.certificate());
  }

  @Test
  void aKeyInSec1FormatAsCertManagerWritesItIsRead() throws Exception {
    ServingCertificate serving = issue();
    String sec1 = sec1Pem(serving.key());
    assertThat(sec1).startsWith("-----BEGIN EC PRIVATE KEY-----");
    mount("..2026_01", serving.certificatePem(), sec1, serving.caBundlePem());
    certificates = new MountedCertificates(directory, Duration.ofMinutes(5));

    certificates.start();

    ServingCertificate served = certificates.keyManager().current().orElseThrow();
    assertThat(served.certificate()).isEqualTo(serving.certificate());
    assertThat(scalar(served.key())).isEqualTo(scalar(serving.key()));
  }

  @Test
  void anUpdateWithAKeyOfAnotherCertificateIsIgnored() throws Exception {
    ServingCertificate first = issue();
    mount("..2026_01", first.certificatePem(), first.keyPem(), first.caBundlePem());
    certificates = new MountedCertificates(directory, Duration.ofMinutes(5));
    certificates.start();

    mount("..2026_02", issue().certificatePem(), first.keyPem(), first.caBundlePem());
    certificates.reload();

    assertThat(certificates.keyManager().current().orElseThrow().certificate()).isEqualTo(first.certificate());
  }

  @Test
  void startingWithoutACertificateFails() {
    certificates = new MountedCertificates(directory, Duration.ofMinutes(5));

    assertThatThrownBy(certificates::start).isInstanceOf(IOException.class).hasMessage(directory.resolve("tls.crt")
        + ": no serving certificate: tls.crt is not in " + directory + " (mount the certificate's Secret there, "
        + "with tls.crt and tls.key, for example the one cert-manager issues; or let the operator make its own: "
        + "certManagement.enable: true)");
  }

  @Test
  void startingWithAMismatchedKeyFails() throws Exception {
    mount("..2026_01", issue().certificatePem(), issue().keyPem(), issue().caBundlePem());
    certificates = new MountedCertificates(directory, Duration.ofMinutes(5));

    assertThatThrownBy(certificates::start).isInstanceOf(CertificateException.class)
        .hasMessage("tls.key is not the key of tls.crt");
  }

  private static BigInteger scalar(PrivateKey key) {
    return ((ECPrivateKey) key).getS();
  }

  /** The key as SEC 1 with its curve, as cert-manager and {@code openssl ec} write EC keys. */
  private static String sec1Pem(PrivateKey key) throws IOException {
    PrivateKeyInfo pkcs8 = PrivateKeyInfo.getInstance(key.getEncoded());
    var inner = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(pkcs8.parsePrivateKey());
    var withCurve = new org.bouncycastle.asn1.sec.ECPrivateKey(256, inner.getKey(),
        pkcs8.getPrivateKeyAlgorithm().getParameters());
    StringWriter pem = new StringWriter();
    try (PemWriter writer = new PemWriter(pem)) {
      writer.writeObject(new PemObject("EC PRIVATE KEY", withCurve.getEncoded()));
    }
    return pem.toString();
  }

  private ServingCertificate issue() {
    return issuer.issue(ca, NAMES, List.of(ca.certificate()));
  }

  /** Writes a new data directory and swaps {@code ..data} to it, as the kubelet's atomic writer does. */
  private void mount(String version, String crt, String key, String caCrt) throws IOException {
    Path data = Files.createDirectory(directory.resolve(version));
    Files.writeString(data.resolve("tls.crt"), crt);
    Files.writeString(data.resolve("tls.key"), key);
    Files.writeString(data.resolve("ca.crt"), caCrt);
    Path temporary = Files.createSymbolicLink(directory.resolve("..data_tmp"), Path.of(version));
    Files.move(temporary, directory.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    for (String file : List.of("tls.crt", "tls.key", "ca.crt")) {
      if (!Files.exists(directory.resolve(file), LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(directory.resolve(file), Path.of("..data", file));
      }
    }
  }
}
