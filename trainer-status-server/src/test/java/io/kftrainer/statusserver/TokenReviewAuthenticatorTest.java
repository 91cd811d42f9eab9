package io.kftrainer.statusserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The TokenReview fallback against the embedded API server's real TokenReviews: the same verdicts as the JWKS. */
class TokenReviewAuthenticatorTest {

  private EmbeddedApiServer api;
  private KubernetesClient client;
  private TokenReviewAuthenticator authenticator;

  @BeforeEach
  void start() {
    api = EmbeddedApiServer.start();
    client = api.newClient();
    for (String namespace : List.of("team", "other")) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
          .build()).create();
      await().atMost(Duration.ofSeconds(10)).until(() ->
          client.serviceAccounts().inNamespace(namespace).withName("default").get() != null);
    }
    authenticator = new TokenReviewAuthenticator(client);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void theTrainJobsOwnTokenIsAuthorizedAndRememberedForAMinute() {
    String token = token("team", "team", "a");

    assertThat(authenticator.verify(token, "team", "a").outcome()).isEqualTo(Verdict.Outcome.AUTHORIZED);
    api.resetRequests();
    assertThat(authenticator.verify(token, "team", "a").outcome()).isEqualTo(Verdict.Outcome.AUTHORIZED);
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void anotherTrainJobsOrNamespacesTokenIsForbidden() {
    assertThat(authenticator.verify(token("team", "team", "b"), "team", "a").outcome())
        .isEqualTo(Verdict.Outcome.FORBIDDEN);
    assertThat(authenticator.verify(token("other", "team", "a"), "team", "a").outcome())
        .isEqualTo(Verdict.Outcome.FORBIDDEN);
  }

  @Test
  void noTokenOrAForgedOneIsUnauthenticated() {
    String[] parts = token("team", "team", "a").split("\\.");

    assertThat(authenticator.verify("", "team", "a").outcome()).isEqualTo(Verdict.Outcome.UNAUTHENTICATED);
    assertThat(authenticator.verify("not-a-jwt", "team", "a").outcome())
        .isEqualTo(Verdict.Outcome.UNAUTHENTICATED);
    assertThat(authenticator.verify(parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse(), "team",
        "a").outcome()).isEqualTo(Verdict.Outcome.UNAUTHENTICATED);
  }

  /** A token of {@code accountNamespace}'s default ServiceAccount for the status endpoint of {@code ns/trainJob}. */
  private String token(String accountNamespace, String namespace, String trainJob) {
    return client.serviceAccounts().inNamespace(accountNamespace).withName("default").tokenRequest(
        new TokenRequestBuilder().withNewSpec()
            .withAudiences("trainer.kubeflow.org/v1alpha1/namespaces/" + namespace + "/trainjobs/" + trainJob
                + "/status")
            .endSpec().build()).getStatus().getToken();
  }
}
