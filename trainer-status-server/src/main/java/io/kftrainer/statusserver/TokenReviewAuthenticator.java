package io.kftrainer.statusserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verifies tokens with the API server's TokenReview (the KEP's design), where the cluster's OIDC discovery cannot
 * be read ({@link JwksTokenAuthenticator} is upstream's way and the default). One review per update, asking for
 * this TrainJob's audience; a user {@code system:serviceaccount:<other namespace>:...} is refused 403.
 *
 * <p>A token the review refuses is reviewed once more for the audiences it claims: if the cluster authenticates it
 * for those, it is another TrainJob's token (403), else no valid token of the cluster (401). Accepted tokens are
 * remembered for {@value #CACHE_SECONDS} s (by SHA-256, never the token itself; at most {@value #MAX_CACHED}).
 */
public final class TokenReviewAuthenticator implements TokenAuthenticator {

  static final long CACHE_SECONDS = 60;
  static final int MAX_CACHED = 10_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Instant> accepted = new ConcurrentHashMap<>();

  public TokenReviewAuthenticator(KubernetesClient client) {
    this(client, Clock.systemUTC());
  }

  TokenReviewAuthenticator(KubernetesClient client, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Verdict verify(String token, String namespace, String trainJobName) {
    if (token == null || token.isEmpty()) {
      return Verdict.unauthenticated("no bearer token");
    }
    String audience = TrainJobStatusEndpoint.audience(namespace, trainJobName);
    String key = sha256(token) + " " + audience;
    Instant now = clock.instant();
    Instant until = accepted.get(key);
    if (until != null && until.isAfter(now)) {
      return Verdict.authorized();
    }
    TokenReviewStatus status = review(token, List.of(audience));
    if (Boolean.TRUE.equals(status.getAuthenticated())) {
      String user = status.getUser() == null ? "" : String.valueOf(status.getUser().getUsername());
      if (!user.startsWith("system:serviceaccount:" + namespace + ":")) {
        return Verdict.forbidden("the token is not of a ServiceAccount of namespace " + namespace);
      }
      remember(key, now);
      return Verdict.authorized();
    }
    List<String> claimed = claimedAudiences(token);
    if (!claimed.isEmpty() && !claimed.contains(audience)
        && Boolean.TRUE.equals(review(token, claimed).getAuthenticated())) {
      return Verdict.forbidden("the token's audience is not " + audience);
    }
    return Verdict.unauthenticated("token review: " + status.getError());
  }

  private TokenReviewStatus review(String token, List<String> audiences) {
    try {
      TokenReviewStatus status = client.resource(new TokenReviewBuilder().withNewSpec().withToken(token)
          .withAudiences(audiences).endSpec().build()).create().getStatus();
      return status == null ? new TokenReviewStatus() : status;
    } catch (KubernetesClientException e) {
      throw new IllegalStateException("the API server refused a TokenReview (HTTP " + e.getCode() + ")", e);
    }
  }

  private void remember(String key, Instant now) {
    if (accepted.size() >= MAX_CACHED) {
      accepted.values().removeIf(until -> !until.isAfter(now));
      if (accepted.size() >= MAX_CACHED) {
        accepted.clear();
      }
    }
    accepted.put(key, now.plus(Duration.ofSeconds(CACHE_SECONDS)));
  }

  /** The {@code aud} a JWT claims, unverified: only to tell another TrainJob's token from no token at all. */
  private static List<String> claimedAudiences(String token) {
    String[] parts = token.split("\\.");
    if (parts.length != 3) {
      return List.of();
    }
    try {
      JsonNode aud = JSON.readTree(Base64.getUrlDecoder().decode(parts[1])).path("aud");
      List<String> audiences = new ArrayList<>();
      if (aud.isTextual()) {
        audiences.add(aud.asText());
      }
      aud.forEach(value -> audiences.add(value.asText()));
      return audiences;
    } catch (java.io.IOException | IllegalArgumentException e) {
      return List.of();
    }
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
