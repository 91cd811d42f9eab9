package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What kube-apiserver's ServiceAccount token machinery does, for this server: the {@code serviceaccounts/<name>/token}
 * subresource (TokenRequest), real {@code TokenReview}s of those tokens, and the OIDC discovery document and JWKS
 * ({@code /.well-known/openid-configuration}, {@code /openid/v1/jwks}) that relying parties verify them with.
 *
 * <p>Tokens are JWTs signed ES256 by nimbus-jose-jwt (kube-apiserver's {@code --service-account-signing-key-file}
 * may be an ECDSA key as well as an RSA one; the key id is its RFC 7638 thumbprint, as kube's is a hash of the public
 * key), with kube's claims: {@code iss} ({@value #ISSUER}, kind's default issuer), {@code sub}
 * ({@code system:serviceaccount:<ns>:<name>}), {@code aud}, {@code exp}, {@code iat}, {@code nbf}, {@code jti} and
 * {@code kubernetes.io} (namespace, serviceaccount name and uid, and the pod a token is bound to). The key is kept in
 * the data directory (a JWK, mode 0600), so tokens outlive a restart as they outlive kube-apiserver's; in memory it
 * is generated at start. P-256 rather than RSA: a 2048-bit RSA key took 0.5 to 3 s of CPU to generate with the C1
 * compiler alone (as {@code bin/trainer} runs: no BigInteger intrinsics), half of {@code local}'s start; a P-256 key
 * takes milliseconds.
 *
 * <p>Kube's rules: the ServiceAccount must exist; {@code expirationSeconds} defaults to 3600 and may not be under
 * 600; {@code audiences} default to the API server's own ({@value #ISSUER}); a token bound to a Pod needs the Pod to
 * exist with the reference's uid. A review authenticates a token only if its signature, issuer, validity window and
 * audience hold and its ServiceAccount and bound Pod still exist with the uids it names; the answer's
 * {@code audiences} are the requested ones the token carries. Tokens are never stored or logged.
 */
final class ServiceAccountTokens {

  /** kind's and kubeadm's default {@code --service-account-issuer}. */
  static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
  static final String DISCOVERY_PATH = "/.well-known/openid-configuration";
  static final String JWKS_PATH = "/openid/v1/jwks";
  static final long DEFAULT_EXPIRATION_SECONDS = 3600;
  static final long MIN_EXPIRATION_SECONDS = 600;
  private static final long MAX_EXPIRATION_SECONDS = 1L << 32;
  /** kube's validator accepts tokens this far outside their window (clock skew between issuers and servers). */
  private static final long LEEWAY_SECONDS = 60;
  private static final Store.Kind SERVICE_ACCOUNTS = new Store.Kind("", "serviceaccounts");
  private static final Store.Kind PODS = new Store.Kind("", "pods");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String INVALID_TOKEN = "invalid bearer token";

  private final Store store;
  private final Clock clock;
  private final ECKey key;
  private final ECDSASigner signer;
  private final ECDSAVerifier verifier;

  /** Tokens signed with the key in {@code keyFile} (made there if missing), or with a new one when it is null. */
  ServiceAccountTokens(Store store, Clock clock, Path keyFile) {
    this.store = store;
    this.clock = clock;
    this.key = keyFile == null ? generate() : keep(keyFile);
    try {
      this.signer = new ECDSASigner(key);
      this.verifier = new ECDSAVerifier(key.toPublicJWK());
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot use the ServiceAccount signing key", e);
    }
  }

