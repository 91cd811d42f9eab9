package io.kftrainer.apiserver;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * What kube-apiserver does to a request before its handlers: authentication ({@link Authenticator}; 401 without
 * valid credentials, except on the health paths kube lets anonymous users probe), authorization
 * ({@link RbacAuthorizer}; 403), and the body limit ({@link RequestBodies}; 413, before the body is read whole).
 * The body read here replaces the exchange's stream, so the handlers read it as before. The authenticated user is
 * kept in the exchange's attributes for the handlers ({@link #user}), which must be the exchange's own:
 * {@link io.kftrainer.http.ExchangeAttributes} goes before this filter, since the JDK 17 server shares them between
 * the exchanges of a context.
 */
final class AccessControl extends Filter {

  /** The paths kube-apiserver's {@code anonymous.conditions} typically leave open: liveness and readiness probes. */
  private static final List<String> ANONYMOUS_PATHS = List.of("/healthz", "/livez", "/readyz");

  private static final String USER = AccessControl.class.getName() + ".user";

  private final Authenticator authenticator;
  private final RbacAuthorizer authorizer;

  AccessControl(Authenticator authenticator, RbacAuthorizer authorizer) {
    this.authenticator = authenticator;
    this.authorizer = authorizer;
  }

  @Override
  public String description() {
    return "authentication, authorization and the request body limit";
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    String rawPath = exchange.getRequestURI().getRawPath();
    Authenticator.User user = authenticator.authenticate(exchange.getRequestHeaders().getFirst("Authorization"));
    if (user == null || (user.isAnonymous() && !ANONYMOUS_PATHS.contains(rawPath))) {
      refuse(exchange, Response.status(401, "Unauthorized", "Unauthorized"));
      return;
    }
    String rawQuery = exchange.getRequestURI().getRawQuery();
    ResourcePath rp = ResourcePath.parse(rawPath + (rawQuery == null ? "" : "?" + rawQuery));
    RbacAuthorizer.Request request = RbacAuthorizer.Request.of(exchange.getRequestMethod(), rp, rawPath);
    if (!user.isAnonymous() && !authorizer.allowed(user, request)) {
      refuse(exchange, RbacAuthorizer.forbidden(user, request));
      return;
    }
    byte[] body;
    try {
      body = RequestBodies.read(exchange);
    } catch (ApiException e) {
      refuse(exchange, e.response);
      return;
    }
    exchange.setAttribute(USER, user);
    exchange.setStreams(new ByteArrayInputStream(body), null);
    chain.doFilter(exchange);
  }

  /** Who sent {@code exchange}, as this filter authenticated it. */
  static Authenticator.User user(HttpExchange exchange) {
    Object user = exchange.getAttribute(USER);
    return user instanceof Authenticator.User known ? known : Authenticator.User.ANONYMOUS;
  }

  private static void refuse(HttpExchange exchange, Response response) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      byte[] body = response.body();
      exchange.sendResponseHeaders(response.code(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
