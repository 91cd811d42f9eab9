package io.kftrainer.ui;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.Optional;

/**
 * How the UI reads the Kubernetes API as the user who holds a bearer token, never as itself: the API server
 * authorizes every read for that user.
 */
public interface UserApi {

  /** The client the requests are sent with. */
  HttpClient http();

  /**
   * The user the token belongs to, or empty when it is not a valid token (expired, unknown, revoked).
   *
   * @throws java.io.IOException when the API server cannot be asked
   */
  Optional<String> userOf(String token) throws java.io.IOException, InterruptedException;

  /**
   * A GET of {@code pathAndQuery} (e.g. {@code /api/v1/namespaces/team/pods?watch=true}) made as the token's user.
   *
   * @throws Unauthenticated when the token is not valid
   * @throws Forbidden when the UI itself refuses the read for the user (the API server may refuse it too)
   */
  HttpRequest.Builder get(String token, String pathAndQuery) throws java.io.IOException, InterruptedException,
      Unauthenticated, Forbidden;

  /** A read the user may not make, with kube-apiserver's message. */
  final class Forbidden extends Exception {
    public Forbidden(String message) {
      super(message, null, false, false);
    }
  }

  /** A token that authenticates no one. */
  final class Unauthenticated extends Exception {
    public Unauthenticated() {
      super("the token authenticates no one", null, false, false);
    }
  }
}
