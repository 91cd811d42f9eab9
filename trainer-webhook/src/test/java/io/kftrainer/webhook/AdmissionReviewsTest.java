package io.kftrainer.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.testkit.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The AdmissionReview protocol around a handler: uid, apiVersion and kind, malformed reviews, failing handlers. */
class AdmissionReviewsTest {

  private final AdmissionReviews reviews = new AdmissionReviews(TestingAdmission.SERIALIZATION);
  private final TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("webhook/trainjob.yaml"));

  @Test
  void theResponseReviewCarriesTheRequestUidAndTheHandlersDecision() {
    AdmissionRequest request = TestingAdmission.create(trainJob);
    List<AdmissionRequest> seen = new ArrayList<>();

    JsonNode answer = json(reviews.answer(bytes(TestingAdmission.review(request)), r -> {
      seen.add(r);
      return AdmissionResponses.allowed(List.of("careful"));
    }));

    assertThat(answer.get("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(answer.get("kind").asText()).isEqualTo("AdmissionReview");
    assertThat(answer.has("request")).isFalse();
    assertThat(answer.at("/response/uid").asText()).isEqualTo(request.getUid());
    assertThat(answer.at("/response/allowed").asBoolean()).isTrue();
    assertThat(answer.at("/response/warnings/0").asText()).isEqualTo("careful");
    assertThat(seen).singleElement().satisfies(r -> {
      assertThat(r.getOperation()).isEqualTo("CREATE");
      assertThat(r.getNamespace()).isEqualTo("team-a");
    });
  }

  @Test
  void aHandlerThatThrowsDeniesWithAnInternalError() {
    AdmissionRequest request = TestingAdmission.create(trainJob);

    JsonNode answer = json(reviews.answer(bytes(TestingAdmission.review(request)), r -> {
      throw new IllegalStateException("boom");
    }));

    assertThat(answer.at("/response/uid").asText()).isEqualTo(request.getUid());
    assertThat(answer.at("/response/allowed").asBoolean()).isFalse();
    assertThat(answer.at("/response/status/code").asInt()).isEqualTo(500);
    assertThat(answer.at("/response/status/reason").asText()).isEqualTo("InternalError");
    assertThat(answer.at("/response/status/message").asText())
        .isEqualTo("the trainer webhook failed: java.lang.IllegalStateException: boom");
  }

  @Test
  void aFailingPluginsMessageIsAnsweredWithoutKeyMaterial() {
    AdmissionRequest request = TestingAdmission.create(trainJob);
    String key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAA\n"
        + "-----END OPENSSH PRIVATE KEY-----";

    JsonNode answer = json(reviews.answer(bytes(TestingAdmission.review(request)), r -> {
      throw new PluginException("Leaky", "CustomValidation", new IllegalStateException("cannot use " + key));
    }));

    assertThat(answer.at("/response/status/code").asInt()).isEqualTo(500);
    assertThat(answer.at("/response/status/message").asText())
        .contains("plugin Leaky", "[redacted]").doesNotContain("PRIVATE KEY", "b3BlbnNzaC1rZXktdjEA");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "a body that is not JSON | not json | the body is not an AdmissionReview",
      "a v1beta1 review | {\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\","
          + "\"request\":{\"uid\":\"1\"}} | expected an AdmissionReview of admission.k8s.io/v1",
      "a review without a request | {\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"} "
          + "| the AdmissionReview has no request uid"})
  void malformedReviewsAreBadRequests(String name, String body, String message) {
    assertThatThrownBy(() -> reviews.answer(bytes(body), r -> AdmissionResponses.allowed()))
        .isInstanceOf(AdmissionReviews.BadRequestException.class)
        .hasMessageStartingWith(message);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode json(byte[] body) {
    return TestingAdmission.SERIALIZATION.unmarshal(new String(body, StandardCharsets.UTF_8), JsonNode.class);
  }
}
