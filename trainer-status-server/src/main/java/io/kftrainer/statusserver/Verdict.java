package io.kftrainer.statusserver;

import java.util.Objects;

/**
 * What a {@link TokenAuthenticator} concluded about a request's bearer token for one TrainJob.
 *
 * <ul>
 *   <li>{@link Outcome#AUTHORIZED}: a ServiceAccount token of the cluster, valid now, for this TrainJob;</li>
 *   <li>{@link Outcome#UNAUTHENTICATED} (401): no token, or one the cluster did not sign, or expired;</li>
 *   <li>{@link Outcome#FORBIDDEN} (403): a valid token of the cluster, but for another TrainJob or namespace.</li>
 * </ul>
 *
 * @param reason for the server's debug log only: never the token, never sent to the client
 */
public record Verdict(Outcome outcome, String reason) {

  public enum Outcome { AUTHORIZED, UNAUTHENTICATED, FORBIDDEN }

  public Verdict {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
  }

  public static Verdict authorized() {
    return new Verdict(Outcome.AUTHORIZED, "");
  }

  public static Verdict unauthenticated(String reason) {
    return new Verdict(Outcome.UNAUTHENTICATED, reason);
  }

  public static Verdict forbidden(String reason) {
    return new Verdict(Outcome.FORBIDDEN, reason);
  }
}
