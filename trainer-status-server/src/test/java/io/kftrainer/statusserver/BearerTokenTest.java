package io.kftrainer.statusserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's TestExtractRawToken cases. */
class BearerTokenTest {

  static Stream<Arguments> headers() {
    return Stream.of(
        Arguments.of("bearer token is extracted", "Bearer token", "token"),
        Arguments.of("scheme is matched case-insensitively", "bearer token", "token"),
        Arguments.of("repeated whitespace between scheme and credentials is tolerated", "Bearer \t token", "token"),
        Arguments.of("surrounding whitespace is tolerated", "  Bearer token  ", "token"),
        Arguments.of("no header yields no token", null, ""),
        Arguments.of("empty header yields no token", "", ""),
        Arguments.of("whitespace-only header yields no token", "   ", ""),
        Arguments.of("missing credentials yield no token", "Bearer", ""),
        Arguments.of("missing scheme yields no token", "token", ""),
        Arguments.of("other authorization schemes yield no token", "Basic dXNlcjpwYXNz", ""),
        Arguments.of("scheme substring is not accepted", "Bearerx token", ""),
        Arguments.of("multiple credentials yield no token", "Bearer token another", ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headers")
  void extractsTheBearerCredential(String name, String header, String token) {
    assertThat(BearerToken.of(header)).isEqualTo(token);
  }
}
