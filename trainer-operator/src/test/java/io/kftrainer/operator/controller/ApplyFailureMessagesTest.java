package io.kftrainer.operator.controller;

import io.kftrainer.runtime.EventMessages;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ApplyFailureMessagesTest {

  private static final Status INVALID = new StatusBuilder().withStatus("Failure").withCode(422).withReason("Invalid")
      .withMessage("JobSet.jobset.x-k8s.io \"mnist\" is invalid: spec.replicatedJobs[0].replicas: Invalid value: -1")
      .build();

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of("a request timeout under fabric8's generic message names the timeout",
            new KubernetesClientException(ApplyFailureMessages.GENERIC,
                new ExecutionException(new HttpTimeoutException("request timed out"))),
            "apply JobSet team-a/mnist: HttpTimeoutException: request timed out"),
        Arguments.of("an interrupted read under fabric8's operation message names the read",
            new KubernetesClientException("Operation: [patch]  for kind: [JobSet]  with name: [mnist]  in namespace: "
                + "[team-a]  failed.", new InterruptedIOException("timeout")),
            "apply JobSet team-a/mnist: InterruptedIOException: timeout"),
        Arguments.of("a 422 Status gives its code, reason and message",
            new KubernetesClientException("Failure executing: PATCH at: https://10.0.0.1/apis/jobset.x-k8s.io/"
                + "v1alpha2/namespaces/team-a/jobsets/mnist. Message: long.", 422, INVALID),
            "apply JobSet team-a/mnist: 422 Invalid: JobSet.jobset.x-k8s.io \"mnist\" is invalid: "
                + "spec.replicatedJobs[0].replicas: Invalid value: -1"),
        Arguments.of("a message of the client's own is kept",
            new KubernetesClientException("the client is closed"),
            "apply JobSet team-a/mnist: the client is closed"),
        Arguments.of("a generic message with a cause that says nothing names the cause's type",
            new KubernetesClientException(ApplyFailureMessages.GENERIC, new InterruptedIOException()),
            "apply JobSet team-a/mnist: InterruptedIOException"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void theMessageNamesTheObjectAndTheCause(String name, KubernetesClientException failure, String message) {
    assertThat(ApplyFailureMessages.of(jobSet(), failure)).isEqualTo(message);
  }

  @Test
  void aClusterScopedObjectIsNamedWithoutNamespace() {
    HasMetadata namespace = new NamespaceBuilder().withNewMetadata().withName("team-b").endMetadata().build();

    assertThat(ApplyFailureMessages.of(namespace, new KubernetesClientException("the client is closed")))
        .isEqualTo("apply Namespace team-b: the client is closed");
  }

  @Test
  void asAnEventMessageTheStatusIsRedactedAndTruncated() {
    String key = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";
    Status status = new StatusBuilder(INVALID).withMessage("data.key: " + key + " " + "x".repeat(2000)).build();

    String message = EventMessages.of(ApplyFailureMessages.of(jobSet(),
        new KubernetesClientException("Failure executing", 422, status)));

    assertThat(message).startsWith("apply JobSet team-a/mnist: 422 Invalid: data.key: [redacted] xxx")
        .doesNotContain(key)
        .hasSize(EventMessages.MAX_LENGTH + " ...".length())
        .endsWith(" ...");
  }

  private static JobSet jobSet() {
    JobSet jobSet = new JobSet();
    jobSet.getMetadata().setName("mnist");
    jobSet.getMetadata().setNamespace("team-a");
    return jobSet;
  }
}
