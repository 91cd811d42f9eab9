package io.kftrainer.webhook.cert;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated CA and serving certificates, and their round trip through a Secret. */
class CertificateIssuerTest {

  private static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");
  private static final List<String> NAMES = GeneratedCertificates.dnsNames("webhook-svc", "ops");

  private final TestingClock clock = new TestingClock(NOW);
  private final CertificateIssuer issuer = new CertificateIssuer(clock);

  @Test
  void theServiceDnsNamesAreTheShortAndTheClusterLocalOne() {
    assertThat(NAMES).containsExactly("webhook-svc.ops.svc", "webhook-svc.ops.svc.cluster.local");
  }

  @Test
  void theCaIsSelfSignedForTenYearsAndMaySignOnlyLeaves() throws Exception {
    X509Certificate ca = issuer.newAuthority().certificate();

    assertThat(ca.getSubjectX500Principal()).isEqualTo(ca.getIssuerX500Principal());
    assertThat(ca.getSubjectX500Principal().getName()).isEqualTo("CN=kubeflow-trainer-webhook-ca");
    ca.verify(ca.getPublicKey());
    assertThat(ca.getBasicConstraints()).as("a CA with path length 0").isZero();
    assertThat(ca.getKeyUsage()[5]).as("keyCertSign").isTrue();
    assertThat(ca.getNotBefore().toInstant()).isEqualTo(NOW.minus(Duration.ofHours(1)));
    assertThat(ca.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(3650)));
    assertThat(ca.getPublicKey().getAlgorithm()).isEqualTo("EC");
    assertThat(ca.getSigAlgName()).isEqualTo("SHA256withECDSA");
  }

  @Test
  void theServingCertificateIsForTheServiceNamesForOneYearSignedByTheCa() throws Exception {
    CertificateAuthority ca = issuer.newAuthority();

    ServingCertificate serving = issuer.issue(ca, NAMES, List.of(ca.certificate()));

    X509Certificate leaf = serving.certificate();
    leaf.verify(ca.certificate().getPublicKey());
    assertThat(serving.dnsNames()).containsExactlyElementsOf(NAMES);
    assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=webhook-svc.ops.svc");
    assertThat(leaf.getBasicConstraints()).as("not a CA").isEqualTo(-1);
    assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(serving.notAfter()).isEqualTo(NOW.plus(Duration.ofDays(365)));
    assertThat(serving.keyMatchesCertificate()).isTrue();
    assertThat(serving.issuer()).contains(ca.certificate());
    assertThat(serving.caBundle()).containsExactly(ca.certificate());
  }

  @Test
  void aServingCertificateNeverOutlivesItsCa() {
    CertificateAuthority ca = issuer.newAuthority();
    clock.advance(Duration.ofDays(3650 - 100));

    ServingCertificate serving = issuer.issue(ca, NAMES, List.of(ca.certificate()));

    assertThat(serving.notAfter()).isEqualTo(ca.certificate().getNotAfter().toInstant());
  }

  @Test
  void theCertificatesRoundTripThroughATlsSecret() throws Exception {
    CertificateAuthority ca = issuer.newAuthority();
    StoredCertificates stored = StoredCertificates.of(issuer.issue(ca, NAMES, List.of(ca.certificate())), ca);
    Secret secret = new SecretBuilder().withType("kubernetes.io/tls").withData(stored.secretData()).build();

    StoredCertificates read = StoredCertificates.fromSecret(secret);

    assertThat(secret.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt", "ca.key");
    assertThat(read.serving().certificate()).isEqualTo(stored.serving().certificate());
    assertThat(read.serving().key()).isEqualTo(stored.serving().key());
    assertThat(read.serving().caBundle()).containsExactly(ca.certificate());
    assertThat(read.authority()).hasValueSatisfying(readCa -> {
      assertThat(readCa.certificate()).isEqualTo(ca.certificate());
      assertThat(readCa.key()).isEqualTo(ca.key());
    });
    assertThat(new String(Base64.getDecoder().decode(secret.getData().get("tls.key"))))
        .startsWith("-----BEGIN PRIVATE KEY-----\n");
  }

  @Test
  void logTextNamesCertificatesWithoutKeyMaterial() {
    CertificateAuthority ca = issuer.newAuthority();
    ServingCertificate serving = issuer.issue(ca, NAMES, List.of(ca.certificate()));
    StoredCertificates stored = StoredCertificates.of(serving, ca);
    String keyBase64 = Base64.getEncoder().encodeToString(serving.key().getEncoded());

    for (String text : List.of(serving.toString(), ca.toString(), stored.toString())) {
      assertThat(text).contains("serial").doesNotContain("PRIVATE").doesNotContain(keyBase64.substring(0, 40));
    }
    assertThat(serving.toString()).startsWith("CN=webhook-svc.ops.svc (serial ");
  }
}
