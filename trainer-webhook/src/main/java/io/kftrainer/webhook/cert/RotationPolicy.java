package io.kftrainer.webhook.cert;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether stored webhook certificates can go on being served, and if not, what to renew.
 *
 * <ul>
 *   <li>{@link Action#KEEP}: the serving certificate names every expected DNS name, its key matches, it is signed
 *       by a CA of the bundle, and it is valid for longer than {@code renewBefore}.</li>
 *   <li>{@link Action#RENEW_SERVING}: only the serving certificate is due; the stored CA (whose key is stored too)
 *       is valid for longer than {@code renewBefore} and signs the new one. The CA bundle, hence the
 *       {@code caBundle} the API server trusts, stays the same, so the renewal cannot break admission calls.</li>
 *   <li>{@link Action#NEW_AUTHORITY}: nothing usable is stored, or the CA itself is due. A new CA signs a new
 *       serving certificate; the bundle is the new CA followed by the previous bundle's CAs that are still valid,
 *       so that serving certificates of the old CA (other replicas that have not reloaded yet) stay trusted.</li>
 * </ul>
 */
public final class RotationPolicy {

  /** Renew when less than this much validity is left. */
  public static final Duration DEFAULT_RENEW_BEFORE = Duration.ofDays(30);

  /** Old CAs kept in a bundle next to a new one. */
  private static final int PREVIOUS_CAS_KEPT = 1;

  /** What to do with the stored certificates. */
  public enum Action { KEEP, RENEW_SERVING, NEW_AUTHORITY }

  /**
   * A decision and why, for the log.
   *
   * @param previousCas for {@link Action#NEW_AUTHORITY}, the CAs of the old bundle to keep in the new one
   */
  public record Decision(Action action, String reason, List<X509Certificate> previousCas) {

    public Decision {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(reason, "reason");
      previousCas = List.copyOf(previousCas);
    }
  }

  private final Duration renewBefore;

  public RotationPolicy(Duration renewBefore) {
    this.renewBefore = Objects.requireNonNull(renewBefore, "renewBefore");
  }

  public RotationPolicy() {
    this(DEFAULT_RENEW_BEFORE);
  }

  public Duration renewBefore() {
    return renewBefore;
  }

  /** The decision for {@code stored} (empty: nothing stored) serving {@code dnsNames} at {@code now}. */
  public Decision decide(Optional<StoredCertificates> stored, List<String> dnsNames, Instant now) {
    if (stored.isEmpty()) {
      return newAuthority("no certificate is stored", List.of());
    }
    ServingCertificate serving = stored.get().serving();
    List<X509Certificate> previous = stillValidCas(serving.caBundle(), now);
    Optional<CertificateAuthority> authority = stored.get().authority()
        .filter(ca -> remaining(ca.certificate(), now).compareTo(renewBefore) > 0);
    Optional<String> servingProblem = servingProblem(serving, dnsNames, now);
    if (servingProblem.isEmpty()) {
      return new Decision(Action.KEEP, "the stored certificate is valid until " + serving.notAfter(), List.of());
    }
    if (authority.isPresent() && serving.caBundle().contains(authority.get().certificate())) {
      return new Decision(Action.RENEW_SERVING, servingProblem.get(), List.of());
    }
    String caProblem = stored.get().authority().isEmpty() ? "no usable CA key is stored"
        : "the CA expires at " + stored.get().authority().get().certificate().getNotAfter().toInstant();
    return newAuthority(servingProblem.get() + ", and " + caProblem, previous);
  }

  private Optional<String> servingProblem(ServingCertificate serving, List<String> dnsNames, Instant now) {
    List<String> missing = dnsNames.stream().filter(name -> !serving.dnsNames().contains(name)).toList();
    if (!missing.isEmpty()) {
      return Optional.of("the stored certificate is not for " + missing);
    }
    if (!serving.keyMatchesCertificate()) {
      return Optional.of("the stored key does not match the stored certificate");
    }
    Optional<X509Certificate> issuer = serving.issuer();
    if (issuer.isEmpty()) {
      return Optional.of("the stored certificate is not signed by a CA of the stored bundle");
    }
    if (issuer.get().getNotAfter().toInstant().isBefore(now)) {
      return Optional.of("the stored certificate's CA has expired");
    }
    if (serving.notBefore().isAfter(now)) {
      return Optional.of("the stored certificate is valid only from " + serving.notBefore());
    }
    if (Duration.between(now, serving.notAfter()).compareTo(renewBefore) <= 0) {
      return Optional.of("the stored certificate expires at " + serving.notAfter());
    }
    return Optional.empty();
  }

  private static Decision newAuthority(String reason, List<X509Certificate> previousCas) {
    return new Decision(Action.NEW_AUTHORITY, reason, previousCas);
  }

  private static List<X509Certificate> stillValidCas(List<X509Certificate> bundle, Instant now) {
    List<X509Certificate> kept = new ArrayList<>();
    for (X509Certificate ca : bundle) {
      boolean valid = ca.getBasicConstraints() >= 0 && ca.getNotAfter().toInstant().isAfter(now);
      if (valid && kept.size() < PREVIOUS_CAS_KEPT) {
        kept.add(ca);
      }
    }
    return kept;
  }

  private static Duration remaining(X509Certificate certificate, Instant now) {
    return Duration.between(now, certificate.getNotAfter().toInstant());
  }
}
