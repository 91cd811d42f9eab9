package io.kftrainer.operator.ops;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Who may read an endpoint, decided by the API server as controller-runtime's
 * {@code filters.WithAuthenticationAndAuthorization} does for upstream's metrics ({@code metrics.auth}): the bearer
 * token of the request is checked with a TokenReview, then the user it names is checked with a SubjectAccessReview
 * for the request's verb (the lower-cased HTTP method) on its path as a non-resource URL ({@code get} on
 * {@code /metrics}, which a ClusterRole grants with {@code nonResourceURLs: ["/metrics"]}).
 *
 * <p>Answers are cached as Kubernetes' delegating authenticator and authorizer cache them, so that a scrape every
 * few seconds costs no API call: token reviews for {@value #TOKEN_TTL_SECONDS} s, allowed access for
 * {@value #ALLOW_TTL_SECONDS} s, denied access for {@value #DENY_TTL_SECONDS} s; failed calls are not cached. Each
 * cache keeps at most {@value #MAX_ENTRIES} entries (the least recently used go first). Tokens are kept only as
 * SHA-256 digests and never logged.
 */
public final class DelegatingAuth {

  static final long TOKEN_TTL_SECONDS = 60;
  static final long ALLOW_TTL_SECONDS = 300;
  static final long DENY_TTL_SECONDS = 30;
  static final int MAX_ENTRIES = 1024;
  private static final String BEARER = "bearer ";

  /** The outcome of a request's check. */
  public sealed interface Decision {
  }

  /** Authenticated, and the user may do this. */
  public record Allowed(String user) implements Decision {
  }

  /** No bearer token, or one the API server does not accept: 401. */
  public record Unauthenticated() implements Decision {
  }

  /** Authenticated, but the user may not do this: 403. */
  public record Forbidden(String user, String reason) implements Decision {
  }

  /** A review could not be made (the API server is unreachable, or refused the review itself): 500. */
  public record Failed(String message) implements Decision {
  }

  private record Expiring<T>(T value, Instant expiry) {
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Expiring<Optional<UserInfo>>> tokens = lru();
  private final Map<String, Expiring<Decision>> access = lru();

  public DelegatingAuth(KubernetesClient client) {
    this(client, Clock.systemUTC());
  }

  DelegatingAuth(KubernetesClient client, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Whether the request with this {@code Authorization} header may do {@code method} on {@code path}.
   *
   * @param authorization the header's value, or null
   */
  public Decision check(String authorization, String method, String path) {
    String verb = method.toLowerCase(Locale.ROOT);
    return check(authorization, verb + "\n" + path, spec -> spec.withNewNonResourceAttributes().withVerb(verb)
        .withPath(path).endNonResourceAttributes());
  }

  /**
   * Whether the request with this {@code Authorization} header may do what {@code attributes} say (a read the web UI
   * makes for its user).
   */
  public Decision check(String authorization, ResourceAttributes attributes) {
    return check(authorization, String.join("\n", attributes.getVerb(), Objects.toString(attributes.getGroup(), ""),
            attributes.getResource(), Objects.toString(attributes.getSubresource(), ""),
            Objects.toString(attributes.getNamespace(), ""), Objects.toString(attributes.getName(), "")),
        spec -> spec.withResourceAttributes(attributes));
  }

  private Decision check(String authorization, String what, UnaryOperator<SubjectAccessReviewSpecBuilder> access) {
    if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
        || authorization.substring(BEARER.length()).isBlank()) {
      return new Unauthenticated();
    }
    Optional<UserInfo> user;
    try {
      user = authenticate(authorization.substring(BEARER.length()).strip());
    } catch (KubernetesClientException e) {
      return new Failed("Authentication failed");
    }
    if (user.isEmpty()) {
      return new Unauthenticated();
    }
    try {
      return authorize(user.get(), what, access);
    } catch (KubernetesClientException e) {
      return new Failed("Authorization for user " + user.get().getUsername() + " failed");
    }
  }

  /**
   * The user a bearer token belongs to, empty when the API server does not accept it.
   *
   * @throws KubernetesClientException when the review cannot be made
   */
  public Optional<UserInfo> user(String token) {
    return authenticate(token);
  }

  private Optional<UserInfo> authenticate(String token) {
    String key = sha256(token);
    Optional<UserInfo> cached = cached(tokens, key);
    if (cached != null) {
      return cached;
    }
    TokenReview review = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
        .withNewSpec().withToken(token).endSpec().build());
    TokenReviewStatus status = review.getStatus();
    Optional<UserInfo> user = status != null && Boolean.TRUE.equals(status.getAuthenticated())
        && status.getUser() != null ? Optional.of(status.getUser()) : Optional.empty();
    remember(tokens, key, user, TOKEN_TTL_SECONDS);
    return user;
  }

  private Decision authorize(UserInfo user, String what, UnaryOperator<SubjectAccessReviewSpecBuilder> access) {
    String key = String.join("\n", Objects.toString(user.getUsername(), ""), Objects.toString(user.getUid(), ""),
        String.valueOf(user.getGroups()), String.valueOf(user.getExtra()), what);
    Decision cached = cached(this.access, key);
    if (cached != null) {
      return cached;
    }
    SubjectAccessReviewSpecBuilder spec = new SubjectAccessReviewSpecBuilder()
        .withUser(user.getUsername())
        .withUid(user.getUid())
        .withGroups(user.getGroups() == null ? List.of() : user.getGroups())
        .withExtra(user.getExtra());
    SubjectAccessReview review = client.authorization().v1().subjectAccessReview().create(
        new SubjectAccessReviewBuilder().withSpec(access.apply(spec).build()).build());
    boolean allowed = review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
    Decision decision = allowed ? new Allowed(user.getUsername())
        : new Forbidden(user.getUsername(), review.getStatus() == null ? "" : Objects.toString(
            review.getStatus().getReason(), ""));
    remember(this.access, key, decision, allowed ? ALLOW_TTL_SECONDS : DENY_TTL_SECONDS);
    return decision;
  }

  /** The cached value, or null if absent or expired. */
  private <T> T cached(Map<String, Expiring<T>> cache, String key) {
    synchronized (cache) {
      Expiring<T> entry = cache.get(key);
      if (entry == null || !clock.instant().isBefore(entry.expiry())) {
        cache.remove(key);
        return null;
      }
      return entry.value();
    }
  }

  private <T> void remember(Map<String, Expiring<T>> cache, String key, T value, long ttlSeconds) {
    synchronized (cache) {
      cache.put(key, new Expiring<>(value, clock.instant().plus(Duration.ofSeconds(ttlSeconds))));
    }
  }

  private static <T> Map<String, T> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, T> eldest) {
        return size() > MAX_ENTRIES;
      }
    };
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256", e);
    }
  }
}
