package io.kftrainer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventMessagesTest {

  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.of("plain text is kept", "plugin MPI failed in ComponentBuilder: no launcher",
            "plugin MPI failed in ComponentBuilder: no launcher"),
        Arguments.of("a PEM block is redacted",
            "bad key -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY----- end",
            "bad key [redacted] end"),
        Arguments.of("a PEM block cut short is redacted to the end", "x -----BEGIN PRIVATE KEY-----\nMIIEvQ",
            "x [redacted]"),
        Arguments.of("a long base64 run is redacted",
            "data[ssh-privatekey]: Invalid value: \"LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0K\"",
            "data[ssh-privatekey]: Invalid value: \"[redacted]\""),
        Arguments.of("long words and paths are not base64",
            "/apis/jobset.x-k8s.io/v1alpha2/namespaces/default/jobsets/averyveryverylongtrainjobnamewithoutdigits",
            "/apis/jobset.x-k8s.io/v1alpha2/namespaces/default/jobsets/averyveryverylongtrainjobnamewithoutdigits"),
        Arguments.of("null is empty", null, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("messages")
  void messagesAreCleanedOfSecretMaterial(String description, String message, String expected) {
    assertThat(EventMessages.of(message)).isEqualTo(expected);
  }

  @Test
  void longMessagesAreTruncatedAt950CharactersAsUpstream() {
    String message = "x ".repeat(600);

    assertThat(EventMessages.of(message)).isEqualTo(message.substring(0, 950) + " ...").hasSize(954);
    assertThat(EventMessages.of(message.substring(0, 950))).isEqualTo(message.substring(0, 950));
  }
}
