package io.kftrainer.statusserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.text.ParseException;
import java.time.Clock;
import java.util.Date;
import java.util.Map;
import java.util.Set;

/**
 * Verifies ServiceAccount tokens as upstream does, with the cluster's OIDC issuer: the issuer comes from the API
 * server's discovery document ({@value #DISCOVERY_PATH}), the signing keys from its JWKS ({@value #JWKS_PATH}),
 * both read through the operator's client. Every conformant API server serves both paths itself (ServiceAccount
 * issuer discovery, GA in Kubernetes 1.21), whatever {@code jwks_uri} advertises to outside parties, so no other
 * host is contacted. nimbus-jose-jwt checks the signature, {@code iss} and the validity window (60 s skew); the keys
 * are cached and fetched again when a token names an unknown key (a rotation), at most every 30 s.
 *
 * <p>Then, as upstream, the token must name this TrainJob's status endpoint in {@code aud} and this namespace in its
 * {@code kubernetes.io} claim. A verified token that fails only these is another TrainJob's: {@link Verdict#forbidden}
 * rather than {@link Verdict#unauthenticated}. No API call is made per request.
 */
public final class JwksTokenAuthenticator implements TokenAuthenticator {

  static final String DISCOVERY_PATH = "/.well-known/openid-configuration";
  static final String JWKS_PATH = "/openid/v1/jwks";
  /** The key set's media type: kube-apiserver answers 406 to {@code Accept: application/json} there. */
  static final String JWK_SET_MEDIA_TYPE = "application/jwk-set+json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

  private final String issuer;
  private final ConfigurableJWTProcessor<SecurityContext> processor;

  JwksTokenAuthenticator(String issuer, JWKSource<SecurityContext> keys, Clock clock) {
    this.issuer = issuer;
    DefaultJWTProcessor<SecurityContext> jwt = new DefaultJWTProcessor<>();
    jwt.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
        JWSAlgorithm.RS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512), keys));
    jwt.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(null,
        new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "exp", "aud")) {
      @Override
      protected Date currentTime() {
        return Date.from(clock.instant());
      }
    });
    this.processor = jwt;
  }

  /**
   * Reads the issuer from the API server's discovery document and sets up the cached JWKS.
   *
   * @throws IllegalStateException if the API server does not serve the discovery document
   */
  public static JwksTokenAuthenticator discover(KubernetesClient client) {
    return discover(client, Clock.systemUTC());
  }

  /** As {@link #discover(KubernetesClient)}, judging expiry by {@code clock}. */
  static JwksTokenAuthenticator discover(KubernetesClient client, Clock clock) {
    ClusterApi api = new ClusterApi(client);
    String issuer;
    try {
      ClusterApi.Answer discovery = api.get(DISCOVERY_PATH, "application/json");
      if (!discovery.isSuccessful()) {
        throw new IllegalStateException("the API server answered " + discovery.code() + " to GET " + DISCOVERY_PATH
            + ": it does not serve ServiceAccount issuer discovery");
      }
      issuer = JSON.readTree(discovery.body()).path("issuer").asText("");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the cluster's OIDC discovery document: " + e.getMessage(), e);
    }
    if (issuer.isEmpty()) {
      throw new IllegalStateException("the cluster's OIDC discovery document names no issuer");
    }
    JWKSource<SecurityContext> keys;
    try {
      keys = JWKSourceBuilder.<SecurityContext>create(URI.create(api.url(JWKS_PATH)).toURL(), retriever(api))
          .cache(true).rateLimited(true).retrying(true).build();
    } catch (MalformedURLException e) {
      throw new IllegalStateException("bad API server URL " + api.url(JWKS_PATH), e);
    }
    return new JwksTokenAuthenticator(issuer, keys, clock);
  }

  public String issuer() {
    return issuer;
  }

  @Override
  public Verdict verify(String token, String namespace, String trainJobName) {
    if (token == null || token.isEmpty()) {
      return Verdict.unauthenticated("no bearer token");
    }
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (KeySourceException e) {
      throw new IllegalStateException("cannot read the cluster's token signing keys: " + e.getMessage(), e);
    } catch (ParseException | BadJOSEException | JOSEException e) {
      return Verdict.unauthenticated("token rejected: " + e.getMessage());
    }
    String subject = claims.getSubject();
    if (subject == null || !subject.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      return Verdict.unauthenticated("not a ServiceAccount token");
    }
    String audience = TrainJobStatusEndpoint.audience(namespace, trainJobName);
    if (!claims.getAudience().contains(audience)) {
      return Verdict.forbidden("the token's audience is not " + audience);
    }
    if (!namespace.equals(tokenNamespace(claims))) {
      return Verdict.forbidden("the token is not of namespace " + namespace);
    }
    return Verdict.authorized();
  }

  private static String tokenNamespace(JWTClaimsSet claims) {
    try {
      Map<String, Object> kubernetes = claims.getJSONObjectClaim("kubernetes.io");
      return kubernetes == null ? null : String.valueOf(kubernetes.get("namespace"));
    } catch (ParseException e) {
      return null;
    }
  }

  /** nimbus fetches the JWKS through this: the operator's client, not a connection of its own. */
  private static ResourceRetriever retriever(ClusterApi api) {
    return (URL url) -> {
      ClusterApi.Answer answer = api.get(JWKS_PATH, JWK_SET_MEDIA_TYPE);
      if (!answer.isSuccessful()) {
        throw new IOException("the API server answered " + answer.code() + " to GET " + JWKS_PATH);
      }
      return new Resource(answer.body(), JWK_SET_MEDIA_TYPE);
    };
  }
}
