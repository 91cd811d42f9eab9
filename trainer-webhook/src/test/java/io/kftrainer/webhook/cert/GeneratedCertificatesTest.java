package io.kftrainer.webhook.cert;

import static io.kftrainer.webhook.cert.WebhookConfigurations.NAMESPACE;
import static io.kftrainer.webhook.cert.WebhookConfigurations.SECRET;
import static io.kftrainer.webhook.cert.WebhookConfigurations.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The self-signed webhook certificates against an API server holding the webhook configurations of
 * {@code manifests/base}: stored in the Secret, published as caBundle, reused, renewed.
 */
class GeneratedCertificatesTest {

  private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

  private EmbeddedApiServer server;
  private final TestingClock clock = new TestingClock(START);

  @BeforeEach
  void startServer() {
    server = EmbeddedApiServer.start();
    WebhookConfigurations.install(server.client());
    server.resetRequests();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void theFirstStartStoresATlsSecretAndPublishesItsCaInEveryWebhook() {
    StoredCertificates served = certificates(clock).reconcile();

    Secret secret = secret();
    assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(secret.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt", "ca.key");
    assertThat(secret.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "trainer-operator");
    assertThat(decoded(secret, "ca.crt")).isEqualTo(served.serving().caBundlePem());
    assertThat(decoded(secret, "tls.crt")).isEqualTo(served.serving().certificatePem());
    assertThat(served.serving().dnsNames()).containsExactly("kubeflow-trainer-controller-manager.kubeflow-system.svc",
        "kubeflow-trainer-controller-manager.kubeflow-system.svc.cluster.local");
    assertThat(WebhookConfigurations.caBundles(server.client())).hasSize(4)
        .allSatisfy(bundle -> assertThat(bundle).isEqualTo(decoded(secret, "ca.crt")));
    assertThat(writes()).containsExactly(
        "POST /api/v1/namespaces/kubeflow-system/secrets",
        "PATCH /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validator.trainer.kubeflow.org",
        "PATCH /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/defaulter.trainer.kubeflow.org");
  }

  @Test
  void aSecondReplicaReusesTheSecretWithoutWritingAnything() {
    GeneratedCertificates first = certificates(clock);
    first.reconcile();
    server.resetRequests();

    GeneratedCertificates second = certificates(clock);
    second.reconcile();

    assertThat(second.keyManager().current().orElseThrow().certificate())
        .isEqualTo(first.keyManager().current().orElseThrow().certificate());
    assertThat(writes()).isEmpty();
  }

  @Test
  void nearExpiryTheServingCertificateIsRenewedWithTheSameCaSoTheCaBundleIsNotRewritten() {
    GeneratedCertificates certificates = certificates(clock);
    StoredCertificates before = certificates.reconcile();
    List<String> bundles = WebhookConfigurations.caBundles(server.client());
    server.resetRequests();

    clock.advance(Duration.ofDays(365 - 31));
    certificates.reconcile();
    assertThat(writes()).as("31 days before expiry nothing is due").isEmpty();

    clock.advance(Duration.ofDays(1));
    StoredCertificates after = certificates.reconcile();

    assertThat(after.serving().certificate()).isNotEqualTo(before.serving().certificate());
    assertThat(after.serving().notAfter()).isEqualTo(clock.instant().plus(Duration.ofDays(365)));
    assertThat(after.authority().orElseThrow().certificate())
        .isEqualTo(before.authority().orElseThrow().certificate());
    assertThat(certificates.keyManager().current().orElseThrow().certificate())
        .isEqualTo(after.serving().certificate());
    assertThat(decoded(secret(), "tls.crt")).isEqualTo(after.serving().certificatePem());
    assertThat(WebhookConfigurations.caBundles(server.client())).isEqualTo(bundles);
    assertThat(writes()).containsExactly("PUT /api/v1/namespaces/kubeflow-system/secrets/" + SECRET);
  }

  @Test
  void aCaDueForRenewalIsReplacedAndTheOldCaStaysInTheBundle() {
    GeneratedCertificates certificates = certificates(clock);
    StoredCertificates before = certificates.reconcile();

    clock.advance(Duration.ofDays(3650 - 29));
    StoredCertificates after = certificates.reconcile();

    assertThat(after.authority().orElseThrow().certificate())
        .isNotEqualTo(before.authority().orElseThrow().certificate());
    assertThat(after.serving().caBundle()).containsExactly(after.authority().get().certificate(),
        before.authority().get().certificate());
    assertThat(after.serving().issuer()).contains(after.authority().get().certificate());
    assertThat(WebhookConfigurations.caBundles(server.client()))
        .allSatisfy(bundle -> assertThat(bundle).isEqualTo(after.serving().caBundlePem()));
  }

  @Test
  void aReplicaPicksUpTheCertificateAnotherReplicaRenewed() {
    GeneratedCertificates follower = certificates(clock);
    GeneratedCertificates renewing = certificates(clock);
    follower.reconcile();
    renewing.reconcile();
    clock.advance(Duration.ofDays(340));
    StoredCertificates renewed = renewing.reconcile();
    server.resetRequests();

    follower.reconcile();

    assertThat(follower.keyManager().current().orElseThrow().certificate())
        .isEqualTo(renewed.serving().certificate());
    assertThat(writes()).isEmpty();
  }

  @Test
  void aSecretWithoutUsableCertificatesIsReplacedKeepingItsTypeAndOtherKeys() {
    server.client().secrets().inNamespace(NAMESPACE).resource(new SecretBuilder()
        .withNewMetadata().withName(SECRET).withNamespace(NAMESPACE).endMetadata()
        .withType("Opaque")
        .withData(Map.of("tls.crt", base64("garbage"), "note", base64("kept")))
        .build()).create();

    StoredCertificates served = certificates(clock).reconcile();

    Secret secret = secret();
    assertThat(secret.getType()).as("a Secret's type is immutable").isEqualTo("Opaque");
    assertThat(decoded(secret, "tls.crt")).isEqualTo(served.serving().certificatePem());
    assertThat(decoded(secret, "note")).isEqualTo("kept");
  }

  @Test
  void missingWebhookConfigurationsAreSkipped() {
    server.client().admissionRegistration().v1().validatingWebhookConfigurations()
        .withName(CaBundleInjector.VALIDATING_CONFIGURATION).delete();
    server.client().admissionRegistration().v1().mutatingWebhookConfigurations()
        .withName(CaBundleInjector.MUTATING_CONFIGURATION).delete();

    GeneratedCertificates certificates = certificates(clock);
    certificates.reconcile();

    assertThat(certificates.keyManager().current()).isPresent();
  }

  @Test
  void webhooksThatCallAUrlOfAnAddressTheCertificateNamesGetTheBundle() {
    var validating = WebhookConfigurations.validating(server.client());
    validating.getWebhooks().get(0).getClientConfig().setService(null);
    validating.getWebhooks().get(0).getClientConfig().setUrl("https://127.0.0.1:9443/validate");
    server.client().resource(validating).update();

    new GeneratedCertificates(server.newClient(), NAMESPACE, SECRET, SERVICE, List.of("127.0.0.1"), clock,
        new RotationPolicy(), Duration.ofHours(1)).reconcile();

    assertThat(WebhookConfigurations.caBundles(server.client())).doesNotContainNull();
  }

  @Test
  void webhooksThatCallAUrlOfAnotherHostKeepTheirOwnCaBundle() {
    var validating = WebhookConfigurations.validating(server.client());
    validating.getWebhooks().get(0).getClientConfig().setService(null);
    validating.getWebhooks().get(0).getClientConfig().setUrl("https://example.com/validate");
    server.client().resource(validating).update();

    certificates(clock).reconcile();

    assertThat(WebhookConfigurations.caBundles(server.client())).first().isNull();
    assertThat(WebhookConfigurations.caBundles(server.client()).subList(1, 4)).doesNotContainNull();
  }

  private GeneratedCertificates certificates(TestingClock time) {
    return new GeneratedCertificates(server.newClient(), NAMESPACE, SECRET, SERVICE, time, new RotationPolicy(),
        Duration.ofHours(1));
  }

  private Secret secret() {
    return server.client().secrets().inNamespace(NAMESPACE).withName(SECRET).get();
  }

  private List<String> writes() {
    return server.writes().stream().map(ApiRequest::toString)
        .map(request -> request.replaceAll(" \\[.*]$", ""))
        .toList();
  }

  private static String decoded(Secret secret, String key) {
    return new String(Base64.getDecoder().decode(secret.getData().get(key)));
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes());
  }
}
