package io.kftrainer.webhook.cert;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.webhook.cert.RotationPolicy.Action;
import io.kftrainer.webhook.cert.RotationPolicy.Decision;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When stored certificates are kept, and what is renewed when they are not. */
class RotationPolicyTest {

  private static final Instant ISSUED = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<String> NAMES = GeneratedCertificates.dnsNames("svc", "ns");
  private static final CertificateIssuer ISSUER = issuerAt(0);
  private static final CertificateAuthority CA = ISSUER.newAuthority();
  private static final CertificateAuthority OTHER_CA = ISSUER.newAuthority();
  private static final ServingCertificate SERVING = ISSUER.issue(CA, NAMES, List.of(CA.certificate()));
  private static final StoredCertificates FRESH = StoredCertificates.of(SERVING, CA);

  /** A case: what is stored (from the fresh certificates), the day after issuing of the decision, the decision. */
  record Case(String name, Function<StoredCertificates, Optional<StoredCertificates>> stored, long days,
      Action action, String reason, List<CertificateAuthority> previousCas) {

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        c("nothing stored means a new CA", s -> Optional.empty(), 0, Action.NEW_AUTHORITY,
            "no certificate is stored", List.of()),
        c("a fresh certificate is kept", Optional::of, 0, Action.KEEP,
            "the stored certificate is valid until 2027-01-01T00:00:00Z", List.of()),
        c("31 days before expiry it is kept", Optional::of, 365 - 31, Action.KEEP,
            "the stored certificate is valid until 2027-01-01T00:00:00Z", List.of()),
        c("30 days before expiry the serving certificate is renewed by the same CA", Optional::of, 365 - 30,
            Action.RENEW_SERVING, "the stored certificate expires at 2027-01-01T00:00:00Z", List.of()),
        c("a certificate for another Service is renewed",
            s -> Optional.of(StoredCertificates.of(ISSUER.issue(CA, List.of("other.ns.svc"),
                List.of(CA.certificate())), CA)), 0,
            Action.RENEW_SERVING, "the stored certificate is not for [svc.ns.svc, svc.ns.svc.cluster.local]",
            List.of()),
        c("a key that does not match the certificate is renewed",
            s -> Optional.of(StoredCertificates.of(new ServingCertificate(SERVING.chain(),
                ISSUER.issue(CA, NAMES, List.of(CA.certificate())).key(), SERVING.caBundle()), CA)), 0,
            Action.RENEW_SERVING, "the stored key does not match the stored certificate", List.of()),
        c("a certificate no CA of the bundle signed is renewed",
            s -> Optional.of(StoredCertificates.of(new ServingCertificate(SERVING.chain(), SERVING.key(),
                List.of(OTHER_CA.certificate())), OTHER_CA)), 0,
            Action.RENEW_SERVING, "the stored certificate is not signed by a CA of the stored bundle", List.of()),
        c("without the CA key a due certificate needs a new CA, and the old CA stays trusted",
            s -> Optional.of(new StoredCertificates(SERVING, Optional.empty())), 365 - 30, Action.NEW_AUTHORITY,
            "the stored certificate expires at 2027-01-01T00:00:00Z, and no usable CA key is stored", List.of(CA)),
        c("a CA due for renewal is replaced, and stays trusted until it expires",
            s -> Optional.of(StoredCertificates.of(issuerAt(3650 - 200).issue(CA, NAMES, List.of(CA.certificate())),
                CA)),
            3650 - 30, Action.NEW_AUTHORITY,
            "the stored certificate expires at 2035-12-30T00:00:00Z, and the CA expires at 2035-12-30T00:00:00Z",
            List.of(CA)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decide(Case c) {
    Optional<StoredCertificates> stored = c.stored().apply(FRESH);

    Decision decision = new RotationPolicy().decide(stored, NAMES, ISSUED.plus(Duration.ofDays(c.days())));

    assertThat(decision.action()).isEqualTo(c.action());
    assertThat(decision.reason()).isEqualTo(c.reason());
    assertThat(decision.previousCas()).containsExactlyElementsOf(
        c.previousCas().stream().map(CertificateAuthority::certificate).toList());
  }

  private static CertificateIssuer issuerAt(long days) {
    return new CertificateIssuer(new TestingClock(ISSUED.plus(Duration.ofDays(days))));
  }

  private static Arguments c(String name, Function<StoredCertificates, Optional<StoredCertificates>> stored,
      long days, Action action, String reason, List<CertificateAuthority> previousCas) {
    return Arguments.of(new Case(name, stored, days, action, reason, previousCas));
  }
}
