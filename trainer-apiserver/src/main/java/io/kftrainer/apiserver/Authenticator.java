package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Who sent a request, as kube-apiserver's bearer-token authenticators decide: the server's own admin token (a static
 * token, as {@code --token-auth-file} gives, of a user in {@code system:masters}), its loopback token (its
 * in-process clients', {@code system:apiserver} in {@code system:masters}, as kube-apiserver's), or a ServiceAccount token this
 * server issued ({@link ServiceAccountTokens#review}, audience the API server's). Anything else is unauthenticated;
 * a request that presents a token that fails is refused (401) rather than treated as anonymous, as kube does.
 *
 * <p>Tokens are compared in constant time and never logged or echoed.
 */
final class Authenticator {

  /** The user of the admin token: kind's and kubeadm's admin is in {@code system:masters} too. */
  static final String ADMIN = "kubernetes-admin";
  static final String MASTERS = "system:masters";
  static final String AUTHENTICATED = "system:authenticated";
  static final String UNAUTHENTICATED = "system:unauthenticated";

  /** An authenticated or anonymous user. */
  record User(String name, List<String> groups) {
    static final User ANONYMOUS = new User("system:anonymous", List.of(UNAUTHENTICATED));
    static final User ADMIN_USER = new User(ADMIN, List.of(MASTERS, AUTHENTICATED));
    /** kube-apiserver's own loopback client: the user of the server's in-process clients. */
    static final User LOOPBACK_USER = new User("system:apiserver", List.of(MASTERS, AUTHENTICATED));

    boolean isAnonymous() {
      return groups.contains(UNAUTHENTICATED);
    }
  }

  private final byte[] adminToken;
  private final byte[] loopbackToken;
  private final ServiceAccountTokens tokens;

  Authenticator(String adminToken, String loopbackToken, ServiceAccountTokens tokens) {
    this.adminToken = adminToken.getBytes(StandardCharsets.UTF_8);
    this.loopbackToken = loopbackToken.getBytes(StandardCharsets.UTF_8);
    this.tokens = tokens;
  }

  /** 256 random bits, base64url: what {@code kubeadm token} and kind's generated credentials carry at least. */
  static String randomToken() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The user of an {@code Authorization} header; {@link User#ANONYMOUS} without one; null when it fails. */
  User authenticate(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      return User.ANONYMOUS;
    }
    String[] parts = authorization.trim().split("\\s+", 2);
    if (parts.length != 2 || !parts[0].equalsIgnoreCase("Bearer") || parts[1].isEmpty()) {
      return null;
    }
    String token = parts[1];
    byte[] presented = token.getBytes(StandardCharsets.UTF_8);
    if (MessageDigest.isEqual(adminToken, presented)) {
      return User.ADMIN_USER;
    }
    if (MessageDigest.isEqual(loopbackToken, presented)) {
      return User.LOOPBACK_USER;
    }
    if (token.chars().filter(c -> c == '.').count() != 2) {
      return null; // not a JWT: no need to parse it
    }
    JsonNode status = tokens.review(JsonNodeFactory.instance.objectNode().put("token", token));
    if (!status.path("authenticated").asBoolean()) {
      return null;
    }
    List<String> groups = new ArrayList<>();
    status.path("user").path("groups").forEach(group -> groups.add(group.asText()));
    return new User(status.path("user").path("username").asText(), List.copyOf(groups));
  }
}
