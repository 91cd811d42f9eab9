package io.kftrainer.webhook;

import io.kftrainer.apiserver.ServiceRoutes;
import io.kftrainer.apiserver.WebhookDispatcher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.testkit.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook machinery of local mode against the operator's real webhook server with test handlers: which
 * webhooks are called, and how their answers and failures reach the client. Each test selects its own webhooks
 * with the label {@code test=<case>} on the ConfigMaps it creates.
 */
class WebhookDispatcherTest {

  private static final String NAMESPACE = "default";
  private static final Duration CACHE_TIMEOUT = Duration.ofSeconds(20);
  private static final CountDownLatch RELEASE_SLOW_CALLS = new CountDownLatch(1);

  private static EmbeddedApiServer server;
  private static KubernetesClient client;
  private static TestingWebhookServer webhooks;
  private static WebhookDispatcher dispatcher;

  @BeforeAll
  static void start() throws Exception {
    webhooks = new TestingWebhookServer(Map.of(
        "/deny", request -> denied(),
        "/label", request -> addLabel(),
        "/require-label", request -> "yes".equals(Fixtures.serialization()
            .convertValue(request.getObject(), ConfigMap.class).getMetadata().getLabels().get("mutated"))
            ? TestingWebhookServer.allowed() : denied(),
        "/allow", request -> TestingWebhookServer.allowed(),
        "/slow", request -> {
          try {
            RELEASE_SLOW_CALLS.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return TestingWebhookServer.allowed();
        }));
    server = EmbeddedApiServer.start();
    client = server.client();
    ServiceRoutes routes = new ServiceRoutes()
        .route(TestingWebhookServer.NAMESPACE, TestingWebhookServer.SERVICE, 443, webhooks::address)
        .route(TestingWebhookServer.NAMESPACE, "misnamed", 443, webhooks::address);
    dispatcher = new WebhookDispatcher(server.newClient(), routes);
    dispatcher.start(server);
  }

  @AfterAll
  static void stop() {
    RELEASE_SLOW_CALLS.countDown();
    dispatcher.close();
    server.close();
    webhooks.close();
  }

  @Test
  void aDenialReachesTheClientAsTheApiServerWordsIt() throws InterruptedException {
    install(validating("deny", service("/deny"), "Fail", 10));

    assertThatThrownBy(() -> create("denied", "deny"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(422);
          assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
          assertThat(e.getStatus().getMessage())
              .isEqualTo("admission webhook \"deny.webhooks.test\" denied the request: ConfigMap \"denied\" is "
                  + "invalid: data: Forbidden: not here");
          assertThat(e.getStatus().getDetails().getCauses())
              .containsExactly(new StatusCause("data", "Forbidden: not here", "FieldValueForbidden"));
        });
    assertThat(client.configMaps().inNamespace(NAMESPACE).withName("denied").get()).isNull();
  }

  @Test
  void anObjectTheSelectorExcludesIsNotSentToTheWebhook() throws InterruptedException {
    install(validating("deny", service("/deny"), "Fail", 10));
    int calls = webhooks.calls();

    create("not-selected", "something-else");

    assertThat(webhooks.calls()).isEqualTo(calls);
    assertThat(client.configMaps().inNamespace(NAMESPACE).withName("not-selected").get()).isNotNull();
  }

  @Test
  void mutatingWebhooksPatchTheObjectBeforeValidatingWebhooksSeeIt() throws InterruptedException {
    install(mutating("mutate", service("/label")));
    install(validating("mutate", service("/require-label"), "Fail", 10));

    ConfigMap stored = create("mutated", "mutate");

    assertThat(stored.getMetadata().getLabels()).containsEntry("mutated", "yes").containsEntry("test", "mutate");
  }

  @Test
  void aFailedCallIsIgnoredUnderFailurePolicyIgnore() throws InterruptedException {
    install(validating("ignore", service("unrouted", "/deny"), "Ignore", 10));

    assertThat(create("ignored", "ignore")).isNotNull();
  }

  @Test
  void aFailedCallRefusesTheRequestUnderFailurePolicyFail() throws InterruptedException {
    install(validating("fail", service("unrouted", "/deny"), "Fail", 10));

    assertThatThrownBy(() -> create("failed", "fail"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(500);
          assertThat(e.getStatus().getReason()).isEqualTo("InternalError");
          assertThat(e.getStatus().getMessage()).isEqualTo("Internal error occurred: failed calling webhook "
              + "\"fail.webhooks.test\": failed to call webhook: Post "
              + "\"https://unrouted.hooks-ns.svc:443/deny?timeout=10s\": service \"unrouted\" not found");
        });
  }

  @Test
  void aServerCertificateNotSignedByTheCaBundleFailsTheCall() throws InterruptedException {
    WebhookClientConfig untrusted = service("/allow");
    untrusted.setCaBundle(TestingWebhookServer.otherCaBundle());
    install(validating("untrusted", untrusted, "Fail", 10));

    assertThatThrownBy(() -> create("untrusted", "untrusted"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
            .startsWith("Internal error occurred: failed calling webhook \"untrusted.webhooks.test\": failed to call "
                + "webhook: Post \"https://hooks.hooks-ns.svc:443/allow?timeout=10s\": tls: failed to verify "
                + "certificate: "));
  }

  @Test
  void aServerCertificateForAnotherServiceFailsTheCall() throws InterruptedException {
    install(validating("misnamed", service("misnamed", "/allow"), "Fail", 10));

    assertThatThrownBy(() -> create("misnamed", "misnamed"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
            .endsWith("x509: certificate is valid for hooks.hooks-ns.svc, not misnamed.hooks-ns.svc"));
  }

  @Test
  void aCallLongerThanTimeoutSecondsFails() throws InterruptedException {
    install(validating("slow", service("/slow"), "Fail", 1));

    assertThatThrownBy(() -> create("slow", "slow"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
            .isEqualTo("Internal error occurred: failed calling webhook \"slow.webhooks.test\": failed to call "
                + "webhook: Post \"https://hooks.hooks-ns.svc:443/slow?timeout=1s\": context deadline exceeded"));
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static ConfigMap create(String name, String test) {
    return client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder()
        .withNewMetadata().withName(name).withLabels(Map.of("test", test)).endMetadata()
        .withData(Map.of("key", "value"))
        .build()).create();
  }

  private static AdmissionResponse denied() {
    AdmissionResponse response = new AdmissionResponse();
    response.setAllowed(false);
    response.setStatus(new StatusBuilder().withStatus("Failure").withCode(422).withReason("Invalid")
        .withMessage("ConfigMap \"denied\" is invalid: data: Forbidden: not here")
        .withNewDetails().withKind("ConfigMap").withName("denied")
        .withCauses(new StatusCause("data", "Forbidden: not here", "FieldValueForbidden")).endDetails()
        .build());
    return response;
  }

  private static AdmissionResponse addLabel() {
    AdmissionResponse response = TestingWebhookServer.allowed();
    response.setPatchType("JSONPatch");
    response.setPatch(Base64.getEncoder().encodeToString(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/mutated\",\"value\":\"yes\"}]".getBytes(StandardCharsets.UTF_8)));
    return response;
  }

  private static WebhookClientConfig service(String path) {
    return service(TestingWebhookServer.SERVICE, path);
  }

  private static WebhookClientConfig service(String name, String path) {
    return new WebhookClientConfigBuilder().withCaBundle(webhooks.caBundle())
        .withNewService().withNamespace(TestingWebhookServer.NAMESPACE).withName(name).withPath(path).endService()
        .build();
  }

  private static RuleWithOperations configMapCreates() {
    return new RuleWithOperationsBuilder().withApiGroups("").withApiVersions("v1").withResources("configmaps")
        .withOperations("CREATE").build();
  }

  private static ValidatingWebhookConfiguration validating(String test, WebhookClientConfig clientConfig,
      String failurePolicy, int timeoutSeconds) {
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName("validating-" + test).endMetadata()
        .addNewWebhook().withName(test + ".webhooks.test").withAdmissionReviewVersions("v1").withSideEffects("None")
        .withFailurePolicy(failurePolicy).withTimeoutSeconds(timeoutSeconds).withClientConfig(clientConfig)
        .withRules(configMapCreates())
        .withNewObjectSelector().withMatchLabels(Map.of("test", test)).endObjectSelector()
        .endWebhook()
        .build();
  }

  private static MutatingWebhookConfiguration mutating(String test, WebhookClientConfig clientConfig) {
    return new MutatingWebhookConfigurationBuilder()
        .withNewMetadata().withName("mutating-" + test).endMetadata()
        .addNewWebhook().withName(test + ".mutating.webhooks.test").withAdmissionReviewVersions("v1")
        .withSideEffects("None").withClientConfig(clientConfig).withRules(configMapCreates())
        .withNewObjectSelector().withMatchLabels(Map.of("test", test)).endObjectSelector()
        .endWebhook()
        .build();
  }

  private static void install(io.fabric8.kubernetes.api.model.HasMetadata configuration) throws InterruptedException {
    client.resource(configuration).serverSideApply();
    assertThat(dispatcher.awaitCallable(List.of(configuration.getMetadata().getName()), CACHE_TIMEOUT)).isTrue();
  }
}