  private static ECKey generate() {
    try {
      return new ECKeyGenerator(Curve.P_256).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.ES256)
          .keyIDFromThumbprint(true).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate the ServiceAccount signing key", e);
    }
  }

  /** The key {@code file} holds; a new one written there (0600) when it does not exist. */
  private static ECKey keep(Path file) {
    try {
      if (Files.exists(file)) {
        return ECKey.parse(Files.readString(file, StandardCharsets.UTF_8));
      }
      ECKey generated = generate();
      PrivateFiles.write(file, generated.toJSONString());
      return generated;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the ServiceAccount signing key in " + file, e);
    } catch (ParseException e) {
      throw new IllegalStateException("the ServiceAccount signing key in " + file + " is not an EC JWK: "
          + e.getMessage() + " (delete it to make a new one; tokens issued before are then refused)", e);
    }
  }

  static boolean isOidcPath(String path) {
    return path.equals(DISCOVERY_PATH) || path.equals(JWKS_PATH);
  }

  /**
   * {@code GET} of {@link #DISCOVERY_PATH} or {@link #JWKS_PATH}. As kube-apiserver (go-restful routes that produce
   * {@code application/json} and {@code application/jwk-set+json}), a request whose {@code Accept} admits neither
   * is answered 406: a client asking the key set for {@code application/json} is refused there.
   */
  Response oidc(String path, String accept) {
    String produced = path.equals(DISCOVERY_PATH) ? "application/json" : "application/jwk-set+json";
    if (!accepts(accept, produced)) {
      return Response.text(406, "406: Not Acceptable");
    }
    if (path.equals(DISCOVERY_PATH)) {
      ObjectNode document = NODES.objectNode().put("issuer", ISSUER).put("jwks_uri", ISSUER + JWKS_PATH);
      document.putArray("response_types_supported").add("id_token");
      document.putArray("subject_types_supported").add("public");
      document.putArray("id_token_signing_alg_values_supported").add(JWSAlgorithm.ES256.getName());
      return Response.json(200, document.toString());
    }
    String keys = new JWKSet(key.toPublicJWK()).toString(true);
    return new Response(200, "application/jwk-set+json", keys.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        new ArrayList<>());
  }

  /** Whether an {@code Accept} header (absent: anything) admits {@code mediaType}. */
  static boolean accepts(String accept, String mediaType) {
    if (accept == null || accept.isBlank()) {
      return true;
    }
    String type = mediaType.substring(0, mediaType.indexOf('/'));
    for (String range : accept.split(",")) {
      String media = range.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
      if (media.equals("*/*") || media.equals(mediaType) || media.equals(type + "/*")) {
        return true;
      }
    }
    return false;
  }

  /** {@code POST .../serviceaccounts/<name>/token}: a TokenRequest answered with a signed token, never stored. */
  Response request(Target target, String contentType, byte[] body) {
    ObjectNode request = KubeJson.parseObject(body, contentType);
    String namespace = target.rp().namespace();
    String name = target.rp().name();
    String named = request.path("metadata").path("name").asText("");
    if (!named.isEmpty() && !named.equals(name)) {
      return StatusErrors.invalid("authentication.k8s.io", "TokenRequest", name, List.of(NameValidation.invalid(
          "metadata.name", named, "must match the service account name if specified")));
    }
    Store.Stored account = store.get(SERVICE_ACCOUNTS, namespace, name);
    if (account == null) {
      return StatusErrors.notFound(target);
    }
    ObjectNode spec = request.has("spec") && request.get("spec").isObject() ? (ObjectNode) request.get("spec")
        : request.putObject("spec");
    long expiration = spec.path("expirationSeconds").asLong(DEFAULT_EXPIRATION_SECONDS);
    if (expiration < MIN_EXPIRATION_SECONDS) {
      return invalid("spec.expirationSeconds: Invalid value: " + expiration
          + ": may not specify a duration less than 10 minutes");
    }
    if (expiration > MAX_EXPIRATION_SECONDS) {
      return invalid("spec.expirationSeconds: Invalid value: " + expiration
          + ": may not specify a duration larger than 2^32 seconds");
    }
    spec.put("expirationSeconds", expiration);
    List<String> audiences = strings(spec.path("audiences"));
    if (audiences.isEmpty()) {
      audiences = List.of(ISSUER);
      spec.putArray("audiences").add(ISSUER);
    }
    Map<String, Object> kubernetes = new LinkedHashMap<>();
    kubernetes.put("namespace", namespace);
    JsonNode bound = spec.path("boundObjectRef");
    if (!bound.isMissingNode() && !bound.isNull()) {
      if (!"Pod".equals(bound.path("kind").asText())) {
        return invalid("spec.boundObjectRef.kind: Unsupported value: \"" + bound.path("kind").asText()
            + "\": supported values: \"Pod\"");
      }
      String podName = bound.path("name").asText("");
      Store.Stored pod = store.get(PODS, namespace, podName);
      if (pod == null) {
        return Response.status(404, "NotFound", "pods \"" + podName + "\" not found");
      }
      String uid = bound.path("uid").asText("");
      if (!uid.isEmpty() && !uid.equals(pod.uid())) {
        return Response.status(409, "Conflict", "the UID in the bound object reference (" + uid
            + ") does not match the UID in record. The object might have been deleted and then recreated");
      }
      kubernetes.put("pod", Map.of("name", podName, "uid", pod.uid()));
    }
    kubernetes.put("serviceaccount", Map.of("name", name, "uid", account.uid()));
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    Instant expires = now.plusSeconds(expiration);
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .subject("system:serviceaccount:" + namespace + ":" + name)
        .audience(audiences)
        .expirationTime(Date.from(expires))
        .issueTime(Date.from(now))
        .notBeforeTime(Date.from(now))
        .jwtID(UUID.randomUUID().toString())
        .claim("kubernetes.io", kubernetes)
        .build();
    ObjectNode answer = NODES.objectNode().put("kind", "TokenRequest")
        .put("apiVersion", "authentication.k8s.io/v1");
    answer.putObject("metadata").put("name", name).put("namespace", namespace).put("uid", account.uid())
        .put("creationTimestamp", now.toString());
    answer.set("spec", spec);
    answer.putObject("status").put("token", sign(claims)).put("expirationTimestamp", expires.toString());
    return Response.json(201, answer.toString());
  }

  /**
   * The {@code status} of a TokenReview of {@code spec}: {@code authenticated}, and the {@code user} and
   * {@code audiences}, or an {@code error}.
   */
  ObjectNode review(JsonNode spec) {
    ObjectNode status = NODES.objectNode();
    List<String> requested = strings(spec.path("audiences"));
    List<String> wanted = requested.isEmpty() ? List.of(ISSUER) : requested;
    try {
      SignedJWT jwt = SignedJWT.parse(spec.path("token").asText(""));
      if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
        return unauthenticated(status, INVALID_TOKEN);
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      Instant now = clock.instant();
      if (!ISSUER.equals(claims.getIssuer())) {
        return unauthenticated(status, INVALID_TOKEN);
      }
      if (claims.getExpirationTime() == null
          || claims.getExpirationTime().toInstant().plusSeconds(LEEWAY_SECONDS).isBefore(now)) {
        return unauthenticated(status, INVALID_TOKEN + ", service account token has expired");
      }
      if (claims.getNotBeforeTime() != null
          && claims.getNotBeforeTime().toInstant().minusSeconds(LEEWAY_SECONDS).isAfter(now)) {
        return unauthenticated(status, INVALID_TOKEN + ", service account token is not valid yet");
      }
      List<String> audiences = claims.getAudience().stream().filter(wanted::contains).toList();
      if (audiences.isEmpty()) {
        return unauthenticated(status, INVALID_TOKEN + ", token audiences " + claims.getAudience()
            + " is invalid for the target audiences " + wanted);
      }
      Optional<ObjectNode> user = user(claims);
      if (user.isEmpty()) {
        return unauthenticated(status, INVALID_TOKEN + ", service account token has been invalidated");
      }
      status.put("authenticated", true);
      status.set("user", user.get());
      ArrayNode granted = status.putArray("audiences");
      audiences.forEach(granted::add);
      return status;
    } catch (ParseException | JOSEException | RuntimeException e) {
      return unauthenticated(status, INVALID_TOKEN);
    }
  }

  /** The user of a token whose ServiceAccount (and bound Pod) still exist with the uids it names. */
  @SuppressWarnings("unchecked")
  private Optional<ObjectNode> user(JWTClaimsSet claims) throws ParseException {
    Map<String, Object> kubernetes = claims.getJSONObjectClaim("kubernetes.io");
    if (kubernetes == null || !(kubernetes.get("serviceaccount") instanceof Map<?, ?> account)) {
      return Optional.empty();
    }
    String namespace = String.valueOf(kubernetes.get("namespace"));
    String name = String.valueOf(account.get("name"));
    Store.Stored stored = store.get(SERVICE_ACCOUNTS, namespace, name);
    if (stored == null || !stored.uid().equals(account.get("uid"))
        || !claims.getSubject().equals("system:serviceaccount:" + namespace + ":" + name)) {
      return Optional.empty();
    }
    ObjectNode user = NODES.objectNode().put("username", claims.getSubject()).put("uid", stored.uid());
    user.putArray("groups").add("system:serviceaccounts").add("system:serviceaccounts:" + namespace)
        .add("system:authenticated");
    ObjectNode extra = user.putObject("extra");
    if (kubernetes.get("pod") instanceof Map<?, ?> pod) {
      Store.Stored boundPod = store.get(PODS, namespace, String.valueOf(pod.get("name")));
      if (boundPod == null || !boundPod.uid().equals(pod.get("uid"))) {
        return Optional.empty();
      }
      extra.putArray("authentication.kubernetes.io/pod-name").add(boundPod.name());
      extra.putArray("authentication.kubernetes.io/pod-uid").add(boundPod.uid());
    }
    if (claims.getJWTID() != null) {
      extra.putArray("authentication.kubernetes.io/credential-id").add("JTI=" + claims.getJWTID());
    }
    return Optional.of(user);
  }

  private String sign(JWTClaimsSet claims) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID())
          .type(JOSEObjectType.JWT).build(), claims);
      jwt.sign(signer);
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign a ServiceAccount token", e);
    }
  }

  private static ObjectNode unauthenticated(ObjectNode status, String error) {
    status.removeAll();
    status.put("authenticated", false);
    status.putObject("user");
    status.put("error", error);
    return status;
  }

  /** kube-apiserver's answer to a TokenRequest its validation refuses: named "", with the cause. */
  private static Response invalid(String cause) {
    return StatusErrors.invalid("authentication.k8s.io", "TokenRequest", "", List.of(cause));
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return values;
  }
}
