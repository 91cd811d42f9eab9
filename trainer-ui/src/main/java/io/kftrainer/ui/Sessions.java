package io.kftrainer.ui;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The browsers signed in, each by a random session cookie that stands for the user's token, which stays in this
 * process: the page's scripts never see a token, and a session ends {@link #IDLE} after its last request. A
 * one-time login code ({@link #loginCode}) is what {@code local}'s banner prints, as Jupyter prints its token:
 * opening it signs the browser in with the kubeconfig's token, once.
 */
final class Sessions {

  static final Duration IDLE = Duration.ofHours(12);
  static final Duration LOGIN_CODE_LIFETIME = Duration.ofHours(24);
  private static final SecureRandom RANDOM = new SecureRandom();

  private record Session(String token, String user, Instant lastUse) {
  }

  private record LoginCode(String token, Instant expiry) {
  }

  private final Clock clock;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Map<String, LoginCode> loginCodes = new ConcurrentHashMap<>();

  Sessions(Clock clock) {
    this.clock = clock;
  }

  /** A code that signs in as the holder of {@code token}, once, within {@link #LOGIN_CODE_LIFETIME}. */
  String loginCode(String token) {
    String code = random();
    loginCodes.put(code, new LoginCode(token, clock.instant().plus(LOGIN_CODE_LIFETIME)));
    return code;
  }

  /** The token of a login code, which is then used up. */
  Optional<String> redeem(String code) {
    LoginCode login = code == null ? null : loginCodes.remove(code);
    return login == null || clock.instant().isAfter(login.expiry()) ? Optional.empty() : Optional.of(login.token());
  }

  /** A new session for the token's user: its cookie value. */
  String open(String token, String user) {
    expire();
    String id = random();
    sessions.put(id, new Session(token, user, clock.instant()));
    return id;
  }

  /** The token of a live session; its idle time starts again. */
  Optional<String> token(String id) {
    return session(id).map(Session::token);
  }

  Optional<String> user(String id) {
    return session(id).map(Session::user);
  }

  private Optional<Session> session(String id) {
    if (id == null) {
      return Optional.empty();
    }
    Session session = sessions.computeIfPresent(id, (key, live) ->
        clock.instant().isAfter(live.lastUse().plus(IDLE)) ? null
            : new Session(live.token(), live.user(), clock.instant()));
    return Optional.ofNullable(session);
  }

  void close(String id) {
    if (id != null) {
      sessions.remove(id);
    }
  }

  private void expire() {
    Instant now = clock.instant();
    sessions.values().removeIf(session -> now.isAfter(session.lastUse().plus(IDLE)));
    loginCodes.values().removeIf(code -> now.isAfter(code.expiry()));
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
