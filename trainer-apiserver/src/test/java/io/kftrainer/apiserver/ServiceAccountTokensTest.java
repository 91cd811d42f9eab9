package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.CodedOutputStream;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ServiceAccount tokens as a kubelet and a relying party use them: the {@code default} ServiceAccount of a new
 * namespace, a TokenRequest bound to a pod, its verification with the OIDC discovery document and JWKS, and
 * TokenReviews that really check the token.
 */
class ServiceAccountTokensTest {

  private static final String AUDIENCE = "trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs/a/status";

  private EmbeddedApiServer server;
  private KubernetesClient client;
  private Http http;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    client = server.newClient();
    http = new Http(server);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .create();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aNewNamespaceGetsItsDefaultServiceAccount() {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(client.serviceAccounts().inNamespace("team").withName("default").get()).isNotNull());
  }

  /** As kube-apiserver (it failed the status server's key fetch there, which asked for application/json). */
  @Test
  void theKeySetIsServedAsAJwkSetAndRefusedToAClientAcceptingOnlyJson() {
    assertThat(http.get("/openid/v1/jwks", "application/json").code()).isEqualTo(406);
    assertThat(http.get("/openid/v1/jwks", "application/jwk-set+json").code()).isEqualTo(200);
    assertThat(http.get("/openid/v1/jwks", "application/json, */*").code()).isEqualTo(200);
    assertThat(http.get("/.well-known/openid-configuration", "application/json").code()).isEqualTo(200);
  }

  @Test
  void aTokenRequestBoundToAPodCarriesKubesClaimsAndVerifiesAgainstTheJwks() throws Exception {
    ServiceAccount account = defaultAccount();
    Pod pod = pod("worker-0");

    TokenRequest answer = requestToken(List.of(AUDIENCE), 3600L, pod);

    assertThat(answer.getSpec().getExpirationSeconds()).isEqualTo(3600L);
    SignedJWT jwt = SignedJWT.parse(answer.getStatus().getToken());
    String issuer = http.get("/.well-known/openid-configuration").json().path("issuer").asText();
    String jwksUri = http.get("/.well-known/openid-configuration").json().path("jwks_uri").asText();
    assertThat(issuer).isEqualTo("https://kubernetes.default.svc.cluster.local");
    assertThat(jwksUri).isEqualTo(issuer + "/openid/v1/jwks");
    ECKey key = JWKSet.parse(http.get("/openid/v1/jwks").body()).getKeyByKeyId(jwt.getHeader().getKeyID())
        .toECKey();
    assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("ES256");
    assertThat(key.isPrivate()).as("the JWKS publishes the public key only").isFalse();
    assertThat(jwt.verify(new ECDSAVerifier(key))).isTrue();
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    assertThat(claims.getIssuer()).isEqualTo(issuer);
    assertThat(claims.getSubject()).isEqualTo("system:serviceaccount:team:default");
    assertThat(claims.getAudience()).containsExactly(AUDIENCE);
    assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
        .isEqualTo(Duration.ofHours(1));
    assertThat(claims.getNotBeforeTime()).isEqualTo(claims.getIssueTime());
    assertThat(claims.getJWTID()).isNotBlank();
    assertThat(claims.getJSONObjectClaim("kubernetes.io")).isEqualTo(Map.of(
        "namespace", "team",
        "serviceaccount", Map.of("name", "default", "uid", account.getMetadata().getUid()),
        "pod", Map.of("name", "worker-0", "uid", pod.getMetadata().getUid())));
    assertThat(Instant.parse(answer.getStatus().getExpirationTimestamp()))
        .isEqualTo(claims.getExpirationTime().toInstant());
  }

  @Test
  void aReviewAuthenticatesTheTokenForItsAudienceAsItsServiceAccount() {
    defaultAccount();
    Pod pod = pod("worker-0");
    String token = requestToken(List.of(AUDIENCE), 3600L, pod).getStatus().getToken();

    TokenReview review = review(token, List.of(AUDIENCE));

    assertThat(review.getStatus().getAuthenticated()).isTrue();
    assertThat(review.getStatus().getAudiences()).containsExactly(AUDIENCE);
    assertThat(review.getStatus().getUser().getUsername()).isEqualTo("system:serviceaccount:team:default");
    assertThat(review.getStatus().getUser().getGroups()).containsExactly("system:serviceaccounts",
        "system:serviceaccounts:team", "system:authenticated");
    assertThat(review.getStatus().getUser().getExtra())
        .containsEntry("authentication.kubernetes.io/pod-name", List.of("worker-0"))
        .containsEntry("authentication.kubernetes.io/pod-uid", List.of(pod.getMetadata().getUid()));
  }

  @Test
  void aReviewRefusesAnotherAudienceAForgedTokenAndATokenWhosePodIsGone() {
    defaultAccount();
    Pod pod = pod("worker-0");
    String token = requestToken(List.of(AUDIENCE), 3600L, pod).getStatus().getToken();

    TokenReview otherAudience = review(token, List.of("trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs/b/status"));
    String[] parts = token.split("\\.");
    TokenReview forged = review(parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse(), List.of());
    TokenReview garbage = review("not-a-jwt", List.of(AUDIENCE));
    client.pods().inNamespace("team").withName("worker-0").withGracePeriod(0).delete();
    await().atMost(Duration.ofSeconds(10)).until(() -> client.pods().inNamespace("team").withName("worker-0").get() == null);
    TokenReview podGone = review(token, List.of(AUDIENCE));

    assertThat(List.of(otherAudience, forged, garbage, podGone)).allSatisfy(review -> {
      assertThat(review.getStatus().getAuthenticated()).isFalse();
      assertThat(review.getStatus().getError()).startsWith("invalid bearer token");
    });
    assertThat(otherAudience.getStatus().getError()).contains("is invalid for the target audiences");
  }

  @Test
  void withoutAudiencesTheTokenIsForTheApiServerItself() {
    defaultAccount();

    TokenRequest answer = requestToken(List.of(), null, null);

    assertThat(answer.getSpec().getAudiences()).containsExactly("https://kubernetes.default.svc.cluster.local");
    assertThat(answer.getSpec().getExpirationSeconds()).isEqualTo(3600L);
    assertThat(review(answer.getStatus().getToken(), List.of()).getStatus().getAuthenticated()).isTrue();
  }

  @Test
  void kubesRulesOnTheRequest() {
    defaultAccount();

    assertThatThrownBy(() -> requestToken(List.of(AUDIENCE), 60L, null))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getStatus().getMessage()).as("kube-apiserver names no object: validation comes first")
              .isEqualTo("TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid "
                  + "value: 60: may not specify a duration less than 10 minutes");
          assertThat(e.getStatus().getDetails().getGroup()).isEqualTo("authentication.k8s.io");
          assertThat(e.getStatus().getDetails().getKind()).isEqualTo("TokenRequest");
          assertThat(e.getStatus().getDetails().getCauses()).singleElement().satisfies(cause -> {
            assertThat(cause.getField()).isEqualTo("spec.expirationSeconds");
            assertThat(cause.getReason()).isEqualTo("FieldValueInvalid");
          });
        });
    assertThatThrownBy(() -> client.serviceAccounts().inNamespace("team").withName("default").tokenRequest(
        new TokenRequestBuilder().withNewMetadata().withName("other").endMetadata().withNewSpec().endSpec().build()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
            .isEqualTo("TokenRequest.authentication.k8s.io \"default\" is invalid: metadata.name: Invalid value: "
                + "\"other\": must match the service account name if specified"));
    assertThatThrownBy(() -> client.serviceAccounts().inNamespace("team").withName("absent").tokenRequest(
        new TokenRequestBuilder().withNewSpec().withAudiences(AUDIENCE).endSpec().build()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    assertThat(http.get("/apis/authentication.k8s.io/v1").code()).isEqualTo(200);
    assertThat(http.get("/api/v1").json().path("resources").findValuesAsText("name")).contains("serviceaccounts/token");
  }

  /** {@code kubectl create token} sends its TokenRequest in protobuf. */
  @Test
  void aTokenRequestInProtobufAsKubectlCreateTokenSendsIt() throws Exception {
    ServiceAccount account = defaultAccount();
    // runtime.Unknown {typeMeta {authentication.k8s.io/v1, TokenRequest}, raw {spec {expirationSeconds: 600}}}
    byte[] typeMeta = message(out -> {
      out.writeString(1, "authentication.k8s.io/v1");
      out.writeString(2, "TokenRequest");
    });
    byte[] raw = message(out -> out.writeByteArray(2, message(spec -> spec.writeInt64(4, 600))));
    byte[] unknown = message(out -> {
      out.writeByteArray(1, typeMeta);
      out.writeByteArray(2, raw);
    });
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    body.write(new byte[] {'k', '8', 's', 0});
    body.write(unknown);

    Http.Response answer = http.post("/api/v1/namespaces/team/serviceaccounts/default/token",
        "application/vnd.kubernetes.protobuf", HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));

    assertThat(answer.code()).as(answer.body()).isEqualTo(201);
    assertThat(answer.json().path("spec").path("expirationSeconds").asLong()).isEqualTo(600);
    assertThat(answer.json().path("metadata").path("uid").asText()).as("the ServiceAccount's, as kube-apiserver")
        .isEqualTo(account.getMetadata().getUid());
    assertThat(review(answer.json().path("status").path("token").asText(), List.of()).getStatus()
        .getAuthenticated()).isTrue();
  }

  @FunctionalInterface
  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Fields fields) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    fields.write(out);
    out.flush();
    return bytes.toByteArray();
  }

  private ServiceAccount defaultAccount() {
    await().atMost(Duration.ofSeconds(10)).until(() ->
        client.serviceAccounts().inNamespace("team").withName("default").get() != null);
    return client.serviceAccounts().inNamespace("team").withName("default").get();
  }

  private Pod pod(String name) {
    return client.pods().inNamespace("team").resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().addNewContainer().withName("node").withImage("train").endContainer().endSpec().build()).create();
  }

  private TokenRequest requestToken(List<String> audiences, Long expirationSeconds, Pod boundTo) {
    TokenRequestBuilder request = new TokenRequestBuilder().withNewSpec().withAudiences(audiences)
        .withExpirationSeconds(expirationSeconds).endSpec();
    if (boundTo != null) {
      request.editSpec().withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
          .withName(boundTo.getMetadata().getName()).withUid(boundTo.getMetadata().getUid()).endBoundObjectRef()
          .endSpec();
    }
    return client.serviceAccounts().inNamespace("team").withName("default").tokenRequest(request.build());
  }

  private TokenReview review(String token, List<String> audiences) {
    return client.resource(new TokenReviewBuilder().withNewSpec().withToken(token).withAudiences(audiences).endSpec()
        .build()).create();
  }
}
